package io.gpumeter.alert.client;

import io.gpumeter.alert.review.IncidentRef;
import io.gpumeter.common.testing.Contract;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * alert-service's own types read the ledger's, slo-service's and billing's answers as those services' resource tests
 * recorded them (docs/adr/0024): a field renamed or dropped on any of them fails here. The figures are those the
 * serving services' tests set up.
 */
class ContractsTest {

    private static final String DAY = "2026-06-07T";

    @Test
    void theLedgersOccupantsUsageAndNodes() {
        OccupantView train = Contract.of("ledger", "occupants").readListOf(OccupantView.class).get(0);
        assertEquals("bulk-n1/GPU-bulk-1/a/train/acme", String.join("/", train.node(), train.gpuUuid(),
                train.namespace(), train.pod(), train.tenant()));
        assertEquals(Instant.parse(DAY + "10:00:00Z"), train.since());

        List<LedgerRestClient.CardUsageView> usage = Contract.of("ledger", "usage-series")
                .readListOf(LedgerRestClient.CardUsageView.class);
        assertEquals("GPU-bulk-1", usage.get(1).gpuUuid());
        assertEquals(50.0, usage.get(1).points().get(0).mean());

        List<LedgerRestClient.NodeHours> nodes = Contract.of("ledger", "gpu-hours").freeKeysAt("group")
                .readListOf(LedgerRestClient.NodeHours.class);
        assertTrue(nodes.stream().anyMatch(n -> "ta".equals(n.group().get("tenant"))), nodes.toString());
    }

    @Test
    void theLedgersViolationsAndIncidents() {
        LedgerRestClient.ViolationView hard = Contract.of("ledger", "violations")
                .readListOf(LedgerRestClient.ViolationView.class).stream()
                .filter(v -> "GPU-V".equals(v.gpuUuid()) && "HARD".equals(v.kind())).findFirst().orElseThrow();
        assertEquals("CORES", hard.resource());
        assertEquals(Instant.parse("2026-08-03T10:05:00Z"), hard.start());
        assertEquals(1.5, hard.peakRatio());

        LedgerRestClient.IncidentView puller = Contract.of("ledger", "incidents")
                .readListOf(LedgerRestClient.IncidentView.class).stream()
                .filter(i -> "puller".equals(i.pod())).findFirst().orElseThrow();
        assertEquals("image-pull", puller.cause());
        assertTrue(puller.open());
        assertEquals(Instant.parse("2026-05-01T10:00:05.123456Z"), puller.startedAt());

        IncidentRef recovered = Contract.of("ledger", "incident").readAs(IncidentRef.class);
        assertEquals("puller", recovered.pod());
        assertEquals(Instant.parse("2026-05-01T10:05:00Z"), recovered.recoveredAt());
        assertFalse(recovered.open());
        assertTrue(Contract.of("ledger", "incidents").readListOf(IncidentRef.class).size() >= 2);
    }

    @Test
    void sloServicesStates() {
        List<SloRestClient.StateView> states = Contract.of("slo", "slo-states").readListOf(SloRestClient.StateView.class);
        // slo-service's tenant test: acme's SLOs, one of them its service "ask"
        SloRestClient.StateView ask = states.stream().filter(s -> s.slo().name().equals("acme-ask-requests")).findFirst()
                .orElseThrow();
        assertEquals("acme", ask.slo().selector().tenant());
        assertEquals("ask", ask.slo().selector().service());
        assertEquals("TTFT", ask.slo().sli());
    }

    @Test
    void billingsForecastsAndAnomalies() {
        List<BillingRestClient.ForecastView> forecasts = Contract.of("billing", "budget-forecasts")
                .readListOf(BillingRestClient.ForecastView.class);
        // 1-11 March 2026: acme spent 205.00, forecast 635.50 for the month
        assertEquals("acme", forecasts.get(0).tenant());
        assertEquals("2026-03", forecasts.get(0).month());
        assertEquals(0, new BigDecimal("205.00").compareTo(forecasts.get(0).spentToDate()));
        assertEquals(0, new BigDecimal("635.50").compareTo(forecasts.get(0).forecast()));

        BillingRestClient.AnomaliesView day = Contract.of("billing", "cost-anomalies")
                .readAs(BillingRestClient.AnomaliesView.class);
        assertEquals("2026-11-15", day.day());
        assertEquals(List.of("acme", "delta"), day.tenants().stream().filter(BillingRestClient.JudgementView::anomalous)
                .map(BillingRestClient.JudgementView::tenant).toList());
    }
}
