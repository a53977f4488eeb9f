package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.LatencyWindow;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.RuleStatus;
import io.gpumeter.alert.domain.SloState;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.Snapshots;
import io.gpumeter.alert.domain.Source;
import io.gpumeter.alert.domain.ViolationEpisode;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.alert.domain.Snapshots.NOW;
import static io.gpumeter.alert.domain.Snapshots.card;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Rules over the ledger's incidents and violations and slo-service's SLO states. */
class SourceRulesTest {

    private static final Duration H3 = Duration.ofHours(3);

    private static Snapshot incidents(Source<List<Incident>> incidents) {
        return Snapshots.with(Source.available(List.of(card("n1", "GPU-a").held("ml", "p", "acme", H3).build())),
                Source.available(List.of()), incidents, Source.available(List.of()));
    }

    private static Incident oom(String node, String ns, Duration ago) {
        return new Incident("oom", "workload", node, null, ns, "p", NOW.minus(ago), false);
    }

    @Test
    void oomFiresPerNodeAndNamespaceWithTheTenantAndClearsOutsideTheWindow() {
        Rule rule = new GpuOomRule(Duration.ofMinutes(30), 2);
        RuleResult r = rule.evaluate(incidents(Source.available(List.of(oom("n1", "ml", Duration.ofMinutes(5)),
                oom("n1", "ml", Duration.ofMinutes(20)), oom("n2", "ml", Duration.ofMinutes(5)),
                new Incident("cuda-oom", "workload", "n1", "GPU-a", "ml", "q", NOW.minus(Duration.ofMinutes(1)), true)))));
        assertEquals(RuleStatus.FIRING, r.status());
        assertEquals(1, r.findings().size(), r.toString());
        Finding f = r.findings().get(0);
        assertEquals("n1", f.label(Finding.NODE));
        assertEquals("acme", f.label(Finding.TENANT));
        assertTrue(f.summary().startsWith("3 out-of-memory failures"), f.summary());
        assertEquals(RuleStatus.OK, rule.evaluate(incidents(Source.available(List.of(oom("n1", "ml", Duration.ofHours(1)),
                oom("n1", "ml", Duration.ofHours(2)))))).status());
    }

    @Test
    void oomIsInactiveWhileTheLedgerHasNoFailuresEndpoint() {
        RuleResult r = new GpuOomRule(Duration.ofMinutes(30), 1).evaluate(incidents(Source.absent("404")));
        assertEquals(RuleStatus.INACTIVE, r.status());
        assertTrue(r.note().contains("source not available"));
    }

    @Test
    void driverXidFromTheKernelLogSkipsApplicationXids() {
        Rule rule = new GpuDriverXidRule(Duration.ofMinutes(30), java.util.Set.of(13, 31, 43, 45, 68, 69));
        RuleResult r = rule.evaluate(incidents(Source.available(List.of(
                new Incident("xid-119", "data-plane", "n1", "GPU-a", null, null, NOW.minus(Duration.ofMinutes(3)), true),
                new Incident("xid-13", "workload", "n2", "GPU-b", null, null, NOW.minus(Duration.ofMinutes(3)), true)))));
        assertEquals(1, r.findings().size());
        assertTrue(r.findings().get(0).summary().contains("Xid 119"));
    }

    private static Snapshot violations(ViolationEpisode... v) {
        return Snapshots.with(Source.available(List.of(card("n1", "GPU-a").held("ml", "p", "acme", H3).build())),
                Source.available(List.of(v)), Source.available(List.of()), Source.available(List.of()));
    }

    @Test
    void hardAndBypassViolationsFireWhileRecentAndSoftOnesNever() {
        Rule rule = new GpuQuotaHardViolationRule(Duration.ofMinutes(10));
        RuleResult r = rule.evaluate(violations(
                new ViolationEpisode("HARD", "CORES", "GPU-a", "ml", "p", NOW.minus(Duration.ofMinutes(30)), null, 1.8),
                new ViolationEpisode("BYPASS", "MEMORY", "GPU-a", "other", "sneaky", NOW.minus(Duration.ofMinutes(30)),
                        NOW.minus(Duration.ofMinutes(2)), null),
                new ViolationEpisode("SOFT", "CORES", "GPU-a", "ml", "p", NOW.minus(Duration.ofMinutes(5)), null, 1.2)));
        assertEquals(2, r.findings().size());
        Finding hard = r.findings().get(0);
        assertEquals("n1", hard.label(Finding.NODE));
        assertEquals("acme", hard.label(Finding.TENANT));
        assertEquals("p", hard.label(Finding.POD));
        assertEquals(RuleStatus.OK, rule.evaluate(violations(new ViolationEpisode("HARD", "CORES", "GPU-a", "ml", "p",
                NOW.minus(Duration.ofHours(1)), NOW.minus(Duration.ofMinutes(20)), 1.8))).status());
    }

    @Test
    void driftFiresWhileRecent() {
        Rule rule = new HamiLedgerDriftRule(Duration.ofMinutes(10));
        RuleResult r = rule.evaluate(violations(new ViolationEpisode("DRIFT", "MEMORY", "GPU-a", null, null,
                NOW.minus(Duration.ofMinutes(15)), null, 0.3)));
        assertEquals(1, r.findings().size());
        assertEquals("n1", r.findings().get(0).label(Finding.NODE));
        assertEquals(RuleStatus.OK, rule.evaluate(violations()).status());
    }

    private static Snapshot slos(SloState... states) {
        return Snapshots.with(Source.available(List.of()), Source.available(List.of()), Source.available(List.of()),
                Source.available(List.of(states)));
    }

    private static List<LatencyWindow> windows(double... p99) {
        List<LatencyWindow> out = new ArrayList<>();
        Instant start = NOW.minus(Duration.ofMinutes(p99.length));
        for (double v : p99) {
            out.add(new LatencyWindow(start, start.plus(Duration.ofMinutes(1)), v));
            start = start.plus(Duration.ofMinutes(1));
        }
        return out;
    }

    @Test
    void latencyFiresAfterNConsecutiveWindowsOverTheLine() {
        Rule rule = new InferenceLatencyRule(3);
        SloState over = new SloState("chat-ttft", "TTFT", "chat", "serve", "acme", 300.0, false, null,
                windows(100, 400, 350, 320));
        RuleResult r = rule.evaluate(slos(over));
        assertEquals(1, r.findings().size());
        assertEquals("chat-ttft", r.findings().get(0).label("slo"));
        SloState recovering = new SloState("chat-ttft", "TTFT", "chat", "serve", "acme", 300.0, false, null,
                windows(400, 400, 350, 200));
        assertEquals(RuleStatus.OK, rule.evaluate(slos(recovering)).status());
        SloState availability = new SloState("chat-up", "AVAILABILITY", "chat", "serve", "acme", 300.0, false, null,
                windows(400, 400, 400));
        assertEquals(RuleStatus.OK, rule.evaluate(slos(availability)).status());
    }

    @Test
    void oneServiceNameInTwoNamespacesIsTwoServicesEachAlertedOnItsOwn() {
        // tenant A's pods call themselves chat too; only tenant B's service in b-ns is slow
        SloState mine = new SloState("b-chat-ttft", "TTFT", "chat", "b-ns", null, 300.0, true, 15.0,
                windows(400, 400, 400));
        SloState theirs = new SloState("a-chat-ttft", "TTFT", "chat", "a-ns", null, 300.0, false, null,
                windows(100, 100, 100));
        for (Rule rule : List.of(new InferenceLatencyRule(3), new SloFastBurnRule())) {
            RuleResult r = rule.evaluate(slos(mine, theirs));
            assertEquals(1, r.findings().size(), rule.alertname());
            assertEquals("b-ns", r.findings().get(0).label(Finding.NAMESPACE), rule.alertname());
            assertEquals("b-chat-ttft", r.findings().get(0).label("slo"), rule.alertname());
        }
        RuleResult latency = new InferenceLatencyRule(3).evaluate(slos(mine, theirs));
        assertTrue(latency.findings().get(0).summary().contains("b-ns/chat"), latency.findings().get(0).summary());
    }

    @Test
    void fastBurnFiresWhileSloServiceSaysSoAndIsInactiveWithoutIt() {
        Rule rule = new SloFastBurnRule();
        assertEquals(1, rule.evaluate(slos(new SloState("chat-ttft", "TTFT", "chat", null, "acme", 300.0, true, 15.2,
                List.of()))).findings().size());
        assertEquals(RuleStatus.OK, rule.evaluate(slos(new SloState("chat-ttft", "TTFT", "chat", null, "acme", 300.0, false,
                null, List.of()))).status());
        assertEquals(RuleStatus.INACTIVE, rule.evaluate(Snapshots.with(Source.available(List.of()), Source.available(List.of()),
                Source.available(List.of()), Source.absent("slo-service has no /api/v1/slo-states"))).status());
    }
}
