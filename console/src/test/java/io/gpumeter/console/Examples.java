package io.gpumeter.console;

import io.gpumeter.common.testing.Contract;

import java.util.List;
import java.util.regex.Pattern;

/**
 * The reads of the services whose answers their own resource tests recorded (ADR 25), by the path the console calls:
 * a canned answer the console's tests serve for one of them may leave fields out, but may not hold a field the
 * service's example lacks — a field renamed on the service fails the console's tests that still serve the old name.
 */
final class Examples {

    private record Read(Backend backend, Pattern path, String service, String read, String... freeKeys) {

        /** The fleet's occupants and its layout share a path: the layout (layout=true) is one object, the rows a list. */
        boolean answers(String body) {
            return !read.equals("fleet-layout") && !read.equals("occupants") || read.equals("fleet-layout") == body.strip().startsWith("{");
        }
    }

    private static final List<Read> READS = List.of(
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/fleet/occupants"), "ledger", "occupants"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/fleet/occupants"), "ledger", "fleet-layout", "group"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/gpus/[^/]+/occupants"), "ledger", "card-occupants"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/gpus/[^/]+/usage"), "ledger", "card-usage"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/usage/series"), "ledger", "usage-series"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/gpu-hours"), "ledger", "gpu-hours", "group"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/idle"), "ledger", "idle", "group"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/queue-wait"), "ledger", "queue-wait"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/queue-wait/pending"), "ledger", "queue-wait-pending"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/scheduling-decisions"), "ledger", "scheduling-decisions"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/volcano-jobs"), "ledger", "volcano-jobs", "states"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/failures"), "ledger", "failures"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/failures/incidents"), "ledger", "incidents"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/failures/incidents/[^/]+"), "ledger", "incident"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/tenants/[^/]+/workloads"), "ledger", "tenant-workloads"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/changes"), "ledger", "changes"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/changes/bulk"), "ledger", "changes-bulk"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/changes/[^/]+/impact"), "ledger", "change-impact", "xids"),
            new Read(Backend.LEDGER, Pattern.compile("/api/v1/nodes/[^/]+/gpu-stack"), "ledger", "gpu-stack", "all"),
            new Read(Backend.SLO, Pattern.compile("/api/v1/slo-states"), "slo", "slo-states"),
            new Read(Backend.SLO, Pattern.compile("/api/v1/capacity/plan"), "slo", "capacity-plan"),
            new Read(Backend.SLO, Pattern.compile("/api/v1/jitter-events"), "slo", "jitter-events"),
            new Read(Backend.SLO, Pattern.compile("/api/v1/jitter-events/[0-9]+"), "slo", "jitter-event", "curves"),
            new Read(Backend.SLO, Pattern.compile("/api/v1/interference"), "slo", "interference"),
            new Read(Backend.BILLING, Pattern.compile("/api/v1/reports/monthly"), "billing", "monthly-report"),
            new Read(Backend.BILLING, Pattern.compile("/api/v1/reports/series"), "billing", "cost-series"),
            new Read(Backend.BILLING, Pattern.compile("/api/v1/budget-forecasts"), "billing", "budget-forecasts"),
            new Read(Backend.BILLING, Pattern.compile("/api/v1/budgets/[^/]+/forecast"), "billing", "budget-forecast"),
            new Read(Backend.BILLING, Pattern.compile("/api/v1/cost-anomalies"), "billing", "cost-anomalies"),
            new Read(Backend.ALERT, Pattern.compile("/api/v1/alerts"), "alert", "alerts", "labels"),
            new Read(Backend.ALERT, Pattern.compile("/api/v1/actions"), "alert", "actions"),
            new Read(Backend.ALERT, Pattern.compile("/api/v1/triage"), "alert", "triage"),
            new Read(Backend.ALERT, Pattern.compile("/api/v1/failures/incidents/[^/]+/review"), "alert", "review",
                    "matchers", "cell", "baseline", "assertion"));

    private Examples() {
    }

    /** Checks a canned JSON answer of a recorded read against the service's example; other answers pass as they are. */
    static void check(Backend backend, String pathAndQuery, StandIn.Reply reply) {
        if (reply.status() < 200 || reply.status() >= 300 || !reply.type().startsWith("application/json")) {
            return;
        }
        String path = pathAndQuery.contains("?") ? pathAndQuery.substring(0, pathAndQuery.indexOf('?')) : pathAndQuery;
        for (Read r : READS) {
            if (r.backend() == backend && r.path().matcher(path).matches() && r.answers(reply.body())) {
                Contract contract = Contract.of(r.service(), r.read()).freeKeysAt(r.freeKeys());
                if (r.read().equals("slo-states")) {
                    contract = contract.with(Contract.of("slo", "slo-states-burn-down"));
                }
                contract.check(reply.body());
                return;
            }
        }
    }
}
