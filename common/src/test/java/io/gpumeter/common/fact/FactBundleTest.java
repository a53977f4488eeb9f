package io.gpumeter.common.fact;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.json.InstantJson;
import io.gpumeter.common.json.PodVersionJson;
import io.gpumeter.common.json.PodVersionJsonTest;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A bundle sends its pods' governance views as carried fields only when each is exactly what its pod version makes
 * with them, and the ledger's expansion gives back the bundle the halves made.
 */
class FactBundleTest {

    private static final String CLUSTER = "east";

    /** Pod versions, and for each a view of it as the collector makes one: the version's fields and its own. */
    private record Halves(FactBatch facts, List<PodStatusFact> views) {

        static Halves of(long seed, int pods) {
            SplittableRandom random = new SplittableRandom(seed);
            List<PodFact> versions = new ArrayList<>();
            List<PodStatusFact> views = new ArrayList<>();
            for (int i = 0; i < pods; i++) {
                PodFact pod = PodVersionJsonTest.pod(random);
                versions.add(pod);
                views.add(PodVersionJsonTest.carried(random).on(pod));
            }
            return new Halves(new FactBatch(CLUSTER, List.of(), List.of(), versions), views);
        }

        GovernanceBatch governance(List<PodStatusFact> views, Object... others) {
            List<Object> facts = new ArrayList<>(List.of(others));
            facts.addAll(views);
            return GovernanceBatch.of(CLUSTER, facts);
        }

        List<CarriedStatus> carried() {
            return views.stream().map(CarriedStatus::of).toList();
        }
    }

    private static EventFact event() {
        Instant at = Instant.parse("2026-05-01T10:00:00Z");
        return new EventFact("e1", "ml", "train-0.1", "1", at, "Pod", "ml", "train-0", null, "FailedScheduling",
                "Warning", "0/4 nodes are available", "default-scheduler", null, at, at, 1);
    }

    private static PodStatusFact withPhase(PodStatusFact v, String phase) {
        return new PodStatusFact(v.uid(), v.namespace(), v.name(), v.resourceVersion(), v.type(), v.observedAt(),
                v.createdAt(), v.scheduledAt(), v.deletedAt(), v.nodeName(), v.schedulerName(), phase, v.reason(),
                v.message(), v.owner(), v.groupName(), v.queueName(), v.gpuResources(), v.readyChangedAt(),
                v.containers());
    }

    @Test
    void viewsEachMadeByTheirPodVersionGoAsCarriedFieldsAndComeBackWhole() {
        Halves halves = Halves.of(1, 200);
        GovernanceBatch governance = halves.governance(halves.views(), event());

        FactBundle carried = FactBundle.carrying(halves.facts(), governance);

        assertEquals(halves.carried(), carried.carriedStatuses());
        assertEquals(List.of(), carried.governance().podStatuses());
        assertEquals(List.of(event()), carried.governance().events(), "the rest of the governance half stays");
        assertEquals(new FactBundle(halves.facts(), governance), carried.expanded());
    }

    @Test
    void aBundleOfPodViewsAloneCarriesThemAllAndGetsItsGovernanceHalfBack() {
        Halves halves = Halves.of(2, 20);
        GovernanceBatch governance = halves.governance(halves.views());

        FactBundle carried = FactBundle.carrying(halves.facts(), governance);

        assertNull(carried.governance());
        assertEquals(new FactBundle(halves.facts(), governance), carried.expanded());
    }

    @Test
    void anyViewItsPodVersionDoesNotMakeKeepsEveryViewWhole() {
        Halves halves = Halves.of(3, 10);
        List<UnaryOperator<PodStatusFact>> changes = List.of(
                v -> new PodStatusFact(v.uid() + "x", v.namespace(), v.name(), v.resourceVersion(), v.type(),
                        v.observedAt(), v.createdAt(), v.scheduledAt(), v.deletedAt(), v.nodeName(), v.schedulerName(),
                        v.phase(), v.reason(), v.message(), v.owner(), v.groupName(), v.queueName(), v.gpuResources(),
                        v.readyChangedAt(), v.containers()),
                v -> withPhase(v, "Unknown"),
                v -> new PodStatusFact(v.uid(), v.namespace(), v.name(), v.resourceVersion(), v.type(),
                        v.observedAt() == null ? Instant.EPOCH : v.observedAt().plusNanos(1), v.createdAt(),
                        v.scheduledAt(), v.deletedAt(), v.nodeName(), v.schedulerName(), v.phase(), v.reason(),
                        v.message(), v.owner(), v.groupName(), v.queueName(), v.gpuResources(), v.readyChangedAt(),
                        v.containers()));
        for (UnaryOperator<PodStatusFact> change : changes) {
            List<PodStatusFact> views = new ArrayList<>(halves.views());
            views.set(7, change.apply(views.get(7)));
            GovernanceBatch governance = halves.governance(views);

            FactBundle bundle = FactBundle.carrying(halves.facts(), governance);

            assertEquals(List.of(), bundle.carriedStatuses());
            assertSame(governance, bundle.governance());
        }
    }

    @Test
    void viewsNotOneForEachPodVersionInOrderStayWhole() {
        Halves halves = Halves.of(4, 6);
        List<PodStatusFact> reordered = new ArrayList<>(halves.views());
        Collections.swap(reordered, 1, 2);
        List<PodStatusFact> oneTooMany = new ArrayList<>(halves.views());
        oneTooMany.add(halves.views().get(0));
        for (List<PodStatusFact> views : List.of(halves.views().subList(0, 5), reordered, oneTooMany)) {
            GovernanceBatch governance = halves.governance(views);
            FactBundle bundle = FactBundle.carrying(halves.facts(), governance);
            assertEquals(List.of(), bundle.carriedStatuses());
            assertSame(governance, bundle.governance());
        }
        assertEquals(List.of(), FactBundle.carrying(halves.facts(), null).carriedStatuses());
        assertEquals(List.of(), FactBundle.carrying(null, halves.governance(halves.views())).carriedStatuses());
    }

    @Test
    void viewsSentWholeComeFirstAndCarriedOnesAfterThemInPodOrder() {
        Halves halves = Halves.of(5, 3);
        PodStatusFact whole = PodVersionJsonTest.status(new SplittableRandom(9));

        FactBundle bundle = new FactBundle(halves.facts(), halves.governance(List.of(whole)), halves.carried()).expanded();

        List<PodStatusFact> expected = new ArrayList<>(List.of(whole));
        expected.addAll(halves.views());
        assertEquals(expected, bundle.governance().podStatuses());
        assertEquals(List.of(), bundle.carriedStatuses());
    }

    @Test
    void carriedViewsWithoutOnePodVersionEachCannotBeMadeWhole() {
        Halves halves = Halves.of(6, 3);
        List<CarriedStatus> two = halves.carried().subList(0, 2);
        assertThrows(IllegalStateException.class, () -> new FactBundle(halves.facts(), null, two).expanded());
        assertThrows(IllegalStateException.class, () -> new FactBundle(null, null, two).expanded());
    }

    @Test
    void aCarryingBundleReadsBackAsWrittenAndIsSmaller() throws Exception {
        ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).registerModule(PodVersionJson.module());
        new InstantJson().customize(json);
        Halves halves = Halves.of(7, 300);
        GovernanceBatch governance = halves.governance(halves.views());
        FactBundle whole = new FactBundle(halves.facts(), governance);
        FactBundle carried = FactBundle.carrying(halves.facts(), governance);

        byte[] carriedBytes = json.writeValueAsBytes(carried);
        FactBundle read = json.readValue(carriedBytes, FactBundle.class);

        assertEquals(carried, read);
        assertEquals(whole, read.expanded());
        int wholeBytes = json.writeValueAsBytes(whole).length;
        assertTrue(carriedBytes.length < wholeBytes, carriedBytes.length + " bytes carried, " + wholeBytes + " whole");
    }
}
