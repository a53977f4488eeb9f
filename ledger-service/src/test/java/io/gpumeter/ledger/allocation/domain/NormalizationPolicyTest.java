package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.ledger.inventory.domain.MigProfile;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NormalizationPolicyTest {

    static NormalizationPolicy policy(VgpuRule rule) {
        return new NormalizationPolicy("v1", rule, new BigDecimal("0.5"), 7, Map.of("NVIDIA-A30", 4), null);
    }

    @ParameterizedTest(name = "{0}: cores={1} mem={2} card={3} -> {4}")
    @CsvSource({
            "max,      30, 8192,  81920, 0.300000000000",
            "max,      10, 40960, 81920, 0.500000000000",
            "max,       0, 20480, 81920, 0.250000000000",   // cores 0: no core reservation, memory decides
            "max,     100, 1024,  81920, 1.000000000000",
            "max,      50, 163840, 81920, 1",               // never above one card
            "cores,    25, 40960, 81920, 0.250000000000",
            "cores,     0, 40960, 81920, 0.500000000000",
            "memory,   90, 20480, 81920, 0.250000000000",
            "weighted, 40, 40960, 81920, 0.450000000000",
    })
    void vgpuShares(String rule, int cores, long memory, long card, String expected) {
        assertEquals(new BigDecimal(expected), policy(VgpuRule.parse(rule)).vgpu(cores, memory, card));
    }

    @ParameterizedTest(name = "unknown card memory: cores={0} -> {1}")
    @CsvSource({"30, 0.300000000000", "0, 1"})
    void withoutCardMemoryCoresDecideElseAWholeCard(int cores, String expected) {
        assertEquals(new BigDecimal(expected), policy(VgpuRule.MAX).vgpu(cores, 8192, null));
    }

    @ParameterizedTest(name = "{0} on {1} -> {2}")
    @CsvSource({
            "1g.10gb,   NVIDIA-A100-SXM4-80GB, 0.142857142857",
            "3g.40gb,   NVIDIA H100 80GB HBM3, 0.428571428571",
            "7g.80gb,   NVIDIA-H100-80GB-HBM3, 1.000000000000",
            "1c.3g.20gb, NVIDIA-A100-SXM4-40GB, 0.142857142857",
            "2g.12gb,   NVIDIA A30,             0.500000000000",
    })
    void migSlices(String profile, String model, String expected) {
        assertEquals(new BigDecimal(expected), policy(VgpuRule.MAX).mig(MigProfile.parse(profile), model));
    }

    @ParameterizedTest(name = "{0} replicas -> {1}")
    @CsvSource({"1, 1.000000000000", "4, 0.250000000000", "3, 0.333333333333", "0, 1.000000000000"})
    void timeSlices(int replicas, String expected) {
        assertEquals(new BigDecimal(expected), policy(VgpuRule.MAX).timeSliced(replicas));
    }
}
