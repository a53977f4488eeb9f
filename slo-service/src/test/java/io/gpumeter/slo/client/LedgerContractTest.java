package io.gpumeter.slo.client;

import io.gpumeter.common.testing.Contract;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * slo-service's own types read the ledger's answers as the ledger's resource tests recorded them (docs/adr/0024): a
 * field the ledger renames or drops fails here. The figures are those the ledger's tests set up.
 */
class LedgerContractTest {

    private static final String DAY = "2026-06-07T";

    @Test
    void eachPodsHoldingsClippedToTheWindow() {
        List<PodHoldings> pods = Contract.of("ledger", "holdings").readListOf(PodHoldings.class);
        PodHoldings train = pods.get(0);
        assertEquals("a/train", train.namespace() + "/" + train.pod());
        PodHoldings.Holding unit = train.units().get(0);
        assertEquals(Instant.parse(DAY + "10:30:00Z"), unit.from());
        assertEquals(Instant.parse(DAY + "11:30:00Z"), unit.to());
        assertEquals("GPU-bulk-1", unit.occupant().gpuUuid());
        assertEquals("bulk-n1", unit.occupant().node());
        assertEquals("acme", unit.occupant().tenant());
        assertTrue(pods.get(3).units().isEmpty(), "a pod that held nothing answers no units");
    }

    @Test
    void eachCardsHoldingsClippedToTheWindow() {
        List<CardHoldings> cards = Contract.of("ledger", "card-holdings").readListOf(CardHoldings.class);
        assertEquals(List.of("GPU-bulk-2", "GPU-bulk-1", "GPU-bulk-none"), cards.stream().map(CardHoldings::gpuUuid).toList());
        assertEquals(List.of("train", "infer"), cards.get(1).units().stream().map(u -> u.occupant().pod()).toList());
        assertEquals(Instant.parse(DAY + "11:00:00Z"), cards.get(1).units().get(1).from());
    }

    @Test
    void eachCardsUsageMinutes() {
        List<CardUsage> cards = Contract.of("ledger", "usage-series").readListOf(CardUsage.class);
        UsagePoint first = cards.get(1).points().get(0);
        assertEquals("GPU_UTIL", first.field());
        assertEquals(Instant.parse(DAY + "10:00:00Z"), first.minute());
        assertEquals(50.0, first.mean());
        assertEquals(60.0, first.max());
        assertTrue(cards.get(2).points().isEmpty());
    }

    @Test
    void eachPodsQueues() {
        List<PodQueue> pods = Contract.of("ledger", "pod-queues").readListOf(PodQueue.class);
        assertEquals("research-q", pods.get(0).queue().volcanoQueue());
        assertEquals("cq-serve", pods.get(1).queue().clusterQueue());
        assertEquals(Instant.parse("2024-05-02T23:58:30Z"), pods.get(1).createdAt());
        assertFalse(pods.get(2).known());
        assertNull(pods.get(2).queue());
    }

    @Test
    void theChangesOfEachScopeAndAChangesImpact() {
        List<ScopeChanges> scopes = Contract.of("ledger", "changes-bulk").readListOf(ScopeChanges.class);
        assertEquals(List.of(12L, 2L, 0L), scopes.stream().map(ScopeChanges::total).toList());
        assertEquals("NODE_LABEL", scopes.get(0).changes().get(0).kind());
        assertEquals(Instant.parse("2025-03-03T03:59:00Z"), scopes.get(0).changes().get(0).at());

        ChangeImpact impact = Contract.of("ledger", "change-impact").readAs(ChangeImpact.class);
        assertEquals("DRIVER_VERSION", impact.change().kind());
        assertEquals(List.of("gpu-x"), impact.nodes());
        assertEquals(Instant.parse("2024-06-01T05:00:00Z"), impact.before().to());
        assertEquals(0, new BigDecimal("2.5").compareTo(impact.after().gpuHours()));
    }

    @Test
    void theHostsMinutes() {
        HostSeries host = Contract.of("ledger", "host-series").readAs(HostSeries.class);
        assertEquals("", host.containers().get(0).container(), "the pod's own cgroup");
        assertEquals(1000.0, host.containers().get(0).netReceiveBytes());
    }

    @Test
    void supplyAndDemandPerModel() {
        Supply supply = Contract.of("ledger", "supply").readAs(Supply.class);
        assertEquals("sup", supply.cluster());
        assertEquals("NVIDIA A100 SXM4 80GB", supply.models().get(0).model());
        assertTrue(supply.models().get(0).spellings().contains("NVIDIA-A100-SXM4-80GB"));
        assertEquals(5, supply.models().get(0).end().cards());

        Demand demand = Contract.of("ledger", "demand").readAs(Demand.class);
        assertEquals("dmd", demand.cluster());
        assertEquals("NVIDIA A100 SXM4 80GB", demand.shapes().get(0).model());
        assertEquals(0, new BigDecimal("7200").compareTo(demand.peaks().get(0).queueWaitP95Seconds().peak()));
    }
}
