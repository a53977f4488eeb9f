package io.gpumeter.console;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The console's stand-ins serve nothing the services do not say: their canned answers are checked against the examples. */
class ExamplesTest {

    @Test
    void aCannedAnswerHoldingAFieldTheServiceDoesNotAnswerIsRefused() {
        // the ledger answers p50Seconds (GovernanceResourceTest's example); a canned answer saying p50 is not the ledger's
        AssertionError renamed = assertThrows(AssertionError.class, () -> Examples.check(Backend.LEDGER,
                "/api/v1/queue-wait?groupBy=clusterQueue", StandIn.Reply.json("[{\"key\":\"cq-a\",\"count\":2,\"p50\":300}]")));
        assertTrue(renamed.getMessage().contains("[[].p50]") && renamed.getMessage().contains("ledger queue-wait"), renamed.getMessage());
        // fields left out pass, as do refusals and answers that are not JSON
        Examples.check(Backend.LEDGER, "/api/v1/queue-wait", StandIn.Reply.json("[{\"key\":\"cq-a\",\"p50Seconds\":300}]"));
        Examples.check(Backend.LEDGER, "/api/v1/queue-wait", StandIn.Reply.problem(403, "Forbidden", "a tenant token may not"));
        Examples.check(Backend.BILLING, "/api/v1/reports/monthly", new StandIn.Reply(200, "text/csv", "tenant,cost\nacme,1\n"));
        // the layout and the occupant rows share a path: each answer is held to its own read
        AssertionError rowsAsLayout = assertThrows(AssertionError.class, () -> Examples.check(Backend.LEDGER,
                "/api/v1/fleet/occupants", StandIn.Reply.json("{\"at\":\"2026-11-30T12:00:00Z\",\"pod\":\"train\"}")));
        assertTrue(rowsAsLayout.getMessage().contains("fleet-layout") && rowsAsLayout.getMessage().contains(".pod"),
                rowsAsLayout.getMessage());
    }
}
