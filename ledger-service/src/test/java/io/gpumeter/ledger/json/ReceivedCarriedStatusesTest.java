package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.json.InstantJson;
import io.gpumeter.common.json.PodVersionJson;
import io.gpumeter.common.json.PodVersionJsonTest;
import io.gpumeter.ledger.repository.ReceivedPayloads;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bundle's carried entries read with their received payloads read exactly as the general deserializer reads them,
 * refusals included, and keep their bytes only when those are in the written form.
 */
class ReceivedCarriedStatusesTest {

    private static final ObjectMapper JSON = mapper(true);
    private static final ObjectMapper GENERAL = mapper(false);

    private static ObjectMapper mapper(boolean received) {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        new InstantJson().customize(mapper);
        new PodVersionJson().customize(mapper);
        if (received) {
            new ReceivedPodVersions().customize(mapper);
        }
        return mapper;
    }

    private static PodFact pod() {
        return new PodFact("u-1", "ml", "train-0", "41", WatchEventType.MODIFIED, Instant.parse("2026-05-01T08:00:00Z"),
                Instant.parse("2026-05-01T07:00:00Z"), null, "node-1", "Failed", "volcano", true, null, null,
                new Owner("Job", "train"), Map.of(), Map.of("nvidia.com/gpu", 1L), List.of(), List.of());
    }

    private static CarriedStatus carried() {
        return new CarriedStatus("Error", null, "gang-1", "team-a", null, Instant.parse("2026-05-01T07:59:00.5Z"),
                List.of(new ContainerStatusFact("main", false, 3,
                        new ContainerState("terminated", "OOMKilled", "out of memory", 137,
                                Instant.parse("2026-05-01T07:01:00Z"), Instant.parse("2026-05-01T07:58:00Z")),
                        new ContainerState("waiting", "CrashLoopBackOff", null, null, null, null))));
    }

    private static String written(Object value) throws JsonProcessingException {
        return JSON.writeValueAsString(value);
    }

    private static byte[] bundle(String pods, String carried) {
        return ("{\"facts\":{\"cluster\":\"c1\",\"pods\":[" + pods + "]},\"carriedStatuses\":[" + carried + "]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    /** The bundle, or the refusal's kind and words, with the general deserializer's path in it. */
    private static Object outcome(ThrowingRead read) {
        try {
            return read.read();
        } catch (Exception e) {
            Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
            String where = cause instanceof JsonMappingException m ? m.getPathReference() : "";
            String words = cause instanceof JsonProcessingException p ? p.getOriginalMessage() : cause.getMessage();
            return cause.getClass().getName() + " at " + where + ": " + words;
        }
    }

    private interface ThrowingRead {
        Object read() throws Exception;
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "as written                      | ``                                  | ``                                           | true",
            "whitespace between tokens       | `,\"message\":`                     | ` ,\n \"message\" : `                        | true",
            "a letter escaped                | `\"gang-1\"`                        | `\"\\u0067ang-1\"`                           | true",
            "fields in another order         | `{\"reason\":\"Error\",\"message\":null` | `{\"message\":null,\"reason\":\"Error\"` | false",
            "an unknown field first          | `{\"reason\"`                       | `{\"x\":[1],\"reason\"`                      | false",
            "an unknown field of a container | `\"restartCount\":3`                | `\"restartCount\":3,\"x\":{}`                | false",
            "an unknown field of a state     | `\"exitCode\":137`                  | `\"exitCode\":137,\"x\":null`                | false",
            "the containers missing          | `,\"containers\":[`                 | `,\"c\":[`                                   | false",
            "the containers null             | `\"containers\":[`                  | `\"containers\":null,\"c\":[`                | false",
            "an instant with an offset       | `\"2026-05-01T07:58:00Z\"`          | `\"2026-05-01T09:58:00+02:00\"`              | false",
            "an instant as a number          | `\"2026-05-01T07:58:00Z\"`          | `1777622280`                                 | false",
            "an exit code as text            | `\"exitCode\":137`                  | `\"exitCode\":\"137\"`                       | false",
            "an exit code as a fraction      | `\"exitCode\":137`                  | `\"exitCode\":137.0`                         | false",
            "an exit code beyond an int      | `\"exitCode\":137`                  | `\"exitCode\":3000000000`                    | false",
            "a restart count as null         | `\"restartCount\":3`                | `\"restartCount\":null`                      | false",
            "init as text                    | `\"init\":false`                    | `\"init\":\"false\"`                         | false",
            "init as a number                | `\"init\":false`                    | `\"init\":0`                                 | false",
            "a state as an array             | `\"lastState\":{`                   | `\"lastState\":[{`                           | false",
            "a container as null             | `\"containers\":[`                  | `\"containers\":[null,`                      | false",
            "a field name twice              | `\"queueName\":\"team-a\"`          | `\"queueName\":\"b\",\"queueName\":\"team-a\"` | false",
            "a trailing comma                | `\"placement\":null}`              | `\"placement\":null,}`                     | false",
            "a literal misspelt              | `\"init\":false`                    | `\"init\":fals`                              | false",
            "a string not closed             | `\"gang-1\"`                        | `\"gang-1`                                   | false",
            "a control character in a string | `\"gang-1\"`                        | `\"gang\t-1\"`                               | false",
    })
    void everyVariantReadsAsTheGeneralDeserializerReadsIt(String name, String from, String to, boolean kept)
            throws Exception {
        String text = written(carried());
        if (!from.isEmpty()) {
            assertTrue(text.contains(from), name + ": the written entry has " + from);
            text = text.replace(from, to);
        }
        byte[] body = bundle(written(pod()), text);
        Object expected = outcome(() -> GENERAL.readValue(body, FactBundle.class));
        ReceivedPayloads.Read<?>[] read = new ReceivedPayloads.Read<?>[1];
        Object actual = outcome(() -> {
            read[0] = ReceivedPayloads.read(JSON, new ByteArrayInputStream(body), FactBundle.class);
            return read[0].value();
        });
        if (!(expected instanceof FactBundle)) {
            assertTrue(!kept && !(actual instanceof FactBundle), name + ": refused both ways, " + actual);
            assertEquals(((String) expected).replaceAll(" at .*?: ", ": "), ((String) actual).replaceAll(" at .*?: ", ": "),
                    name + ": the same refusal");
            return;
        }
        assertEquals(expected, actual, name);
        CarriedStatus entry = ((FactBundle) actual).carriedStatuses().get(0);
        Buffer bytes = read[0].payloads().of(entry);
        if (kept) {
            assertNotNull(bytes, name + ": the bytes are kept");
            assertEquals(text, bytes.toString(StandardCharsets.UTF_8), name + ": exactly the entry's bytes");
            assertEquals(entry, GENERAL.readValue(bytes.getBytes(), CarriedStatus.class), name + ": they read back");
        } else {
            assertNull(bytes, name + ": not in the written form, so written anew");
        }
    }

    /** Whether every instant of the entry is written with a four-digit year, the UTC form, without a sign. */
    private static boolean fourDigitYears(CarriedStatus entry) {
        List<Instant> instants = new ArrayList<>(Arrays.asList(entry.deletedAt(), entry.readyChangedAt(),
                entry.scheduling() == null ? null : entry.scheduling().since()));
        for (ContainerStatusFact container : entry.containers()) {
            for (ContainerState state : Arrays.asList(container.state(), container.lastState())) {
                if (state != null) {
                    instants.add(state.startedAt());
                    instants.add(state.finishedAt());
                }
            }
        }
        return instants.stream().allMatch(t -> t == null || Character.isDigit(t.toString().charAt(0)));
    }

    @Test
    void entriesOfEveryShapeAreKeptAsTheyWereWrittenAndStoredAsTheyCame() throws Exception {
        SplittableRandom random = new SplittableRandom(41);
        List<PodFact> pods = new ArrayList<>();
        List<CarriedStatus> entries = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            pods.add(PodVersionJsonTest.pod(random));
            entries.add(PodVersionJsonTest.carried(random));
        }
        byte[] body = JSON.writeValueAsBytes(new FactBundle(new FactBatch("c1", List.of(), List.of(), pods), null, entries));
        ReceivedPayloads.Read<FactBundle> read = ReceivedPayloads.read(JSON, new ByteArrayInputStream(body), FactBundle.class);
        List<CarriedStatus> received = read.value().carriedStatuses();
        assertEquals(entries, received);
        Buffer[] stored = StoredPayloads.encodeOrNull(JSON, received, read.payloads());
        int kept = 0;
        for (int i = 0; i < entries.size(); i++) {
            Buffer bytes = read.payloads().of(received.get(i));
            assertEquals(fourDigitYears(entries.get(i)), bytes != null,
                    "entry " + i + " is in the written form unless an instant needs a sign: " + entries.get(i));
            if (bytes != null) {
                assertSame(bytes, stored[i], "entry " + i + " stored as it came");
                kept++;
            }
            assertArrayEquals(JSON.writeValueAsBytes(entries.get(i)), stored[i].getBytes(), "entry " + i);
        }
        assertTrue(kept > 100, kept + " entries kept");
        assertArrayEquals(JSON.writeValueAsBytes(entries.get(0)),
                StoredPayloads.encodeOrNull(JSON, List.of(entries.get(0)), read.payloads())[0].getBytes(),
                "an equal entry made elsewhere is written anew, to the same bytes");
    }
}
