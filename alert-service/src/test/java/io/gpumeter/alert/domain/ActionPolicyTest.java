package io.gpumeter.alert.domain;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static io.gpumeter.alert.domain.ActionKind.CORDON;
import static io.gpumeter.alert.domain.ActionKind.FREEZE_DECODE;
import static io.gpumeter.alert.domain.ActionKind.TICKET;
import static io.gpumeter.alert.domain.ActionMode.DRY_RUN;
import static io.gpumeter.alert.domain.ActionMode.ENFORCE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Guards before an action runs, the blast radius, back-off, and the strict parsers of configuration values. */
class ActionPolicyTest {

    private static ActionPolicy.Facts facts(boolean target, int recent, int holders, int cordoned, int allowed) {
        return new ActionPolicy.Facts(target, recent, 5, holders, cordoned, allowed);
    }

    @Test
    void decidesInOrderTargetSharedRateBlastRadius() {
        assertEquals(ActionResult.SKIPPED, ActionPolicy.decide(CORDON, ENFORCE, facts(false, 0, 0, 0, 1)));
        assertEquals(ActionResult.SHARED, ActionPolicy.decide(CORDON, ENFORCE, facts(true, 9, 1, 9, 1)));
        assertEquals(ActionResult.DRY_RUN, ActionPolicy.decide(FREEZE_DECODE, DRY_RUN, facts(true, 0, 1, 0, 1)));
        assertEquals(ActionResult.RATE_LIMITED, ActionPolicy.decide(CORDON, ENFORCE, facts(true, 5, 0, 0, 10)));
        assertEquals(ActionResult.REFUSED_BLAST_RADIUS, ActionPolicy.decide(CORDON, ENFORCE, facts(true, 0, 0, 2, 2)));
        assertEquals(ActionResult.REFUSED_BLAST_RADIUS, ActionPolicy.decide(CORDON, DRY_RUN, facts(true, 0, 0, 2, 2)));
        assertEquals(ActionResult.PENDING, ActionPolicy.decide(CORDON, ENFORCE, facts(true, 0, 0, 1, 2)));
        assertEquals(ActionResult.PENDING, ActionPolicy.decide(TICKET, ENFORCE, facts(true, 0, 3, 99, 0)));
        assertEquals(ActionResult.DRY_RUN, ActionPolicy.decide(CORDON, DRY_RUN, facts(true, 0, 0, 0, 1)));
    }

    @Test
    void aNodeOrCardTheLedgerDoesNotKnowIsRefusedBeforeAnythingElseIsWeighed() {
        assertEquals(ActionResult.REFUSED_UNKNOWN_TARGET, ActionPolicy.decide(CORDON, ENFORCE, facts(true, 0, 0, 0, 1), false));
        assertEquals(ActionResult.REFUSED_UNKNOWN_TARGET, ActionPolicy.decide(CORDON, DRY_RUN, facts(true, 0, 0, 0, 1), false),
                "dry-run records what enforce would do: refuse");
        assertEquals(ActionResult.REFUSED_UNKNOWN_TARGET, ActionPolicy.decide(CORDON, ENFORCE, facts(true, 0, 1, 0, 1), false),
                "not even a share of a change gpumeter holds");
        assertEquals(ActionResult.REFUSED_UNKNOWN_TARGET, ActionPolicy.decide(TICKET, ENFORCE, facts(true, 0, 0, 0, 0), false));
        assertEquals(ActionResult.PENDING, ActionPolicy.decide(CORDON, ENFORCE, facts(true, 0, 0, 0, 1), true));
    }

    @Test
    void blastRadiusIsAShareOfTheFleetWithAFloor() {
        assertEquals(2, BlastRadius.allowed(20, 0.1, 1));
        assertEquals(1, BlastRadius.allowed(5, 0.1, 1));
        assertEquals(3, BlastRadius.allowed(10, 0.3, 1), "0.3 × 10 is 3 despite floating point");
        assertEquals(1, BlastRadius.allowed(-1, 0.5, 1), "an unknown fleet allows the floor only");
        assertEquals(0, BlastRadius.allowed(3, 0.1, 0));
    }

    @Test
    void backoffDoublesUpToTheMaximum() {
        Duration initial = Duration.ofSeconds(5);
        Duration max = Duration.ofMinutes(5);
        assertEquals(Duration.ofSeconds(5), Backoff.after(1, initial, max));
        assertEquals(Duration.ofSeconds(10), Backoff.after(2, initial, max));
        assertEquals(Duration.ofSeconds(40), Backoff.after(4, initial, max));
        assertEquals(max, Backoff.after(8, initial, max));
        assertEquals(max, Backoff.after(1000, initial, max));
    }

    @Test
    void parsersAreStrict() {
        assertEquals(ActionKind.FREEZE_DECODE, ActionKind.parse("freeze-decode"));
        assertEquals(ActionKind.TRACE_SNAPSHOT, ActionKind.parse(" trace_snapshot "));
        assertEquals(ActionMode.DRY_RUN, ActionMode.parse("dry-run"));
        assertEquals(Severity.CRITICAL, Severity.parse("Critical"));
        assertEquals("action must be one of cordon, freeze-decode, annotate, trace-snapshot, ticket, got 'drain'",
                assertThrows(IllegalArgumentException.class, () -> ActionKind.parse("drain")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> ActionMode.parse("yes"));
        assertThrows(IllegalArgumentException.class, () -> Severity.parse("page"));
    }
}
