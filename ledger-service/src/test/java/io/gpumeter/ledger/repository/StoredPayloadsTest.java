package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.json.InstantJson;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Payloads written in one pass are, fact by fact, the bytes the mapper writes for each fact alone. */
class StoredPayloadsTest {

    private static ObjectMapper mapper() {
        ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
        new InstantJson().customize(mapper);
        return mapper;
    }

    private static String text(SplittableRandom random) {
        return switch (random.nextInt(6)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "trainer-" + random.nextInt(1_000_000);
            case 3 -> "é\u00ff\u4e2d\"quoted\"\\slash\n\t" + random.nextInt(10);
            case 4 -> "\uD83D\uDE80 rocket";
            default -> "x".repeat(random.nextInt(2_000));
        };
    }

    private static Instant instant(SplittableRandom random) {
        return random.nextInt(5) == 0 ? null
                : Instant.ofEpochSecond(random.nextLong(0, 4_000_000_000L), random.nextInt(3) == 0 ? 0 : random.nextInt(1_000_000_000));
    }

    private static ContainerState state(SplittableRandom random) {
        return random.nextBoolean() ? null : new ContainerState(ContainerState.TERMINATED, text(random), text(random),
                random.nextBoolean() ? null : random.nextInt(), instant(random), instant(random));
    }

    private static Object fact(SplittableRandom random) {
        WatchEventType type = WatchEventType.values()[random.nextInt(WatchEventType.values().length)];
        Owner owner = random.nextBoolean() ? null : new Owner(text(random), text(random));
        Map<String, Long> gpus = random.nextBoolean() ? Map.of() : Map.of("nvidia.com/gpu", random.nextLong(), "nvidia.com/mig-1g.10gb", 2L);
        if (random.nextBoolean()) {
            return new PodFact("u" + random.nextInt(), "ns", text(random), String.valueOf(random.nextInt()), type,
                    instant(random), instant(random), instant(random), text(random), text(random), text(random),
                    random.nextBoolean(), instant(random), instant(random), owner,
                    random.nextBoolean() ? Map.of() : Map.of("team", "a", "kueue.x-k8s.io/queue-name", "q\u00e9"), gpus,
                    random.nextBoolean() ? List.of() : List.of(new VgpuGrant(0, "GPU-1", "NVIDIA", 1024, 20)),
                    random.nextBoolean() ? List.of() : List.of(new PodClaim("gpu", text(random), text(random))));
        }
        List<ContainerStatusFact> containers = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            containers.add(new ContainerStatusFact(text(random), random.nextBoolean(), random.nextInt(9), state(random), state(random)));
        }
        return new PodStatusFact("u" + random.nextInt(), "ns", "p", "1", type, instant(random), instant(random),
                instant(random), instant(random), text(random), text(random), text(random), text(random), text(random),
                owner, text(random), text(random), gpus, instant(random), containers);
    }

    @Test
    void eachPayloadIsTheBytesOfItsFactAlone() throws Exception {
        ObjectMapper json = mapper();
        SplittableRandom random = new SplittableRandom(29);
        for (int size : new int[]{0, 1, 2, 7, 500, 3_000}) {
            List<Object> facts = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                facts.add(fact(random));
            }
            Buffer[] payloads = StoredPayloads.encode(json, facts);
            assertEquals(size, payloads.length);
            for (int i = 0; i < size; i++) {
                assertArrayEquals(json.writeValueAsBytes(facts.get(i)), payloads[i].getBytes(), "fact " + i + " of " + size);
            }
        }
    }

    @Test
    void aFactLongerThanAChunkIsWholeAndSoAreTheFactsAroundIt() throws Exception {
        ObjectMapper json = mapper();
        SplittableRandom random = new SplittableRandom(31);
        List<Object> facts = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            facts.add(i % 100 == 50 ? new Owner("Job", "j".repeat(StoredPayloads.Chunks.CHUNK * (1 + i / 100))) : fact(random));
        }
        Buffer[] payloads = StoredPayloads.encode(json, facts);
        for (int i = 0; i < facts.size(); i++) {
            assertArrayEquals(json.writeValueAsBytes(facts.get(i)), payloads[i].getBytes(), "fact " + i);
        }
    }

    @Test
    void aFactTheMapperCannotWriteIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> StoredPayloads.encode(mapper(), List.of(new Object())));
    }
}
