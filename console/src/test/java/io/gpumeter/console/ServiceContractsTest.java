package io.gpumeter.console;

import io.gpumeter.common.testing.Contract;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console's own records read every answer a page binds, as the serving services' resource tests recorded them
 * (ADR 25): a field renamed or dropped on a service fails here, where Jackson alone would leave the page's figure
 * empty. The figures asserted are those the serving tests set up.
 */
class ServiceContractsTest {

    private static void same(String expected, BigDecimal actual) {
        assertEquals(0, new BigDecimal(expected).compareTo(actual), "expected " + expected + ", got " + actual);
    }

    @Test
    void theFleetAndACardAsTheLedgerLaysThemOut() {
        // FleetLayoutResourceTest: four nodes; lh1's first card held by acme's and globex's shares, 0.75 of it
        FleetLayout layout = Contract.of("ledger", "fleet-layout").freeKeysAt("group").readAs(FleetLayout.class);
        assertEquals(4, layout.totalNodes());
        assertEquals(List.of("lc1", "lh1", "lm1", "lx1"), layout.nodes().stream().map(FleetLayout.Node::node).toList());
        FleetLayout.Card shared = layout.nodes().get(1).gpus().get(0);
        assertEquals(List.of("acme", "globex"), shared.occupants().stream().map(Occupant::tenant).toList());
        same("0.75", shared.heldFraction());
        assertEquals("m-c", layout.nodes().get(2).unplaced().get(0).pod());

        // BulkReadsResourceTest: GPU-bulk-1 at 11:30 is half acme's train (50 % of the cores, 8192 MiB), half globex's infer
        List<Occupant> card = Contract.of("ledger", "card-occupants").readListOf(Occupant.class);
        assertEquals(List.of("a/train", "g/infer"), card.stream().map(Occupant::who).toList());
        assertEquals("vGPU 50 % cores, 8192 MiB", card.get(0).unitText());
        same("0.5", card.get(0).fraction());
        assertEquals("bulk-n1", Contract.of("ledger", "occupants").readListOf(Occupant.class).get(0).node());

        List<CardUsage.Point> usage = Contract.of("ledger", "card-usage").readListOf(CardUsage.Point.class);
        assertEquals(List.of("2026-06-07T10:00:00Z", "2026-06-07T10:01:00Z"), usage.stream().map(CardUsage.Point::minute).toList());
        same("50", usage.get(0).mean());
        List<FleetResource.CardSeries> series = Contract.of("ledger", "usage-series").readListOf(FleetResource.CardSeries.class);
        assertEquals("GPU-bulk-1", series.get(1).gpuUuid());
        assertEquals(List.of(50.0, 20.0), series.get(1).points().stream().map(FleetResource.CardSeries.Point::mean).toList());
    }

    @Test
    void theHoursIdleAndFailuresAsTheLedgerCountsThem() {
        List<HoursRows.GroupHours> hours = Contract.of("ledger", "gpu-hours").freeKeysAt("group").readListOf(HoursRows.GroupHours.class);
        // EnergyResourceTest: tenant ta's H100 drew 0.02 kWh in the hour
        same("0.02", hours.stream().filter(h -> "ta".equals(h.name("tenant"))).findFirst().orElseThrow().energyKWh());

        // IdleCauseResourceTest: train-cpu's not-busy hour went 0.833333 to its CPU and 0.166667 to I/O, all of it seen
        IdleAnswer idle = Contract.of("ledger", "idle").freeKeysAt("group").readAs(IdleAnswer.class);
        IdleAnswer.Row train = idle.rows().stream().filter(r -> r.key().equals("idlecause/tc/train-cpu")).findFirst().orElseThrow();
        same("0.833333", train.allocatedNotBusyBy().cpuSaturated());
        same("0.166667", train.allocatedNotBusyBy().ioWait());
        same("1", train.hostCoverage());
        same("0.25", idle.causeThresholds().cfsThrottledShare());
        List<IdleRows.Row> rows = IdleRows.of(idle, "pod");
        IdleRows.Row drawn = rows.stream().filter(r -> r.group().equals("tc/train-cpu")).findFirst().orElseThrow();
        assertEquals("tc", drawn.sub());
        same("1", drawn.total());

        // GovernanceResourceTest: per cause, one gpu-lost at 50 per 1,000 GPU-hours, recovered in 30 min
        FailureAnswers.Group lost = Contract.of("ledger", "failures").readListOf(FailureAnswers.Group.class).get(0);
        assertEquals("gpu-lost", lost.key());
        same("50", lost.ratePer1000GpuHours());
        same("1800", lost.mttrP50Seconds());
        FailureAnswers.Incident pulling = Contract.of("ledger", "incidents").readListOf(FailureAnswers.Incident.class).get(0);
        assertEquals("image-pull", pulling.cause());
        assertTrue(pulling.open());
        IncidentFacts recovered = Contract.of("ledger", "incident").readAs(IncidentFacts.class);
        assertEquals("recovered 2026-05-01T10:05:00Z", recovered.state());
        assertEquals("fid · gpu-1 · ml/puller", recovered.where());
    }

    @Test
    void theQueuesAndATenantsWorkloadsAsTheLedgerSeesThem() {
        // GovernanceResourceTest: cq-a's two waits, 300 s at the median and 1,200 s at p95
        QueueAnswers.Wait wait = Contract.of("ledger", "queue-wait").readListOf(QueueAnswers.Wait.class).get(0);
        assertEquals("cq-a", wait.group());
        same("300", wait.p50Seconds());
        QueueAnswers.Pending pending = Contract.of("ledger", "queue-wait-pending").readListOf(QueueAnswers.Pending.class).get(0);
        assertEquals("research/w-a3", pending.object());
        assertEquals("workload", pending.kind());
        assertEquals("quota", pending.why());
        QueueAnswers.Decisions decisions = Contract.of("ledger", "scheduling-decisions").readAs(QueueAnswers.Decisions.class);
        assertEquals("ADMITTED", decisions.state());
        assertEquals("gpu-research · lq-a", decisions.queue().text());
        assertEquals(List.of("created", "quota-reserved", "admitted"), decisions.trail().stream().map(QueueAnswers.Step::step).toList());
        assertEquals("2025-03-14T03:03:26Z", decisions.waits().get(0).end());

        // VolcanoJobResourceTest: q-nlp finished an Aborted and a Failed job, none completed
        List<VolcanoJobs.Queue> queues = Contract.of("ledger", "volcano-jobs").freeKeysAt("states").readListOf(VolcanoJobs.Queue.class);
        assertEquals(List.of("q-nlp", "q-vision"), queues.stream().map(VolcanoJobs.Queue::key).toList());
        assertEquals(0, queues.get(0).completed());
        assertEquals(2, queues.get(1).completed());
        assertEquals("nlp/bert-ft", queues.get(0).waits().longestJob());
        assertEquals(List.of("nlp/abort-d", "nlp/bert-ft"), queues.get(0).jobs().stream().map(VolcanoJobs.Job::job).toList());

        // TenantWorkloadsResourceTest: team-a's waiter and wl-1 wait (wl-1 for quota, its ClusterQueue not known), its
        // train holds 30 % of GPU-TW1's cores
        List<TenantWorkload> acme = Contract.of("ledger", "tenant-workloads").readListOf(TenantWorkload.class);
        assertEquals(List.of(true, true, false), acme.stream().map(TenantWorkload::waits).toList());
        assertEquals("quota", acme.get(1).detail());
        assertEquals("tw-1: GPU-TW1 vGPU 30 % cores, 8192 MiB (0.3 of a card)", acme.get(2).detail());
        assertEquals("/triage?namespace=team-a&pod=train&cluster=tw", acme.get(2).triageLink());
    }

    @Test
    void theChangeBookAsTheLedgerKeepsIt() {
        // ChangeBookResourceTest: the book's first page, gpu-a added on 21 February
        List<BookChange> book = Contract.of("ledger", "changes").readListOf(BookChange.class);
        assertEquals("NODE_ADDED", book.get(0).kind());
        assertEquals("2025-02-21T00:00:00Z", book.get(0).atText());
        assertEquals("chg (cluster-wide)", book.get(1).where());
        List<ChangeReads.BulkScope> scopes = Contract.of("ledger", "changes-bulk").readListOf(ChangeReads.BulkScope.class);
        assertEquals(List.of("NODE_LABEL", "COMPONENT_HEALTH", "COMPONENT_HEALTH"),
                scopes.get(0).changes().stream().map(BookChange::kind).toList());

        // ChangeImpactResourceTest: gpu-x's driver upgrade doubled its failures per 1,000 GPU-hours, 400 to 800
        ChangeImpact impact = Contract.of("ledger", "change-impact").freeKeysAt("xids").readAs(ChangeImpact.class);
        assertEquals("DRIVER_VERSION", impact.change().kind());
        same("400", impact.before().ratePer1000GpuHours());
        same("800", impact.after().ratePer1000GpuHours());
        assertEquals(List.of("Xid 13", "Xid 79"), impact.xids().stream().map(ChangeImpact.Compare::what).toList());
        assertEquals(List.of("gpu-lost", "xid-13"), impact.causes().stream().map(ChangeImpact.Compare::what).toList());

        // ...: gpu-a cordoned at 06:01, its device plugin's second pod Ready
        GpuStackView stack = GpuStackView.of(Contract.of("ledger", "gpu-stack").freeKeysAt("all").readAs(GpuStackAnswer.class));
        assertEquals("cordoned", stack.cordoned());
        assertEquals(List.of("node.kubernetes.io/unschedulable:NoSchedule"), stack.taints());
        assertEquals("gpu-operator/nvdp-2", stack.components().get(0).pod());
        assertEquals("v0.15.0", stack.components().get(0).version());
    }

    @Test
    void sloServicesStatesPlanAndJitter() {
        // TenantSloResourceTest's states (acme's SLOs, whole selectors) with ServicesInNamespacesResourceTest's burn-down,
        // where legacy-chat cannot be evaluated and says why
        List<SloAnswers.State> states = Contract.of("slo", "slo-states").with(Contract.of("slo", "slo-states-burn-down"))
                .readListOf(SloAnswers.State.class);
        SloAnswers.State ask = states.stream().filter(s -> s.slo().name().equals("acme-ask-requests")).findFirst().orElseThrow();
        assertEquals("service=ask, tenant=acme", ask.slo().selector().text());
        assertEquals(Boolean.FALSE, ask.status().meetsTarget(), "0.7 under its target of 0.9: slo-service says so");
        assertEquals(Boolean.TRUE, states.stream().filter(s -> s.slo().name().equals("acme-web-up")).findFirst().orElseThrow()
                .status().meetsTarget());
        SloAnswers.State legacy = states.stream().filter(s -> s.slo().name().equals("legacy-chat")).findFirst().orElseThrow();
        assertNull(legacy.status());
        assertEquals("selector.namespace", legacy.problem().field());
        SloAnswers.State chat = states.stream().filter(s -> s.slo().name().equals("b-chat-ttft")).findFirst().orElseThrow();
        assertEquals(3, chat.budgetLeft().size());
        assertEquals(17, chat.status().goodEvents());

        // CapacityPlanResourceTest: the A100s, 14 usable of 16, need 25.45 with margins: 11.45 short
        CapacityPlan plan = Contract.of("slo", "capacity-plan").readAs(CapacityPlan.class);
        CapacityPlan.Model a100 = plan.models().stream().filter(m -> m.model().equals("NVIDIA A100-SXM4-80GB")).findFirst().orElseThrow();
        assertEquals(14, a100.supply().usable());
        same("25.45", a100.cardsNeeded().total());
        same("-11.45", a100.gap().cards());
        assertTrue(a100.isShort());
        same("0.1451", a100.margins().jitter().applied());

        // NoisyNeighbourResourceTest: chat's ten bad minutes from 10:10, research/train-0 the top suspect
        JitterAnswers.Listed listed = Contract.of("slo", "jitter-events").readListOf(JitterAnswers.Listed.class).get(0);
        assertEquals("research/train-0", listed.topSuspect());
        JitterAnswers.Event event = Contract.of("slo", "jitter-event").freeKeysAt("curves").readAs(JitterAnswers.Event.class);
        assertEquals(listed.id(), event.id());
        assertEquals("2026-08-03T10:10:00Z", event.start());
        assertEquals(10, event.badMinutes());
        same("200", event.limitMs());
        JitterAnswers.Interference factor = Contract.of("slo", "interference").readAs(JitterAnswers.Interference.class);
        assertEquals(List.of("0", "1", "2", "3+"), factor.byNeighbours().stream().map(JitterAnswers.Bucket::bucket).toList());
        // 280 samples merged from the minutes' histograms: 300 ms within the histogram's precision
        assertEquals(300, factor.byNeighbours().get(1).p99Ms().doubleValue(), 0.5);
        assertEquals("PT24H", factor.maxWindow());
        assertFalse(factor.narrowed());
    }

    @Test
    void billingsReportSeriesForecastsAndAnomalies() {
        // MonthlyReportResourceTest: March 2026, acme's 54.47 allocated, 14.08 used and 40.39 idle
        MonthlyCost cost = new MonthlyCost(Contract.of("billing", "monthly-report").readListOf(BillingAnswers.MonthlyLine.class));
        assertEquals("USD", cost.currency);
        same("54.47", cost.of("acme").allocated());
        same("14.08", cost.of("acme").used());
        same("40.39", cost.of("acme").idle());
        assertNull(cost.of("acme").energyCost());

        // CostSeriesResourceTest: 31 days between UTC midnights; acme's 1 March 12.5 h costing 43.75
        CostSeries series = new CostSeries(Contract.of("billing", "cost-series").readAs(BillingAnswers.Series.class));
        assertEquals(31, series.buckets.size());
        assertEquals("UTC", series.timeZone());
        assertEquals(new BillingMonth("2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z", null),
                BillingMonth.of(series.answer, java.time.YearMonth.of(2026, 3)));
        BillingAnswers.Line first = series.lines().get(0);
        assertEquals("acme", first.group());
        same("12.5", first.allocatedGpuHours());
        same("43.75", first.allocatedCost());

        // BudgetResourceTest: acme spent 205.00 of 600.00 by 11 March, forecast 635.50, over by 35.50
        BillingAnswers.Forecast acme = Contract.of("billing", "budget-forecast").readAs(BillingAnswers.Forecast.class);
        same("205", acme.spentToDate());
        same("635.5", acme.forecast());
        assertTrue(acme.overrun());
        same("35.5", acme.overrunAmount());
        assertEquals("acme", Contract.of("billing", "budget-forecasts").readListOf(BillingAnswers.Forecast.class).get(0).tenant());

        // CostWatchResourceTest: 15 November, acme's 82.00 over its threshold 57.86
        BillingAnswers.Anomalies day = Contract.of("billing", "cost-anomalies").readAs(BillingAnswers.Anomalies.class);
        assertEquals("2026-11-15", day.day());
        assertEquals(List.of("acme", "delta"), day.tenants().stream().filter(BillingAnswers.TenantDay::anomalous)
                .map(BillingAnswers.TenantDay::tenant).toList());
        same("57.86", day.tenants().get(0).threshold());
    }

    @Test
    void alertServicesAlertsActionsTriageAndReviews() {
        // RuleEvaluationResourceTest: n1's GPU-a fell off the bus
        List<AlertAnswers.Alert> alerts = Contract.of("alert", "alerts").freeKeysAt("labels").readListOf(AlertAnswers.Alert.class);
        AlertAnswers.Alert fallen = alerts.stream().filter(a -> "GpuFallenOffBus".equals(a.alertname())).findFirst().orElseThrow();
        assertEquals("node=n1, gpu_uuid=GPU-a", fallen.subject());
        assertEquals("http://alert-service:8084/api/v1/runbook#GpuFallenOffBus", fallen.runbook());
        assertTrue(fallen.firing());
        // WebhookResourceTest: the actions of its alerts, each with its mode and result
        List<AlertAnswers.Action> actions = Contract.of("alert", "actions").readListOf(AlertAnswers.Action.class);
        assertTrue(actions.stream().anyMatch(a -> "cordon".equals(a.action()) && "APPLIED".equals(a.result())), actions.toString());

        // TriageResourceTest: train-0's OOM under its neighbour's memory pressure, after a driver change
        TriageView triage = TriageView.of(Contract.of("alert", "triage").readAs(TriageAnswer.class));
        assertEquals("pod acme-ml/train-0 in east", triage.subject());
        assertEquals("neighbour-memory-pressure", triage.cause());
        assertEquals("550.54.15 → 560.35.03", triage.changes().get(0).beforeAfter());
        assertEquals(List.of("acme-ml/train-1", "initech-ml/big-0", "hooli-ml/serve-2"), triage.scope().alike());
        assertTrue(triage.fix().action().startsWith("1. Restart the workload elsewhere"), triage.fix().action());

        // ReviewResourceTest: the raced incident's second review, one item of each kind and field
        ReviewView review = Contract.of("alert", "review").freeKeysAt("matchers", "cell", "baseline", "assertion")
                .readAs(ReviewView.class);
        assertEquals(2, review.version());
        List<PreventionView> items = review.items("e5e5e5e5e5e5e5e5e5e5e5e5");
        assertEquals("a pod requesting nvidia.com/gpumem names scheduler hami-scheduler in every namespace (WARN)", items.get(1).summary());
        // sent without an action, served with alert-service's default
        assertEquals("no container requests both nvidia.com/gpu and nvidia.com/gpumem in ml-team (DENY)", items.get(2).summary());
        assertEquals("acceptance assertion 'p99 within 30 %' (RATIO P99 TTFT maxRatio 1.3) in cell shared (chat, HAMI)",
                items.get(3).summary());
        assertEquals("/failures/incidents/e5e5e5e5e5e5e5e5e5e5e5e5/review/items/5?version=2", items.get(4).link());
        assertEquals(Map.of("name", "alone", "workload", "chat", "form", "DEDICATED", "selector", Map.of("namespace", "ml-team")),
                review.prevention().get(3).baseline());
    }
}
