package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.RootCauseClass;
import io.gpumeter.common.triage.Triage;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** How often the same cause made one owner's objects wait in the week before the instant. */
class RecurrencesTest {

    private static final Instant AT = Instant.parse("2026-05-08T12:00:00Z");

    private static WaitDiagnosis cause(String label) {
        PendingReason reason = Waitings.reason(label);
        return new WaitDiagnosis(label, reason, RootCauseClass.CONTROL_PLANE, Confidence.HIGH, "CLUSTER", List.of(),
                List.of(), List.of(), List.of(), List.of());
    }

    private static Instant daysBefore(double days) {
        return AT.minus(Duration.ofMinutes((long) (days * 24 * 60)));
    }

    @Test
    void itsOwnWaitTheOwnersStillWaitingAlikeAndEndedWaitsWithTheSameRefusalInTheWeekCount() {
        WaitDiagnosis full = cause("cluster-full");
        List<Recurrences.Wait> waits = List.of(
                new Recurrences.Wait("self", daysBefore(0.5), null, "insufficient-resources"),
                new Recurrences.Wait("sibling-waiting", daysBefore(1), null, "insufficient-resources"),
                new Recurrences.Wait("sibling-waiting-other", daysBefore(2), null, "insufficient-resources"),
                new Recurrences.Wait("ended-same", daysBefore(3), daysBefore(2.9), "insufficient-resources"),
                new Recurrences.Wait("ended-quota", daysBefore(4), daysBefore(3.9), "quota"),
                new Recurrences.Wait("ended-long-ago", daysBefore(9), daysBefore(8), "insufficient-resources"),
                new Recurrences.Wait("ended-across-the-edge", daysBefore(7.5), daysBefore(6.5), "cluster-full"),
                new Recurrences.Wait("later", AT.plusSeconds(60), null, "insufficient-resources"));
        Map<String, WaitDiagnosis> going = Map.of("sibling-waiting", full, "sibling-waiting-other", cause("no-device"));

        Triage.Recurrence r = Recurrences.count(AT, "self", full, "insufficient-resources", waits, going);

        // self, the sibling the tree finds full too, the ended wait refused alike, the one reaching into the week
        assertEquals(new Triage.Recurrence(4, daysBefore(7.5)), r);
    }

    @Test
    void aSubjectWithoutAnOwnerIsItsOwnOnlyOccurrence() {
        Triage.Recurrence r = Recurrences.count(AT, "self", cause("queued"), "other",
                List.of(new Recurrences.Wait("self", daysBefore(0.25), null, "other")), Map.of());
        assertEquals(new Triage.Recurrence(1, daysBefore(0.25)), r);
    }
}
