package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A pod version carries a governance view only when the two are views of one version and nothing of the view is lost. */
class CarriedStatusesTest {

    private static final Instant CREATED = Instant.parse("2026-05-01T00:00:00Z");
    private static final Instant SCHEDULED = Instant.parse("2026-05-01T00:00:10Z");
    private static final Instant SEEN = Instant.parse("2026-05-01T00:05:00.123456789Z");

    private static PodFact pod(String uid, String rv) {
        return new PodFact(uid, "ml", "train-" + uid, rv, WatchEventType.MODIFIED, SEEN, CREATED, SCHEDULED, "gpu-1",
                "Failed", "volcano", true, SEEN, null, new Owner("Job", "train"),
                Map.of("kueue.x-k8s.io/queue-name", "team-a"), Map.of("nvidia.com/gpu", 2L), List.of());
    }

    /** The view the collector makes of {@link #pod}: the pod's fields and the status fields only a view has. */
    private static PodStatusFact statusOf(PodFact pod) {
        return new PodStatusFact(pod.uid(), pod.namespace(), pod.name(), pod.resourceVersion(), pod.type(),
                pod.observedAt(), pod.createdAt(), pod.scheduledAt(), pod.deletionTimestamp(), pod.nodeName(),
                pod.schedulerName(), pod.phase(), "UnexpectedAdmissionError", "Allocate failed", pod.owner(), "gang-1",
                "team-a", pod.gpuResources(), SCHEDULED,
                List.of(new ContainerStatusFact("main", false, 3,
                        new ContainerState(ContainerState.TERMINATED, "OOMKilled", null, 137, SCHEDULED, SEEN), null)));
    }

    @Test
    void aViewOfTheSameVersionIsMadeAgainFromThePodAndItsStatusFields() {
        PodFact pod = pod("u1", "7");
        PodStatusFact status = statusOf(pod);

        CarriedStatus carried = CarriedStatus.carriedBy(pod, status).orElseThrow();

        assertEquals(status, carried.on(pod));
    }

    @Test
    void aViewThatSaysSomethingItsPodVersionDoesNotIsNotCarried() {
        PodFact pod = pod("u1", "7");
        PodStatusFact status = statusOf(pod);
        List<UnaryOperator<PodStatusFact>> disagreements = List.of(
                s -> with(s, "namespace", "other"), s -> with(s, "name", "other"), s -> with(s, "phase", "Running"),
                s -> with(s, "nodeName", "gpu-2"), s -> with(s, "schedulerName", "default-scheduler"),
                s -> with(s, "observedAt", SEEN.plusNanos(1)), s -> with(s, "createdAt", null),
                s -> with(s, "scheduledAt", CREATED), s -> with(s, "owner", new Owner("Job", "other")),
                s -> with(s, "gpuResources", Map.of("nvidia.com/gpu", 1L)));
        for (UnaryOperator<PodStatusFact> change : disagreements) {
            PodStatusFact changed = change.apply(status);
            assertTrue(CarriedStatus.carriedBy(pod, changed).isEmpty(), changed.toString());
        }
    }

    @Test
    void onlyNewViewsWhoseNewPodVersionAgreesAreCarried() {
        PodFact first = pod("u1", "7");
        PodFact second = pod("u2", "8");
        PodFact third = pod("u3", "9");
        PodStatusFact agrees = statusOf(first);
        PodStatusFact disagrees = with(statusOf(second), "phase", "Running");
        PodStatusFact podNotNew = statusOf(third);
        PodStatusFact otherEvent = new PodStatusFact(first.uid(), first.namespace(), first.name(), first.resourceVersion(),
                WatchEventType.DELETED, first.observedAt(), first.createdAt(), first.scheduledAt(), null,
                first.nodeName(), first.schedulerName(), first.phase(), null, null, first.owner(), null, null,
                first.gpuResources(), null, List.of());

        CarriedStatuses carried = CarriedStatuses.offered(List.of(agrees, disagrees, podNotNew, otherEvent));
        carried.pairWith(List.of(first, second));

        assertTrue(carried.carries(agrees));
        assertEquals(agrees, carried.of(first).on(first));
        assertFalse(carried.carries(disagrees), "stored on its own, as sent");
        assertNull(carried.of(second));
        assertFalse(carried.carries(podNotNew), "its pod version is not stored by this batch");
        assertFalse(carried.carries(otherEvent), "another event type is another version");
        assertNull(carried.of(third));
    }

    @Test
    void theFirstOfARepeatedKeyIsTheOneCarriedAsItIsTheOneStored() {
        PodFact pod = pod("u1", "7");
        PodStatusFact first = statusOf(pod);
        PodStatusFact repeat = with(statusOf(pod), "reason", "Evicted");

        CarriedStatuses carried = CarriedStatuses.offered(List.of(first, repeat));
        carried.pairWith(List.of(pod));

        assertTrue(carried.carries(first));
        assertFalse(carried.carries(repeat));
        assertSame(first.reason(), carried.of(pod).reason());
    }

    @Test
    void aViewMadeFromASentEntryIsCarriedByThatEntryAsItCame() {
        PodFact sentWhole = pod("u0", "6");
        PodFact first = pod("u1", "7");
        PodFact second = pod("u2", "8");
        CarriedStatus firstFields = CarriedStatus.carriedBy(first, statusOf(first)).orElseThrow();
        CarriedStatus secondFields = CarriedStatus.carriedBy(second, statusOf(second)).orElseThrow();
        FactBundle sent = new FactBundle(new FactBatch("c", List.of(), List.of(), List.of(first, second)),
                GovernanceBatch.of("c", List.of(statusOf(sentWhole))), List.of(firstFields, secondFields));
        FactBundle whole = sent.expanded();
        List<PodStatusFact> views = whole.governance().podStatuses();

        Map<PodStatusFact, CarriedStatuses.Sent> made = CarriedStatuses.sentIn(sent, whole);
        assertEquals(Map.of(views.get(1), new CarriedStatuses.Sent(first, firstFields),
                views.get(2), new CarriedStatuses.Sent(second, secondFields)), Map.copyOf(made));
        assertNull(made.get(statusOf(first)), "by the very view, not an equal one");

        PodFact equalToSecond = pod("u2", "8");
        CarriedStatuses carried = CarriedStatuses.offered(views, made);
        carried.pairWith(List.of(first, equalToSecond));
        assertSame(firstFields, carried.of(first), "the entry as it came");
        assertTrue(carried.carries(views.get(1)));
        CarriedStatus remade = carried.of(equalToSecond);
        assertEquals(secondFields, remade, "another pod version: its fields made again, equal");
        assertTrue(remade != secondFields);
        assertTrue(carried.carries(views.get(2)));
        assertEquals(Map.of(), CarriedStatuses.sentIn(new FactBundle(sent.facts(), sent.governance()), whole));
    }

    @Test
    void nothingIsCarriedWithoutViews() {
        CarriedStatuses none = CarriedStatuses.none();
        PodFact pod = pod("u1", "7");
        none.pairWith(List.of(pod));
        assertNull(none.of(pod));
    }

    /** The view with one field replaced. */
    private static PodStatusFact with(PodStatusFact s, String field, Object value) {
        return new PodStatusFact(s.uid(),
                field.equals("namespace") ? (String) value : s.namespace(),
                field.equals("name") ? (String) value : s.name(), s.resourceVersion(), s.type(),
                field.equals("observedAt") ? (Instant) value : s.observedAt(),
                field.equals("createdAt") ? (Instant) value : s.createdAt(),
                field.equals("scheduledAt") ? (Instant) value : s.scheduledAt(), s.deletedAt(),
                field.equals("nodeName") ? (String) value : s.nodeName(),
                field.equals("schedulerName") ? (String) value : s.schedulerName(),
                field.equals("phase") ? (String) value : s.phase(),
                field.equals("reason") ? (String) value : s.reason(), s.message(),
                field.equals("owner") ? (Owner) value : s.owner(), s.groupName(), s.queueName(),
                field.equals("gpuResources") ? cast(value) : s.gpuResources(), s.readyChangedAt(), s.containers());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Long> cast(Object value) {
        return (Map<String, Long>) value;
    }
}
