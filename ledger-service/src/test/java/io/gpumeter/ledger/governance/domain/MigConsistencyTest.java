package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.RootCauseClass;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node's MIG views against the layout it names, and the mig-inconsistent incidents they make over time (grace 10
 * min, instances stale 5 min after their last report). T is 2026-06-01T10:00Z.
 */
class MigConsistencyTest {

    static final Instant T = Instant.parse("2026-06-01T10:00:00Z");
    static final MigConsistency MIG = new MigConsistency(MigLayouts.defaults(), Duration.ofMinutes(10), Duration.ofMinutes(5));

    static Instant at(int minutes) {
        return T.plus(Duration.ofMinutes(minutes));
    }

    static Map<String, String> labels(String config, String state, String strategy, String product, String count) {
        Map<String, String> out = new HashMap<>();
        put(out, "nvidia.com/mig.config", config);
        put(out, "nvidia.com/mig.config.state", state);
        put(out, "nvidia.com/mig.strategy", strategy);
        put(out, "nvidia.com/gpu.product", product);
        put(out, "nvidia.com/gpu.count", count);
        return out;
    }

    private static void put(Map<String, String> m, String k, String v) {
        if (v != null) {
            m.put(k, v);
        }
    }

    /** A status version of a mixed-strategy node of {@code cards} A100-80GB cards with these MIG resources. */
    static MigNodeVersion mixed(int minute, String config, String state, int cards, Map<String, Long> mig) {
        Map<String, Long> allocatable = new HashMap<>(mig);
        allocatable.put("nvidia.com/gpu", 0L);
        return new MigNodeVersion(at(minute), minute, false,
                labels(config, state, "mixed", "NVIDIA-A100-SXM4-80GB", String.valueOf(cards)), allocatable);
    }

    static MigInstanceRun run(String card, String id, String profile, int from, int to) {
        return new MigInstanceRun(card, id, profile, at(from), at(to));
    }

    @Test
    void mixedStrategyTotalsAreOneVariantTimesTheCards() {
        MigConsistency.View eighty = MIG.at(List.of(mixed(0, "all-1g.10gb", "success", 2,
                Map.of("nvidia.com/mig-1g.10gb", 14L))), List.of(), at(1));
        assertEquals(MigConsistency.Verdict.AGREE, eighty.verdict());
        assertEquals(Map.of("1g.10gb", 14), eighty.allocatable());
        // the 40 GB variant of the same layout: four per card
        assertEquals(MigConsistency.Verdict.AGREE, MIG.at(List.of(mixed(0, "all-1g.10gb", "success", 2,
                Map.of("nvidia.com/mig-1g.10gb", 8L))), List.of(), at(1)).verdict());
        MigConsistency.View off = MIG.at(List.of(mixed(0, "all-1g.10gb", "success", 2,
                Map.of("nvidia.com/mig-1g.10gb", 10L))), List.of(), at(1));
        assertEquals(MigConsistency.Verdict.DISAGREE, off.verdict());
        assertTrue(off.reason().startsWith("the allocatable MIG devices disagree"), off.reason());
        // media extensions: the device plugin's .me is the profile's +me
        assertEquals(MigConsistency.Verdict.AGREE, MIG.at(List.of(mixed(0, "all-1g.10gb.me", "success", 2,
                Map.of("nvidia.com/mig-1g.10gb.me", 2L))), List.of(), at(1)).verdict());
        assertEquals(MigConsistency.Verdict.AGREE, MIG.at(List.of(mixed(0, "all-disabled", "success", 2, Map.of())),
                List.of(), at(1)).verdict());
    }

    @Test
    void singleStrategyCountsMigDevicesOfTheProductsProfile() {
        MigNodeVersion single = new MigNodeVersion(at(0), 1, false, labels("all-1g.10gb", "success", "single",
                "NVIDIA-A100-SXM4-80GB-MIG-1g.10gb", "56"), Map.of("nvidia.com/gpu", 56L));
        assertEquals(MigConsistency.Verdict.AGREE, MIG.at(List.of(single), List.of(), at(1)).verdict());
        MigNodeVersion wrong = new MigNodeVersion(at(0), 1, false, labels("all-1g.10gb", "success", "single",
                "NVIDIA-A100-SXM4-80GB-MIG-3g.40gb", "16"), Map.of("nvidia.com/gpu", 16L));
        MigConsistency.View v = MIG.at(List.of(wrong), List.of(), at(1));
        assertEquals(MigConsistency.Verdict.DISAGREE, v.verdict());
        assertEquals(Map.of("3g.40gb", 16), v.allocatable());
        // MIG off under the single strategy: whole cards, no MIG device, as all-disabled says
        MigNodeVersion whole = new MigNodeVersion(at(0), 1, false, labels("all-disabled", "success", "single",
                "NVIDIA-A100-SXM4-80GB", "8"), Map.of("nvidia.com/gpu", 8L));
        assertEquals(MigConsistency.Verdict.AGREE, MIG.at(List.of(whole), List.of(), at(1)).verdict());
    }

    @Test
    void anUnknownLayoutIsReportedNeverGuessed() {
        MigConsistency.View v = MIG.at(List.of(mixed(0, "all-3g.41gb", "success", 2, Map.of("nvidia.com/mig-3g.40gb", 4L))),
                List.of(), at(1));
        assertEquals(MigConsistency.Verdict.UNJUDGED, v.verdict());
        assertFalse(v.known());
        assertEquals("all-3g.41gb", v.layout());
        assertTrue(v.reason().contains("unknown to the ledger"), v.reason());
        assertTrue(MIG.derive("n", List.of(mixed(0, "all-3g.41gb", null, 2, Map.of())), List.of(), at(60))
                .incidents().isEmpty());
    }

    @Test
    void whatCannotBeComparedIsNotJudged() {
        // no card count to multiply the layout by, no instance reported
        MigNodeVersion noCount = new MigNodeVersion(at(0), 1, false, labels("all-1g.10gb", null, "mixed", null, null),
                Map.of());
        MigConsistency.View v = MIG.at(List.of(noCount), List.of(), at(1));
        assertEquals(MigConsistency.Verdict.UNJUDGED, v.verdict());
        assertTrue(v.reason().contains("no card count"), v.reason());
        // a label version alone: no status to read allocatable from
        MigNodeVersion labelsOnly = new MigNodeVersion(at(0), 1, false, labels("all-1g.10gb", null, null, null, "2"), null);
        assertNull(MIG.at(List.of(labelsOnly), List.of(), at(1)).allocatable());
    }

    @Test
    void instancesPerCardAgreeWithOneVariantEach() {
        MigNodeVersion labelsOnly = new MigNodeVersion(at(0), 1, false, labels("all-balanced", "success", null, null, null), null);
        List<MigInstanceRun> balanced = List.of(run("GPU-a", "1", "1g.10gb", 0, 30), run("GPU-a", "2", "1g.10gb", 0, 30),
                run("GPU-a", "3", "2g.20gb", 0, 30), run("GPU-a", "4", "3g.40gb", 0, 30));
        MigConsistency.View v = MIG.at(List.of(labelsOnly), balanced, at(10));
        assertEquals(MigConsistency.Verdict.AGREE, v.verdict());
        assertEquals(Map.of("GPU-a", Map.of("1g.10gb", 2, "2g.20gb", 1, "3g.40gb", 1)), v.instances());
        List<MigInstanceRun> wrong = List.of(run("GPU-a", "1", "3g.40gb", 0, 30), run("GPU-a", "2", "3g.40gb", 0, 30));
        assertEquals(MigConsistency.Verdict.DISAGREE, MIG.at(List.of(labelsOnly), wrong, at(10)).verdict());
        // five minutes after their last report the instances no longer count: nothing to compare
        assertEquals(MigConsistency.Verdict.UNJUDGED, MIG.at(List.of(labelsOnly), wrong, at(35)).verdict());
        assertEquals(MigConsistency.Verdict.DISAGREE, MIG.at(List.of(labelsOnly), wrong, at(34)).verdict());
    }

    @Test
    void pastTheGraceADisagreementIsAnIncidentUntilTheViewsAgree() {
        // all-disabled -> all-1g.10gb at 10:00 (no MIG manager state); the device plugin follows at 10:25
        List<MigNodeVersion> versions = List.of(mixed(0, "all-disabled", null, 2, Map.of()),
                mixed(1, "all-1g.10gb", null, 2, Map.of()),
                mixed(25, "all-1g.10gb", null, 2, Map.of("nvidia.com/mig-1g.10gb", 14L)));
        MigConsistency.Result r = MIG.derive("gpu-m", versions, List.of(), at(60));
        assertEquals(1, r.incidents().size());
        Incident i = r.incidents().get(0);
        assertEquals("mig-inconsistent", i.cause());
        assertEquals("mig", i.scope());
        assertEquals(RootCauseClass.DATA_PLANE, i.rootCause());
        assertEquals(at(1), i.startedAt());
        assertEquals(at(25), i.recoveredAt());
        assertEquals("nvidia.com/mig.config 'all-1g.10gb' expects per card 7x1g.10gb or 4x1g.10gb against seen:"
                + " allocatable no MIG device (mixed strategy)", i.evidence());
        assertNull(r.recheckAt());

        // followed within the grace: no incident
        List<MigNodeVersion> quick = List.of(mixed(0, "all-disabled", null, 2, Map.of()), mixed(1, "all-1g.10gb", null, 2, Map.of()),
                mixed(9, "all-1g.10gb", null, 2, Map.of("nvidia.com/mig-1g.10gb", 14L)));
        assertTrue(MIG.derive("gpu-m", quick, List.of(), at(60)).incidents().isEmpty());
    }

    @Test
    void beforeTheGraceRunsOutTheNodeIsDueThenAndOpenAfter() {
        List<MigNodeVersion> versions = List.of(mixed(0, "all-1g.10gb", null, 2, Map.of("nvidia.com/mig-3g.40gb", 4L)));
        MigConsistency.Result early = MIG.derive("gpu-m", versions, List.of(), at(6));
        assertTrue(early.incidents().isEmpty());
        assertEquals(at(10), early.recheckAt());
        MigConsistency.Result late = MIG.derive("gpu-m", versions, List.of(), at(10));
        assertEquals(1, late.incidents().size());
        assertTrue(late.incidents().get(0).open());
        assertEquals(at(0), late.incidents().get(0).startedAt());
        assertNull(late.recheckAt(), "open, and nothing but new facts can close it");
    }

    @Test
    void pendingIsTheReconfigurationsOwnIncidentAndTheGraceStartsAfterIt() {
        List<MigNodeVersion> versions = List.of(mixed(0, "all-disabled", "success", 2, Map.of()),
                mixed(1, "all-1g.10gb", "pending", 2, Map.of()),
                mixed(30, "all-1g.10gb", "success", 2, Map.of()),
                mixed(45, "all-1g.10gb", "success", 2, Map.of("nvidia.com/mig-1g.10gb", 14L)));
        List<Incident> found = MIG.derive("gpu-m", versions, List.of(), at(60)).incidents();
        assertEquals(1, found.size());
        assertEquals(at(30), found.get(0).startedAt(), "not while the MIG manager was at work");
        assertEquals(at(45), found.get(0).recoveredAt());
    }

    @Test
    void instancesThatStopBeingReportedCloseItWhenTheRestAgree() {
        MigNodeVersion labelsOnly = new MigNodeVersion(at(0), 1, false, labels("all-1g.10gb", null, null, null, null), null);
        // three 3g.40gb instances reported until 10:20, then the right seven 1g.10gb from 10:18
        List<MigInstanceRun> runs = new java.util.ArrayList<>(List.of(run("GPU-a", "1", "3g.40gb", 0, 20),
                run("GPU-a", "2", "3g.40gb", 0, 20)));
        for (int n = 0; n < 7; n++) {
            runs.add(run("GPU-a", "1" + n, "1g.10gb", 18, 60));
        }
        MigConsistency.Result r = MIG.derive("gpu-m", List.of(labelsOnly), runs, at(60));
        assertEquals(1, r.incidents().size());
        assertEquals(at(0), r.incidents().get(0).startedAt());
        assertEquals(at(25), r.incidents().get(0).recoveredAt(), "the old instances count until five minutes after 10:20");
        // derived at 10:22, the open incident is due when the old instances stop counting
        MigConsistency.Result meanwhile = MIG.derive("gpu-m", List.of(labelsOnly), runs.stream()
                .filter(x -> !x.firstSeen().isAfter(at(22))).map(x -> x.lastSeen().isAfter(at(22))
                        ? new MigInstanceRun(x.gpuUuid(), x.instance(), x.profile(), x.firstSeen(), at(22)) : x).toList(), at(22));
        assertTrue(meanwhile.incidents().get(0).open());
        assertEquals(at(25), meanwhile.recheckAt());
    }

    @Test
    void aDeletedNodeEndsIt() {
        List<MigNodeVersion> versions = List.of(mixed(0, "all-1g.10gb", null, 2, Map.of()),
                new MigNodeVersion(at(40), 40, true, Map.of(), Map.of()));
        List<Incident> found = MIG.derive("gpu-m", versions, List.of(), at(60)).incidents();
        assertEquals(1, found.size());
        assertEquals(at(40), found.get(0).endedAt());
        assertNull(found.get(0).recoveredAt());
    }
}
