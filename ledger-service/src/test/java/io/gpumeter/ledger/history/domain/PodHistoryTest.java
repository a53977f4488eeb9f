package io.gpumeter.ledger.history.domain;

import io.gpumeter.common.fact.PodFact;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;

class PodHistoryTest {

    static final Instant T0 = Instant.parse("2026-05-10T10:00:00Z");
    final PodVersions pod = new PodVersions("u1");

    @Test
    void completedPodEndsAtItsLastContainerFinish() {
        Instant finished = T0.plusSeconds(20);
        PodHistory h = new PodHistory(List.of(pod.pending(1, T0.minusSeconds(5)), pod.scheduled(2, T0),
                pod.finished(3, T0, finished, null)));
        assertEquals(Optional.of(T0), h.start());
        assertEquals(Optional.of(finished), h.end());
    }

    @Test
    void runningPodIsOpen() {
        PodHistory h = new PodHistory(List.of(pod.pending(1, T0), pod.scheduled(2, T0)));
        assertEquals(Optional.empty(), h.end());
    }

    @Test
    void neverScheduledPodHasNoStart() {
        assertEquals(Optional.empty(), new PodHistory(List.of(pod.pending(1, T0))).start());
    }

    @Test
    void gracefulDeleteEndsWhenContainersStopNotAtTheFirstDeletionTimestamp() {
        Instant request = T0.plusSeconds(3600);
        Instant graceEnd = request.plusSeconds(30);
        Instant stopped = request.plusSeconds(4);
        PodHistory h = new PodHistory(List.of(pod.scheduled(2, T0), pod.terminating(3, T0, graceEnd, request),
                pod.finished(4, T0, stopped, graceEnd), pod.deleted(5, T0, true, stopped, graceEnd, stopped.plusSeconds(1))));
        assertEquals(Optional.of(stopped), h.end());
    }

    @Test
    void deletionWithoutTerminatedContainersEndsAtDeletionTimestampCappedAtObservation() {
        Instant request = T0.plusSeconds(3600);
        Instant graceEnd = request.plusSeconds(30);
        Instant observed = request.plusSeconds(2);
        PodHistory h = new PodHistory(List.of(pod.scheduled(2, T0), pod.deleted(3, T0, false, null, graceEnd, observed)));
        assertEquals(Optional.of(observed), h.end());
    }

    @Test
    void forcedDeleteWhileRunningEndsAtTheDeletion() {
        Instant forced = T0.plusSeconds(7200);
        PodHistory h = new PodHistory(List.of(pod.scheduled(2, T0),
                pod.deleted(3, T0, false, null, forced, forced.plusSeconds(1))));
        assertEquals(Optional.of(forced), h.end());
    }

    @Test
    void arrivalOrderDoesNotMatter() {
        Instant finished = T0.plusSeconds(90);
        List<PodFact> versions = new ArrayList<>(List.of(pod.pending(1, T0.minusSeconds(1)), pod.scheduled(2, T0),
                pod.finished(3, T0, finished, null), pod.deleted(4, T0, true, finished, finished, finished.plusSeconds(5))));
        Collections.reverse(versions);
        PodHistory h = new PodHistory(versions);
        assertEquals(Optional.of(T0), h.start());
        assertEquals(Optional.of(finished), h.end());
        assertEquals("4", h.latest().resourceVersion());
    }

    @Test
    void revisionsCompareAsNumbersNotText() {
        PodHistory h = new PodHistory(List.of(pod.scheduled(9, T0), pod.finished(10, T0, T0.plusSeconds(60), null)));
        assertEquals("10", h.latest().resourceVersion());
    }

    @Test
    void theEarliestInstantOfAnyVersionIsTakenWhicheverOrderTheyCameIn() {
        Instant earlier = T0.minusSeconds(60);
        PodHistory h = new PodHistory(List.of(pod.scheduled(3, T0), pod.pending(1, T0.minusSeconds(5)),
                pod.scheduled(2, earlier)));
        assertEquals(Optional.of(earlier), h.start(), "the earliest scheduling, not the first version's");
        assertEquals(Optional.of(earlier), h.earliest(PodFact::scheduledAt));
        assertEquals(Optional.empty(), h.earliest(PodFact::lastFinishedAt), "no version finished");
        assertEquals(List.of("1", "2", "3"), h.versions().stream().map(PodFact::resourceVersion).toList());
    }
}
