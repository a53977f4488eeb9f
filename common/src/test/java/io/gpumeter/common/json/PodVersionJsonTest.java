package io.gpumeter.common.json;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.PodToleration;
import io.gpumeter.common.fact.VgpuGrant;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The hand-written pod version writers give, byte for byte, what the mapper's record serialisers give. */
public class PodVersionJsonTest {

    /** The services' mapper (ISO instants through {@link InstantJson}), and one writing instants as numbers. */
    private static final List<Supplier<ObjectMapper>> MAPPERS = List.of(
            () -> {
                ObjectMapper mapper = new ObjectMapper().registerModule(new JavaTimeModule())
                        .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
                new InstantJson().customize(mapper);
                return mapper;
            },
            () -> new ObjectMapper().registerModule(new JavaTimeModule()));

    private static String text(SplittableRandom random) {
        return switch (random.nextInt(7)) {
            case 0 -> null;
            case 1 -> "";
            case 2 -> "trainer-" + random.nextInt(1_000_000);
            case 3 -> "é\u00ff\u4e2d\"quoted\"\\slash\n\t\u0001" + random.nextInt(10);
            case 4 -> "\uD83D\uDE80 rocket";
            case 5 -> "</script>\u2028\u2029";
            default -> "x".repeat(random.nextInt(3_000));
        };
    }

    private static String key(SplittableRandom random) {
        String text = text(random);
        return text == null ? "null-" + random.nextInt() : text + random.nextInt();
    }

    private static Instant instant(SplittableRandom random) {
        return switch (random.nextInt(8)) {
            case 0 -> null;
            case 1 -> Instant.ofEpochSecond(random.nextLong(-400_000_000_000L, 400_000_000_000L), random.nextInt(1_000_000_000));
            case 2 -> Instant.ofEpochSecond(random.nextLong(0, 4_000_000_000L));
            case 3 -> Instant.ofEpochSecond(random.nextLong(0, 4_000_000_000L), random.nextInt(1_000) * 1_000_000);
            default -> Instant.ofEpochSecond(random.nextLong(0, 4_000_000_000L), random.nextInt(1_000_000_000));
        };
    }

    private static WatchEventType type(SplittableRandom random) {
        WatchEventType[] types = WatchEventType.values();
        return random.nextInt(10) == 0 ? null : types[random.nextInt(types.length)];
    }

    private static Owner owner(SplittableRandom random) {
        return random.nextInt(3) == 0 ? null : new Owner(text(random), text(random));
    }

    private static Map<String, Long> amounts(SplittableRandom random) {
        Map<String, Long> amounts = new LinkedHashMap<>();
        for (int i = random.nextInt(5); i > 0; i--) {
            amounts.put(key(random), random.nextBoolean() ? random.nextLong() : random.nextLong(100));
        }
        return amounts;
    }

    private static ContainerState state(SplittableRandom random) {
        return random.nextInt(3) == 0 ? null : new ContainerState(text(random), text(random), text(random),
                random.nextBoolean() ? null : random.nextInt(), instant(random), instant(random));
    }

    public static PodFact pod(SplittableRandom random) {
        Map<String, String> labels = new LinkedHashMap<>();
        for (int i = random.nextInt(6); i > 0; i--) {
            String value = text(random);
            labels.put(key(random), value == null ? "" : value);
        }
        List<VgpuGrant> vgpus = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            vgpus.add(new VgpuGrant(random.nextInt(), text(random), text(random), random.nextLong(), random.nextInt()));
        }
        List<PodClaim> claims = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            claims.add(new PodClaim(text(random), text(random), text(random)));
        }
        return new PodFact(text(random), text(random), text(random), text(random), type(random), instant(random),
                instant(random), instant(random), text(random), text(random), text(random), random.nextBoolean(),
                instant(random), instant(random), owner(random), random.nextInt(5) == 0 ? null : labels,
                random.nextInt(5) == 0 ? null : amounts(random), random.nextInt(5) == 0 ? null : vgpus,
                random.nextInt(5) == 0 ? null : claims);
    }

    private static List<ContainerStatusFact> containers(SplittableRandom random) {
        List<ContainerStatusFact> containers = new ArrayList<>();
        for (int i = random.nextInt(4); i > 0; i--) {
            containers.add(new ContainerStatusFact(text(random), random.nextBoolean(), random.nextInt(), state(random),
                    state(random)));
        }
        return containers;
    }

    private static NotScheduled scheduling(SplittableRandom random) {
        return random.nextInt(3) == 0 ? null : new NotScheduled(text(random), text(random), instant(random));
    }

    private static List<LabelRequirement> requirements(SplittableRandom random) {
        List<LabelRequirement> requirements = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            List<String> values = new ArrayList<>();
            for (int v = random.nextInt(3); v > 0; v--) {
                values.add(key(random));
            }
            requirements.add(new LabelRequirement(text(random), text(random), random.nextInt(4) == 0 ? null : values));
        }
        return requirements;
    }

    /** A placement, sometimes none, sometimes with parts left null (each then written empty). */
    public static PodPlacement placement(SplittableRandom random) {
        if (random.nextInt(3) == 0) {
            return null;
        }
        Map<String, String> selector = new LinkedHashMap<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            String value = text(random);
            selector.put(key(random), value == null ? "" : value);
        }
        List<NodeSelectorTerm> terms = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            terms.add(new NodeSelectorTerm(requirements(random), random.nextInt(4) == 0 ? null : requirements(random)));
        }
        List<PodToleration> tolerations = new ArrayList<>();
        for (int i = random.nextInt(3); i > 0; i--) {
            tolerations.add(new PodToleration(text(random), text(random), text(random), text(random)));
        }
        return new PodPlacement(random.nextInt(5) == 0 ? null : selector, random.nextInt(5) == 0 ? null : terms,
                random.nextInt(5) == 0 ? null : tolerations);
    }

    /** What a governance view of some pod version says beyond it. */
    public static CarriedStatus carried(SplittableRandom random) {
        return new CarriedStatus(text(random), text(random), text(random), text(random), instant(random),
                instant(random), random.nextInt(5) == 0 ? null : containers(random), scheduling(random),
                placement(random));
    }

    public static PodStatusFact status(SplittableRandom random) {
        List<ContainerStatusFact> containers = containers(random);
        return new PodStatusFact(text(random), text(random), text(random), text(random), type(random), instant(random),
                instant(random), instant(random), instant(random), text(random), text(random), text(random),
                text(random), text(random), owner(random), text(random), text(random),
                random.nextInt(5) == 0 ? null : amounts(random), instant(random),
                random.nextInt(5) == 0 ? null : containers, scheduling(random), placement(random));
    }

    @Test
    void everyPodVersionViewAndCarriedViewIsWrittenAsTheMapperWritesIt() throws Exception {
        SplittableRandom random = new SplittableRandom(16);
        for (Supplier<ObjectMapper> make : MAPPERS) {
            ObjectMapper general = make.get();
            ObjectMapper fast = make.get().registerModule(PodVersionJson.module());
            for (int i = 0; i < 4_000; i++) {
                Object fact = switch (i % 3) {
                    case 0 -> pod(random);
                    case 1 -> status(random);
                    default -> carried(random);
                };
                assertArrayEquals(general.writeValueAsBytes(fact), fast.writeValueAsBytes(fact), "fact " + i + ": " + fact);
            }
        }
    }

    @Test
    void aBundleIsWrittenAsTheMapperWritesIt() throws Exception {
        SplittableRandom random = new SplittableRandom(17);
        List<PodFact> pods = new ArrayList<>();
        List<Object> statuses = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            pods.add(pod(random));
            statuses.add(status(random));
        }
        FactBundle bundle = new FactBundle(new FactBatch("c", List.of(), List.of(), pods),
                GovernanceBatch.of("c", statuses));
        for (Supplier<ObjectMapper> make : MAPPERS) {
            ObjectMapper general = make.get();
            ObjectMapper fast = make.get().registerModule(PodVersionJson.module());
            assertEquals(general.writeValueAsString(bundle), fast.writeValueAsString(bundle));
            assertEquals(bundle, fast.readValue(fast.writeValueAsBytes(bundle), FactBundle.class));
        }
    }

    @Test
    void theTwoMappersDoWriteInstantsDifferently() throws Exception {
        PodFact pod = pod(new SplittableRandom(3));
        while (pod.observedAt() == null) {
            pod = pod(new SplittableRandom(pod.hashCode()));
        }
        assertNotEquals(MAPPERS.get(0).get().writeValueAsString(pod),
                MAPPERS.get(1).get().registerModule(PodVersionJson.module()).writeValueAsString(pod));
    }
}
