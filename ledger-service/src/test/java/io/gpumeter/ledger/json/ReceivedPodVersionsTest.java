package io.gpumeter.ledger.json;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.json.InstantJson;
import io.gpumeter.common.json.PodVersionJson;
import io.gpumeter.ledger.repository.ReceivedPayloads;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A body read with its received payloads reads exactly what the general deserializer reads, refusals included, and
 * keeps the bytes of a pod version only when they are in the written form.
 */
class ReceivedPodVersionsTest {

    private static final ObjectMapper JSON = mapper();

    /** As the services' mapper: unknown properties ignored, instants as text, the pod version writers and readers. */
    private static ObjectMapper mapper() {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS)
                .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        new InstantJson().customize(mapper);
        new PodVersionJson().customize(mapper);
        new ReceivedPodVersions().customize(mapper);
        return mapper;
    }

    private static PodFact pod(String uid) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("team", "vision");
        labels.put("kueue.x-k8s.io/queue-name", "q-a");
        return new PodFact(uid, "ns-a", "trainer", "41", WatchEventType.MODIFIED,
                Instant.parse("2026-05-01T08:00:00Z"), Instant.parse("2026-05-01T07:00:00.250Z"),
                Instant.parse("2026-05-01T07:00:05Z"), "node-1", "Running", "volcano", false, null, null,
                new Owner("Job", "train-1"), labels, Map.of("nvidia.com/gpu", 2L),
                List.of(new VgpuGrant(0, "GPU-1", "NVIDIA-A100", 1024, 20)), List.of(new PodClaim("gpu", "c-1", null)));
    }

    /** Reads a body as it streams in, in reads of uneven sizes, from one byte to a few thousand. */
    private static ReceivedPayloads.Read<FactBatch> read(byte[] body) {
        SplittableRandom sizes = new SplittableRandom(body.length);
        return ReceivedPayloads.read(JSON, new FilterInputStream(new ByteArrayInputStream(body)) {
            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return super.read(b, off, Math.min(len, sizes.nextInt(3) == 0 ? 1 + sizes.nextInt(7) : 1 + sizes.nextInt(5_000)));
            }
        }, FactBatch.class);
    }

    private static String batch(String... pods) {
        return "{\"cluster\":\"c1\",\"namespaces\":[],\"nodes\":[],\"pods\":[" + String.join(",", pods) + "]}";
    }

    private static String written(Object value) throws JsonProcessingException {
        return JSON.writeValueAsString(value);
    }

    /**
     * What a read answers: the batch, or the refusal's kind, words and place. A body that is not JSON is refused for
     * the same character at the same line and column, the path named down to the pod version at least (the general
     * deserializer may name the field it was reading too).
     */
    private static Object outcome(ThrowingRead read) {
        try {
            return read.read();
        } catch (Exception e) {
            Throwable cause = e instanceof UncheckedIOException u ? u.getCause() : e;
            String where = cause instanceof JsonMappingException m ? m.getPathReference() : "";
            if (cause.getCause() instanceof JsonParseException syntax) {
                return new NotJson(where, syntax.getOriginalMessage(), syntax.getLocation().getLineNr(),
                        syntax.getLocation().getColumnNr());
            }
            String words = cause instanceof JsonProcessingException p ? p.getOriginalMessage() : cause.getMessage();
            return cause.getClass().getName() + " at " + where + ": " + words;
        }
    }

    private record NotJson(String path, String words, int line, int column) {
    }

    private static void assertSameOutcome(Object expected, Object actual, String variant) {
        if (expected instanceof NotJson general && actual instanceof NotJson read) {
            assertEquals(new NotJson("", general.words(), general.line(), general.column()),
                    new NotJson("", read.words(), read.line(), read.column()), variant);
            assertTrue(general.path().startsWith(read.path()) && read.path().contains("[\"pods\"]->java.util.ArrayList[0]"),
                    variant + ": " + read.path() + " names the pod version, " + general.path() + " more");
            return;
        }
        assertEquals(expected, actual, variant);
    }

    private interface ThrowingRead {
        Object read() throws Exception;
    }

    private record Variant(String name, UnaryOperator<String> change, boolean kept) {
    }

    private static Variant variant(String name, String from, String to, boolean kept) {
        return new Variant(name, text -> {
            assertTrue(text.contains(from), name + ": the written pod has " + from);
            return text.replace(from, to);
        }, kept);
    }

    /** The labels as the mapper wrote them, in the order of the immutable map it wrote them from. */
    private static final String LABELS = labels();

    private static String labels() {
        try {
            String text = written(pod("u-1"));
            int from = text.indexOf("\"labels\":") + "\"labels\":".length();
            return text.substring(from, text.indexOf('}', from) + 1);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> swapped(String labels) {
        List<String> entries = new ArrayList<>(List.of(labels.substring(1, labels.length() - 1).split(",")));
        assertEquals(2, entries.size(), labels);
        return List.of(entries.get(1), entries.get(0));
    }

    private static final List<Variant> VARIANTS = List.of(
            new Variant("as written", UnaryOperator.identity(), true),
            variant("whitespace between tokens", ",\"namespace\":", " ,\n\t\"namespace\" : ", true),
            variant("a letter escaped", "\"trainer\"", "\"\\u0074rainer\"", true),
            new Variant("labels in the other order", text -> text.replace(LABELS, "{" + String.join(",", swapped(LABELS)) + "}"), true),
            variant("fields in another order", "\"uid\":\"u-1\",\"namespace\":\"ns-a\"", "\"namespace\":\"ns-a\",\"uid\":\"u-1\"", false),
            variant("an unknown field first", "{\"uid\"", "{\"extra\":[1,{\"a\":null}],\"uid\"", false),
            variant("an unknown field last", ",\"claims\":", ",\"extra\":\"x\",\"claims\":", false),
            variant("an unknown field of the owner", "\"owner\":{\"kind\":\"Job\"", "\"owner\":{\"x\":1,\"kind\":\"Job\"", false),
            variant("an unknown field of a vGPU", "\"cores\":20}", "\"cores\":20,\"x\":{}}", false),
            variant("the claims missing", ",\"claims\":[{\"name\":\"gpu\",\"claimName\":\"c-1\",\"templateName\":null}]", "", false),
            variant("the owner missing", "\"owner\":{\"kind\":\"Job\",\"name\":\"train-1\",\"apiVersion\":null},", "", false),
            // as collectors wrote an owner before they carried its apiVersion
            variant("the owner without its apiVersion", ",\"apiVersion\":null}", "}", false),
            variant("an instant with an offset", "\"2026-05-01T08:00:00Z\"", "\"2026-05-01T10:00:00+02:00\"", false),
            variant("an instant as a number", "\"2026-05-01T08:00:00Z\"", "1777622400", false),
            variant("an instant in lower case", "\"2026-05-01T08:00:00Z\"", "\"2026-05-01t08:00:00z\"", false),
            variant("a boolean as text", "\"allTerminated\":false", "\"allTerminated\":\"false\"", false),
            variant("a boolean as null", "\"allTerminated\":false", "\"allTerminated\":null", false),
            variant("a boolean as a number", "\"allTerminated\":false", "\"allTerminated\":0", false),
            variant("an amount as a fraction", "\"nvidia.com/gpu\":2", "\"nvidia.com/gpu\":2.0", false),
            variant("an amount in exponent form", "\"nvidia.com/gpu\":2", "\"nvidia.com/gpu\":2e0", false),
            variant("an amount as text", "\"nvidia.com/gpu\":2", "\"nvidia.com/gpu\":\"2\"", false),
            variant("an amount beyond a long", "\"nvidia.com/gpu\":2", "\"nvidia.com/gpu\":92233720368547758070", false),
            variant("an amount twice", "\"nvidia.com/gpu\":2", "\"nvidia.com/gpu\":5,\"nvidia.com/gpu\":2", false),
            variant("a label twice", "\"labels\":{", "\"labels\":{\"team\":\"other\",", false),
            variant("a label null", "\"team\":\"vision\"", "\"team\":null", false),
            variant("a label as a number", "\"team\":\"vision\"", "\"team\":7", false),
            variant("labels as an array", "\"labels\":" + LABELS, "\"labels\":[\"team\"]", false),
            variant("labels null", "\"labels\":" + LABELS, "\"labels\":null", false),
            variant("the uid as a number", "\"u-1\"", "17", false),
            variant("the type in lower case", "\"MODIFIED\"", "\"modified\"", false),
            variant("an unknown type", "\"MODIFIED\"", "\"BOOKMARK\"", false),
            variant("a container beyond an int", "\"container\":0", "\"container\":3000000000", false),
            variant("memory beyond a long", "\"memoryMib\":1024", "\"memoryMib\":1e40", false),
            variant("the vGPUs as an object", "\"vgpus\":[", "\"vgpus\":{\"a\":[", false),
            variant("a vGPU as null", "\"vgpus\":[", "\"vgpus\":[null,", false),
            variant("a field name twice", "\"phase\":\"Running\"", "\"phase\":\"Pending\",\"phase\":\"Running\"", false),
            variant("a trailing comma", "\"hamiNode\":null}", "\"hamiNode\":null,}", false),
            variant("a colon missing in the labels", "\"team\":\"vision\"", "\"team\" \"vision\"", false),
            variant("a comma missing between fields", "\"node-1\",\"phase\"", "\"node-1\" \"phase\"", false),
            variant("a literal misspelt", "\"allTerminated\":false", "\"allTerminated\":fals", false),
            variant("a literal misspelt in a vGPU", "\"cores\":20", "\"cores\":2O", false),
            variant("a string not closed", "\"trainer\"", "\"trainer", false),
            variant("a control character in a string", "\"trainer\"", "\"trai\tner\"", false),
            variant("the object cut short", "\"hamiNode\":null}", "\"hamiNode\":null", false));

    @Test
    void everyVariantReadsAsTheGeneralDeserializerReadsIt() throws Exception {
        String written = written(pod("u-1"));
        for (Variant variant : VARIANTS) {
            String text = variant.change().apply(written);
            byte[] body = batch(text).getBytes(StandardCharsets.UTF_8);
            Object expected = outcome(() -> JSON.readValue(body, FactBatch.class));
            Object[] read = new Object[1];
            Object actual = outcome(() -> {
                ReceivedPayloads.Read<FactBatch> r = read(body);
                read[0] = r;
                return r.value();
            });
            assertSameOutcome(expected, actual, variant.name());
            if (!(actual instanceof FactBatch batch)) {
                assertTrue(!variant.kept(), variant.name() + ": refused, though in the written form");
                continue;
            }
            ReceivedPayloads payloads = ((ReceivedPayloads.Read<?>) read[0]).payloads();
            PodFact fact = batch.pods().get(batch.pods().size() - 1);
            Buffer kept = payloads.of(fact);
            if (variant.kept()) {
                assertNotNull(kept, variant.name() + ": the bytes are kept");
                assertEquals(text, kept.toString(StandardCharsets.UTF_8), variant.name() + ": exactly the object's bytes");
                assertEquals(fact, JSON.readValue(kept.getBytes(), PodFact.class), variant.name() + ": they read back");
            } else {
                assertNull(kept, variant.name() + ": not in the written form, so written anew");
            }
        }
    }

    @Test
    void variantsAmongWrittenPodsLeaveTheirNeighboursKept() throws Exception {
        PodFact first = pod("u-1");
        PodFact third = pod("u-3");
        String second = written(pod("u-2")).replace("\"uid\":\"u-2\",\"namespace\":\"ns-a\"", "\"namespace\":\"ns-a\",\"uid\":\"u-2\"");
        byte[] body = batch(written(first), second, written(third), "  " + written(first) + " ").getBytes(StandardCharsets.UTF_8);
        ReceivedPayloads.Read<FactBatch> read = read(body);
        List<PodFact> pods = read.value().pods();
        assertEquals(List.of(first, pod("u-2"), third, first), pods);
        assertEquals(written(first), read.payloads().of(pods.get(0)).toString(StandardCharsets.UTF_8));
        assertNull(read.payloads().of(pods.get(1)));
        assertEquals(written(third), read.payloads().of(pods.get(2)).toString(StandardCharsets.UTF_8));
        assertEquals(written(first), read.payloads().of(pods.get(3)).toString(StandardCharsets.UTF_8), "no blanks around");
    }

    @Test
    void aBodysRepeatedValuesAreReadOnceAndEachBodyHasItsOwn() throws Exception {
        PodFact added = pod("u-1");
        PodFact running = new PodFact("u-1", "ns-a", "trainer", "42", WatchEventType.MODIFIED,
                Instant.parse("2026-05-01T09:00:00Z"), added.createdAt(), added.scheduledAt(), "node-1", "Running",
                "volcano", false, null, null, new Owner("Job", "train-1"), Map.of("team", "vision"),
                Map.of("nvidia.com/gpu", 2L), List.of(), List.of());
        byte[] body = batch(written(added), written(running)).getBytes(StandardCharsets.UTF_8);

        List<PodFact> first = read(body).value().pods();
        List<PodFact> again = read(body).value().pods();

        assertEquals(List.of(added, running), first);
        PodFact a = first.get(0);
        PodFact b = first.get(1);
        assertSame(a.uid(), b.uid());
        assertSame(a.namespace(), b.namespace());
        assertSame(a.name(), b.name());
        assertSame(a.nodeName(), b.nodeName());
        assertSame(a.owner().name(), b.owner().name());
        assertSame(a.labels().get("team"), b.labels().get("team"));
        assertSame(a.createdAt(), b.createdAt());
        assertSame(a.scheduledAt(), b.scheduledAt());
        assertTrue(a.uid() != again.get(0).uid() && a.createdAt() != again.get(0).createdAt(),
                "another body reads its own: nothing is held from one request to the next");
    }

    @Test
    void podsOfEveryShapeAreKeptAsTheyWereWritten() throws Exception {
        SplittableRandom random = new SplittableRandom(37);
        List<PodFact> pods = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            pods.add(randomPod(random, i));
        }
        byte[] body = JSON.writeValueAsBytes(new FactBatch("c1", List.of(), List.of(), pods));
        assertTrue(body.length > 2 << 20, "pods across pieces of the recorded body: " + body.length + " bytes");
        ReceivedPayloads.Read<FactBatch> read = read(body);
        assertEquals(pods, read.value().pods());
        for (int i = 0; i < pods.size(); i++) {
            Buffer kept = read.payloads().of(read.value().pods().get(i));
            assertNotNull(kept, "pod " + i);
            assertArrayEquals(JSON.writeValueAsBytes(pods.get(i)), kept.getBytes(), "pod " + i + ", as the body has it");
        }
    }

    @Test
    void storedPayloadsAreTheKeptBytesOfTheVeryFactsReadAndWrittenAnewForAnyOther() throws Exception {
        String pretty = written(pod("u-1")).replace(",\"namespace\":", ", \"namespace\":");
        byte[] body = batch(pretty).getBytes(StandardCharsets.UTF_8);
        ReceivedPayloads.Read<FactBatch> read = read(body);
        PodFact received = read.value().pods().get(0);
        PodFact equal = pod("u-1");
        assertEquals(equal, received);
        Buffer[] stored = StoredPayloads.encode(JSON, List.of(received, equal, pod("u-2")), read.payloads());
        assertSame(read.payloads().of(received), stored[0]);
        assertEquals(pretty, stored[0].toString(StandardCharsets.UTF_8));
        assertArrayEquals(JSON.writeValueAsBytes(equal), stored[1].getBytes(), "an equal fact made elsewhere");
        assertArrayEquals(JSON.writeValueAsBytes(pod("u-2")), stored[2].getBytes());
        assertNull(ReceivedPayloads.none().of(received));
        read.payloads().release();
        assertNull(read.payloads().of(received), "once let go, written anew");
        assertArrayEquals(JSON.writeValueAsBytes(received), StoredPayloads.encode(JSON, List.of(received), read.payloads())[0].getBytes());
        assertEquals(pretty, stored[0].toString(StandardCharsets.UTF_8), "a payload handed out before stays whole");
    }

    @Test
    void aBodyReadOtherwiseKeepsNothingAndAnEmptyOneReadsAsNothing() throws Exception {
        byte[] body = batch(written(pod("u-1"))).getBytes(StandardCharsets.UTF_8);
        FactBatch plain = JSON.readValue(body, FactBatch.class);
        assertEquals(pod("u-1"), plain.pods().get(0));
        for (String blank : new String[]{"", " ", "\n\t\r "}) {
            ReceivedPayloads.Read<FactBatch> read = read(blank.getBytes(StandardCharsets.UTF_8));
            assertNull(read.value(), "'" + blank + "'");
        }
    }

    private static PodFact randomPod(SplittableRandom random, int i) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int l = random.nextInt(5); l > 0; l--) {
            labels.put(Objects.requireNonNullElse(text(random, "k" + l), "k"), Objects.requireNonNullElse(text(random, "v"), ""));
        }
        Map<String, Long> amounts = random.nextBoolean() ? Map.of() : Map.of("nvidia.com/gpu", random.nextLong(),
                "nvidia.com/mig-1g.10gb", (long) random.nextInt(), "hami.io/vgpu", -1L);
        return new PodFact("u" + i, text(random, "ns"), text(random, "n"), String.valueOf(random.nextLong()),
                random.nextInt(4) == 0 ? null : WatchEventType.values()[random.nextInt(3)], instant(random),
                instant(random), instant(random), text(random, "node"), text(random, "phase"), text(random, "s"),
                random.nextBoolean(), instant(random), instant(random),
                random.nextBoolean() ? null : new Owner(text(random, "Job"), text(random, "o")), labels, amounts,
                random.nextBoolean() ? List.of() : List.of(new VgpuGrant(random.nextInt(), text(random, "GPU"),
                        text(random, "t"), random.nextLong(), random.nextInt()), new VgpuGrant(1, null, null, 0, 0)),
                random.nextBoolean() ? List.of() : List.of(new PodClaim(text(random, "c"), text(random, "c"), null)));
    }

    private static String text(SplittableRandom random, String plain) {
        return switch (random.nextInt(7)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "é\u00ff\u4e2d\"quoted\"\\slash\n\t\u0000\u001f" + random.nextInt(10);
            case 3 -> "\uD83D\uDE80 rocket " + random.nextInt(10);
            case 4 -> "x".repeat(random.nextInt(3_000));
            default -> plain + "-" + random.nextInt(1_000_000);
        };
    }

    private static Instant instant(SplittableRandom random) {
        return switch (random.nextInt(4)) {
            case 0 -> null;
            case 1 -> Instant.ofEpochSecond(random.nextLong(0, 4_000_000_000L));
            case 2 -> Instant.ofEpochSecond(random.nextLong(0, 4_000_000_000L), random.nextInt(1_000) * 1_000_000);
            default -> Instant.ofEpochSecond(random.nextLong(-60_000_000_000L, 250_000_000_000L), random.nextInt(1_000_000_000));
        };
    }
}
