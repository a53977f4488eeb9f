package io.gpumeter.alert.repository;

import io.gpumeter.alert.domain.ActionKind;
import io.gpumeter.alert.domain.ActionMode;
import io.gpumeter.alert.domain.ActionPolicy;
import io.gpumeter.alert.domain.ActionResult;
import io.gpumeter.alert.domain.ReceivedAlert;
import io.gpumeter.alert.rest.FakeLedger;
import io.gpumeter.common.problem.Window;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The audit's budgets against the real database: dry-runs are recorded and limited among themselves, but never use
 * up the rate limit or the blast radius of enforced actions.
 */
@QuarkusTest
@WithKubernetesTestServer(crud = true)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
class ActionRepositoryTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @Inject
    ActionRepository audit;

    @Test
    void dryRunsDoNotUseUpTheEnforceRateLimit() {
        // An hour of its own, far from what other tests recorded, so that only this test's rows count.
        Instant now = Instant.parse("2091-03-01T10:00:00Z");
        int limit = 3;
        for (int i = 0; i < limit; i++) {
            assertEquals(ActionResult.DRY_RUN, claim(ActionKind.ANNOTATE, ActionMode.DRY_RUN, "dry-" + i, limit, 100, now));
        }
        assertEquals(ActionResult.RATE_LIMITED, claim(ActionKind.ANNOTATE, ActionMode.DRY_RUN, "dry-x", limit, 100, now),
                "a dry-run still shows when enforce would be limited");
        for (int i = 0; i < limit; i++) {
            assertEquals(ActionResult.PENDING, claim(ActionKind.ANNOTATE, ActionMode.ENFORCE, "enf-" + i, limit, 100, now),
                    "enforce " + (i + 1) + " of " + limit + " after " + limit + " dry-runs");
        }
        assertEquals(ActionResult.RATE_LIMITED, claim(ActionKind.ANNOTATE, ActionMode.ENFORCE, "enf-x", limit, 100, now));
        List<StoredAction> audited = audit.between(now.minusSeconds(1), now.plusSeconds(1), Window.WHOLE).await().atMost(WAIT);
        assertEquals(2 * limit + 2, audited.size(), "every claim is audited, dry-run or not");
    }

    @Test
    void dryRunCordonsDoNotUseUpTheBlastRadius() {
        Instant now = Instant.parse("2092-03-01T10:00:00Z");
        int held = heldCordons();
        int allowed = held + 2;
        for (int i = 0; i < 2; i++) {
            assertEquals(ActionResult.DRY_RUN, claim(ActionKind.CORDON, ActionMode.DRY_RUN, "plan-" + i, 100, allowed, now));
        }
        assertEquals(ActionResult.REFUSED_BLAST_RADIUS,
                claim(ActionKind.CORDON, ActionMode.DRY_RUN, "plan-x", 100, allowed, now));
        assertEquals(ActionResult.PENDING, claim(ActionKind.CORDON, ActionMode.ENFORCE, "hold-0", 100, allowed, now));
        assertEquals(ActionResult.PENDING, claim(ActionKind.CORDON, ActionMode.ENFORCE, "hold-1", 100, allowed, now));
        assertEquals(ActionResult.REFUSED_BLAST_RADIUS,
                claim(ActionKind.CORDON, ActionMode.ENFORCE, "hold-2", 100, allowed, now));
    }

    private ActionResult claim(ActionKind kind, ActionMode mode, String target, int maxPerHour, int allowedCordons,
                               Instant now) {
        ReceivedAlert alert = new ReceivedAlert(UUID.randomUUID().toString(), "BudgetTest", true,
                Map.of("node", target), Map.of(), now.minusSeconds(60), null, null);
        StoredAction row = audit.claim(alert, kind, mode, target, maxPerHour, allowedCordons, now, "planned",
                facts -> ActionPolicy.decide(kind, mode, facts)).await().atMost(WAIT).orElseThrow();
        return ActionResult.valueOf(row.result());
    }

    /** Cordons gpumeter holds from other tests, which the blast radius counts whatever the hour. */
    private int heldCordons() {
        return (int) audit.between(Instant.EPOCH, Instant.parse("2100-01-01T00:00:00Z"), Window.WHOLE).await().atMost(WAIT).stream()
                .filter(a -> a.action().equals("cordon") && a.resolvedAt() == null
                        && List.of("PENDING", "APPLIED", "SHARED").contains(a.result()))
                .map(StoredAction::target).distinct().count();
    }
}
