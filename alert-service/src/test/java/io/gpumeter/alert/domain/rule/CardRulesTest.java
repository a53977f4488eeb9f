package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.RuleStatus;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.Snapshots;
import io.gpumeter.alert.domain.Source;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static io.gpumeter.alert.domain.Snapshots.card;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The rules over occupied cards' series: each fires from a constructed situation and clears when it does. */
class CardRulesTest {

    private static final Duration H3 = Duration.ofHours(3);

    private static RuleResult run(Rule rule, Card... cards) {
        return rule.evaluate(Snapshots.of(List.of(cards)));
    }

    private static void fires(RuleResult r, int count) {
        assertEquals(RuleStatus.FIRING, r.status(), r.toString());
        assertEquals(count, r.findings().size(), r.toString());
    }

    private static void quiet(RuleResult r) {
        assertEquals(RuleStatus.OK, r.status(), r.toString());
        assertTrue(r.findings().isEmpty());
    }

    // --- GpuFallenOffBus --------------------------------------------------------------

    @Test
    void gpuLostFiresOnXid79AndClearsAfterTheReset() {
        Rule rule = new GpuFallenOffBusRule();
        RuleResult lost = run(rule, card("n1", "GPU-a").held("ml", "p", "acme", H3).series("XID", 0, 0, 79, 79).build());
        fires(lost, 1);
        Finding f = lost.findings().get(0);
        assertEquals("n1", f.label(Finding.NODE));
        assertEquals("GPU-a", f.label(Finding.GPU_UUID));
        assertEquals("critical", f.label("severity"));
        assertEquals("true", f.label("gpumeter"));
        quiet(run(rule, card("n1", "GPU-a").series("XID", 79, 79, 0).build()));
        quiet(run(rule, card("n1", "GPU-a").series("XID", 48).build()));
    }

    @Test
    void gpuLostAlsoFiresFromAnOpenGpuLostIncident() {
        var incident = new io.gpumeter.alert.domain.Incident("gpu-lost", "data-plane", "n2", "GPU-b", null, null,
                Snapshots.NOW.minus(Duration.ofDays(2)), true);
        Snapshot s = Snapshots.with(Source.available(List.of()), Source.available(List.of()),
                Source.available(List.of(incident)), Source.available(List.of()));
        fires(new GpuFallenOffBusRule().evaluate(s), 1);
        var recovered = new io.gpumeter.alert.domain.Incident("gpu-lost", "data-plane", "n2", "GPU-b", null, null,
                Snapshots.NOW.minus(Duration.ofDays(2)), false);
        quiet(new GpuFallenOffBusRule().evaluate(Snapshots.with(Source.available(List.of()), Source.available(List.of()),
                Source.available(List.of(recovered)), Source.available(List.of()))));
    }

    @Test
    void gpuLostWithoutTheFailuresEndpointStillEvaluatesUsageAndSaysSo() {
        Snapshot s = Snapshots.with(Source.available(List.of(card("n1", "GPU-a").series("XID", 79).build())),
                Source.available(List.of()), Source.absent("ledger has no /api/v1/failures/incidents"), Source.available(List.of()));
        RuleResult r = new GpuFallenOffBusRule().evaluate(s);
        fires(r, 1);
        assertTrue(r.note().contains("failures source not available"), r.note());
    }

    // --- GpuHealthDegraded -----------------------------------------------------------------

    private static final String REMAP_FAILED = "DCGM_FI_DEV_ROW_REMAP_FAILURE first read as 1 (a row remap failed: "
            + "the card needs a reset, and a replacement if it fails again)";

    private static Incident health(String node, String gpu, boolean open, String evidence) {
        return new Incident("gpu-health", "data-plane", node, gpu, null, null, Snapshots.NOW.minus(H3), open, evidence);
    }

    private static Snapshot withIncidents(List<Card> cards, Source<List<Incident>> incidents) {
        return Snapshots.with(Source.available(cards), Source.available(List.of()), incidents, Source.available(List.of()));
    }

    @Test
    void healthDegradedFiresForEachCardWithAnOpenGpuHealthIncidentHeldOrNot() {
        Card held = card("n1", "GPU-a").held("ml", "trainer-0", "acme", H3).held("ml", "trainer-1", "acme", H3)
                .series("SM_ACTIVE", 0.5).build();
        List<Incident> incidents = List.of(
                health("n1", "GPU-a", true, REMAP_FAILED),
                health("n3", "GPU-z", true, "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL changed from 0 to 2 "
                        + "(double-bit ECC errors since the driver loaded)"),
                health("n1", "GPU-b", false, "DCGM_FI_DEV_ROW_REMAP_PENDING first read as 1 (a row remap waits for a GPU reset)"),
                new Incident("gpu-lost", "data-plane", "n2", "GPU-c", null, null, Snapshots.NOW.minus(H3), true));
        RuleResult r = new GpuHealthDegradedRule().evaluate(withIncidents(List.of(held), Source.available(incidents)));
        fires(r, 2);

        Finding onHeld = r.findings().get(0);
        Map<String, String> labels = new TreeMap<>(Map.of("alertname", "GpuHealthDegraded", "severity", "critical",
                "gpumeter", "true", "node", "n1", "gpu_uuid", "GPU-a"));
        assertEquals(labels, onHeld.labels(), "no namespace, pod or tenant: the alert stays one across changing holders");
        assertEquals("GPU GPU-a on node n1 reports unhealthy memory", onHeld.summary());
        assertEquals("The ledger holds an open gpu-health incident since 2026-05-04T09:00:30Z: " + REMAP_FAILED + "."
                + " Held now by ml/trainer-0, ml/trainer-1. Drain the card's pods, then reset the GPU or reload the driver;"
                + " a failed row remap means a hardware ticket (RMA).", onHeld.description());

        Finding idle = r.findings().get(1);
        assertEquals("n3", idle.label(Finding.NODE));
        assertEquals("GPU-z", idle.label(Finding.GPU_UUID));
        assertEquals(5, idle.labels().size(), idle.labels().toString());
        assertEquals("The ledger holds an open gpu-health incident since 2026-05-04T09:00:30Z: DCGM_FI_DEV_ECC_DBE_VOL_TOTAL "
                + "changed from 0 to 2 (double-bit ECC errors since the driver loaded). Drain the card's pods, then reset "
                + "the GPU or reload the driver; a failed row remap means a hardware ticket (RMA).", idle.description());
    }

    @Test
    void anIncidentOpenForWeeksStillFiresBothCardRules() {
        // Longer open than any lookback: a double-bit ECC error 20 days unreset, a card lost 30 days ago.
        List<Incident> incidents = List.of(
                new Incident("gpu-health", "data-plane", "n3", "GPU-z", null, null, Snapshots.NOW.minus(Duration.ofDays(20)), true,
                        "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL changed from 0 to 2 (double-bit ECC errors since the driver loaded)"),
                new Incident("gpu-lost", "data-plane", "n3", "GPU-y", null, null, Snapshots.NOW.minus(Duration.ofDays(30)), true));
        RuleResult health = new GpuHealthDegradedRule().evaluate(withIncidents(List.of(), Source.available(incidents)));
        fires(health, 1);
        assertEquals("GPU-z", health.findings().get(0).label(Finding.GPU_UUID));
        assertTrue(health.findings().get(0).description().startsWith(
                "The ledger holds an open gpu-health incident since 2026-04-14T12:00:30Z: "), health.findings().get(0).description());
        RuleResult lost = new GpuFallenOffBusRule().evaluate(withIncidents(List.of(), Source.available(incidents)));
        fires(lost, 1);
        assertEquals("GPU-y", lost.findings().get(0).label(Finding.GPU_UUID));
        assertEquals("the ledger holds an open gpu-lost incident since 2026-04-04T12:00:30Z. Cordon the node, drain its GPU"
                + " pods and open a hardware ticket.", lost.findings().get(0).description());
    }

    @Test
    void healthDegradedStaysQuietForRecoveredIncidentsAndOtherCauses() {
        List<Incident> incidents = List.of(health("n1", "GPU-a", false, REMAP_FAILED),
                new Incident("gpu-lost", "data-plane", "n1", "GPU-a", null, null, Snapshots.NOW.minus(H3), true),
                new Incident("xid-48", "data-plane", "n1", "GPU-a", null, null, Snapshots.NOW.minus(H3), true));
        quiet(new GpuHealthDegradedRule().evaluate(withIncidents(List.of(), Source.available(incidents))));
    }

    @Test
    void healthDegradedWithoutEvidenceSaysSoAndFollowsTheFailuresSource() {
        RuleResult bare = new GpuHealthDegradedRule().evaluate(withIncidents(List.of(),
                Source.available(List.of(health("n1", "GPU-a", true, null)))));
        fires(bare, 1);
        assertTrue(bare.findings().get(0).description().contains("since 2026-05-04T09:00:30Z: no evidence recorded."),
                bare.findings().get(0).description());

        assertEquals(RuleStatus.INACTIVE, new GpuHealthDegradedRule().evaluate(withIncidents(List.of(),
                Source.absent("ledger has no /api/v1/failures/incidents"))).status());
        assertEquals(RuleStatus.HELD, new GpuHealthDegradedRule().evaluate(withIncidents(List.of(),
                Source.failed("ledger: 503"))).status(), "a failing ledger holds the alert instead of resolving it");
        RuleResult cardsFailed = new GpuHealthDegradedRule().evaluate(Snapshots.with(Source.failed("ledger: 503"),
                Source.available(List.of()), Source.available(List.of(health("n1", "GPU-a", true, REMAP_FAILED))),
                Source.available(List.of())));
        fires(cardsFailed, 1);
    }

    // --- GpuDriverXid -------------------------------------------------------------------

    @Test
    void driverXidFiresForANewHardwareXidOnlyWithinItsWindow() {
        Rule rule = new GpuDriverXidRule(Duration.ofMinutes(30), Set.of(13, 31, 43, 45, 68, 69));
        double[] fresh = new double[60];
        fresh[55] = 48;
        fresh[56] = 48;
        fresh[57] = 48;
        fresh[58] = 48;
        fresh[59] = 48;
        RuleResult r = run(rule, card("n1", "GPU-a").series("XID", fresh).build());
        fires(r, 1);
        assertTrue(r.findings().get(0).summary().contains("Xid 48"), r.findings().get(0).summary());

        double[] old = new double[60];
        java.util.Arrays.fill(old, 10, 60, 48); // appeared 50 minutes ago and lasts: not new
        quiet(run(rule, card("n1", "GPU-a").series("XID", old).build()));
        quiet(run(rule, card("n1", "GPU-a").series("XID", 0, 0, 13, 13).build()));
        quiet(run(rule, card("n1", "GPU-a").series("XID", 0, 0, 79).build()));
    }

    // --- GpuMissing -----------------------------------------------------------------------

    @Test
    void missingFiresForASilentCardWhoseNeighbourStillReports() {
        Rule rule = new GpuMissingRule(Duration.ofMinutes(5), Duration.ofMinutes(3));
        Card silent = card("n1", "GPU-a").held("ml", "p", "acme", H3).seriesEndingAgo("GPU_UTIL", 10, 0.5, 0.5).build();
        Card alive = card("n1", "GPU-b").held("ml", "q", "acme", H3).series("GPU_UTIL", 0.4, 0.4).build();
        RuleResult r = run(rule, silent, alive);
        fires(r, 1);
        assertEquals("GPU-a", r.findings().get(0).label(Finding.GPU_UUID));

        Card back = card("n1", "GPU-a").held("ml", "p", "acme", H3).series("GPU_UTIL", 0.5).build();
        quiet(run(rule, back, alive));
        Card nodeSilent = card("n1", "GPU-b").seriesEndingAgo("GPU_UTIL", 10, 0.4).build();
        quiet(run(rule, silent, nodeSilent));
        quiet(run(rule, card("n1", "GPU-c").build(), alive));
    }

    // --- GpuAllocationIdle ------------------------------------------------------------------

    @Test
    void longIdleAllocationFiresPerHolderAndClearsWhenTheCardWorks() {
        Rule rule = new GpuAllocationIdleRule(0.05, Duration.ofHours(2), 0.8);
        Card idle = card("n1", "GPU-a").held("ml", "notebook", "acme", H3).held("ml", "newcomer", "acme", Duration.ofMinutes(30))
                .flat("GR_ENGINE_ACTIVE", 0.01, 118).flat("SM_ACTIVE", 0.02, 118).flat("GPU_UTIL", 0.9, 118).build();
        RuleResult r = run(rule, idle);
        fires(r, 1);
        Finding f = r.findings().get(0);
        assertEquals("notebook", f.label(Finding.POD));
        assertEquals("acme", f.label(Finding.TENANT));
        assertEquals("ml", f.label(Finding.NAMESPACE));

        double[] busy = new double[118];
        java.util.Arrays.fill(busy, 0.01);
        busy[100] = 0.3;
        quiet(run(rule, card("n1", "GPU-a").held("ml", "notebook", "acme", H3).series("SM_ACTIVE", busy).build()));
        quiet(run(rule, card("n1", "GPU-a").held("ml", "notebook", "acme", H3).flat("SM_ACTIVE", 0.01, 60).build()));
        fires(run(rule, card("n1", "GPU-a").held("ml", "notebook", "acme", H3).flat("GPU_UTIL", 0.02, 118).build()), 1);
    }

    /**
     * The idle rule reads a minute as the ledger's idle hours do: SM_ACTIVE where measured, else GR_ENGINE_ACTIVE,
     * else GPU_UTIL, minute by minute (threshold 5 %, 2 h = 120 minutes, 80 % of them measured).
     */
    @Test
    void theIdleRuleReadsEachMinuteBySmThenGrEngineThenGpuUtil() {
        Rule rule = new GpuAllocationIdleRule(0.05, Duration.ofHours(2), 0.8);
        // The engine busy 30 % of the time while 3 % of the SMs work: SM decides, so the card is idle (the larger of
        // the two, as the rule read it before, said busy). 118 of 120 minutes measured; the peak is SM's 3 %.
        RuleResult engineBusySmIdle = run(rule, card("n1", "GPU-a").held("ml", "notebook", "acme", H3)
                .flat("GR_ENGINE_ACTIVE", 0.30, 118).flat("SM_ACTIVE", 0.03, 118).build());
        fires(engineBusySmIdle, 1);
        assertTrue(engineBusySmIdle.findings().get(0).description().contains("peaked at 3.0%"),
                engineBusySmIdle.findings().get(0).description());

        // SM measured in the last 20 minutes only (1 %), GPU_UTIL in all 118 (2 %): the 98 minutes without SM are
        // read on GPU_UTIL, so 118 minutes are measured and all idle (before, the card's SM series alone counted:
        // 20 of 120 minutes, too few to judge). The peak is GPU_UTIL's 2 %.
        RuleResult countersCameLate = run(rule, card("n1", "GPU-b").held("ml", "notebook", "acme", H3)
                .flat("SM_ACTIVE", 0.01, 20).flat("GPU_UTIL", 0.02, 118).build());
        fires(countersCameLate, 1);
        assertTrue(countersCameLate.findings().get(0).description().contains("peaked at 2.0%"),
                countersCameLate.findings().get(0).description());
        // the same, but GPU_UTIL at 60 % where SM is missing: those minutes are busy
        quiet(run(rule, card("n1", "GPU-b").held("ml", "notebook", "acme", H3)
                .flat("SM_ACTIVE", 0.01, 20).flat("GPU_UTIL", 0.6, 118).build()));
        // a measured SM of 0 is idle, whatever GPU_UTIL says about a resident kernel
        fires(run(rule, card("n1", "GPU-c").held("ml", "notebook", "acme", H3)
                .flat("SM_ACTIVE", 0.0, 118).flat("GPU_UTIL", 1.0, 118).build()), 1);
    }

    // --- GpuDramBandwidthSaturated ----------------------------------------------------------

    @Test
    void bandwidthFiresAfterFiveSaturatedMinutesOnInferenceCards() {
        Rule rule = new GpuDramBandwidthRule(0.85, Duration.ofMinutes(5), Duration.ofMinutes(3), Pattern.compile("serve-.*"));
        Card hot = card("n1", "GPU-a").held("serve-chat", "vllm-0", "acme", H3)
                .series("DRAM_ACTIVE", 0.5, 0.9, 0.91, 0.92, 0.9, 0.88).build();
        RuleResult r = run(rule, hot);
        fires(r, 1);
        assertEquals("serve-chat", r.findings().get(0).label(Finding.NAMESPACE));
        quiet(run(rule, card("n1", "GPU-a").held("serve-chat", "vllm-0", "acme", H3)
                .series("DRAM_ACTIVE", 0.9, 0.9, 0.9, 0.9, 0.5).build()));
        quiet(run(rule, card("n1", "GPU-a").held("train", "job-0", "acme", H3)
                .series("DRAM_ACTIVE", 0.9, 0.9, 0.9, 0.9, 0.9).build()));
        quiet(run(rule, card("n1", "GPU-a").held("serve-chat", "vllm-0", "acme", H3)
                .seriesEndingAgo("DRAM_ACTIVE", 10, 0.9, 0.9, 0.9, 0.9, 0.9).build()));
    }

    @Test
    void aFailedUsageSourceHoldsEveryCardRule() {
        Snapshot s = Snapshots.with(Source.failed("HTTP 503"), Source.available(List.of()), Source.available(List.of()),
                Source.available(List.of()));
        for (Rule rule : List.of(new GpuMissingRule(Duration.ofMinutes(5), Duration.ofMinutes(3)),
                new GpuAllocationIdleRule(0.05, Duration.ofHours(2), 0.8))) {
            assertEquals(RuleStatus.HELD, rule.evaluate(s).status());
        }
    }
}
