package io.gpumeter.billing.client;

import io.gpumeter.common.testing.Contract;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Billing's own types read the ledger's answers as the ledger's tests recorded them: a field the ledger renames or
 * drops fails here, and in every stand-in answer that still says it (docs/adr/0024).
 */
class LedgerContractTest {

    @Test
    void gpuHoursByTenantAndModelWithTheirEnergy() {
        List<GpuHours> rows = Contract.of("ledger", "gpu-hours").freeKeysAt("group").readListOf(GpuHours.class);
        // the ledger's energy test: tenant ta's HAMi unit held 0.3 of an H100 for 10 minutes (0.05 h) and drew 0.02 kWh
        GpuHours ta = rows.stream().filter(r -> "ta".equals(r.dimension("tenant"))).findFirst().orElseThrow();
        assertEquals("ta/NVIDIA-H100-80GB-HBM3", ta.key());
        assertEquals("NVIDIA-H100-80GB-HBM3", ta.dimension("model"));
        assertEquals(0, new BigDecimal("0.05").compareTo(ta.allocatedGpuHours()), ta.toString());
        assertEquals(0, new BigDecimal("0.02").compareTo(ta.energyKWh()), ta.toString());
        assertEquals(0, BigDecimal.ZERO.compareTo(ta.usedGpuHours()), "nothing measured its activity");
        assertNull(ta.idleEnergyKWh(), "a tenant's row carries no idle energy");
    }

    @Test
    void cardHoursPerModel() {
        List<CardHours> rows = Contract.of("ledger", "capacity").freeKeysAt("group").readListOf(CardHours.class);
        // the ledger's capacity test: two labelled A100s over one day
        assertEquals(1, rows.size());
        assertEquals("NVIDIA-A100-SXM4-80GB", rows.get(0).dimension("model"));
        assertEquals(0, new BigDecimal("48").compareTo(rows.get(0).cardHours()));
    }

    @Test
    void theNormalizationPolicyInWordsAndItsVersion() {
        NormalizationPolicy policy = Contract.of("ledger", "normalization").readAs(NormalizationPolicy.class);
        assertEquals("v1", policy.version());
        assertTrue(policy.policy().contains("vgpu=min(1,max(cores/100,memMiB/cardMiB))"), policy.policy());
    }
}
