package io.gpumeter.ledger.idle.domain;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.allocation.domain.NormalizationPolicy;
import io.gpumeter.ledger.allocation.domain.VgpuRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The pieces of the idle split: interval algebra, the "would fit" rule and the split's shares. */
class IdleDomainTest {

    static final Instant T0 = Instant.parse("2026-08-03T10:00:00Z");
    static final NormalizationPolicy POLICY = new NormalizationPolicy("v1", VgpuRule.MAX, new BigDecimal("0.5"), 7, Map.of(), null);

    static TimeWindow w(int fromMinute, int toMinute) {
        return new TimeWindow(T0.plusSeconds(60L * fromMinute), T0.plusSeconds(60L * toMinute));
    }

    @Test
    void unionMergesOverlappingAndTouchingWindows() {
        IntervalSet set = IntervalSet.of(List.of(w(10, 20), w(0, 5), w(5, 8), w(15, 30), w(40, 40)));
        assertEquals(List.of(w(0, 8), w(10, 30)), set.windows());
        assertEquals(Duration.ofMinutes(28), set.duration());
    }

    @Test
    void intersectionKeepsWhatBothCover() {
        IntervalSet empty = IntervalSet.of(List.of(w(0, 10), w(20, 30), w(50, 60)));
        IntervalSet waiting = IntervalSet.of(List.of(w(5, 25), w(28, 55)));
        // [5,10) + [20,25) + [28,30) + [50,55) = 5 + 5 + 2 + 5 minutes
        assertEquals(List.of(w(5, 10), w(20, 25), w(28, 30), w(50, 55)), empty.intersect(waiting).windows());
        assertEquals(Duration.ofMinutes(17), empty.intersect(waiting).duration());
        assertEquals(List.of(), empty.intersect(IntervalSet.EMPTY).windows());
    }

    /**
     * An 80 GiB card (81920 MiB). Resources are name=count pairs separated by ';'. A HAMi request without gpumem
     * gets the whole card's memory, so cores 50 alone is a whole card under the max rule.
     */
    @ParameterizedTest(name = "{0} on free share {1} -> {2}")
    @CsvSource({
            "nvidia.com/gpu=1,                                   1,   true",
            "nvidia.com/gpu=2,                                   1,   false",
            "nvidia.com/gpu=1;nvidia.com/gpumem=40000,           1,   true",
            "nvidia.com/gpu=1;nvidia.com/gpumem=90000,           1,   false",
            "nvidia.com/gpu=2;nvidia.com/gpumem=1000,            1,   false",
            "nvidia.com/gpu=1;nvidia.com/gpucores=50;nvidia.com/gpumem=20480, 0.5, true",
            "nvidia.com/gpu=1;nvidia.com/gpucores=50;nvidia.com/gpumem=20480, 0.4, false",
            "nvidia.com/gpu=1;nvidia.com/gpucores=50,            0.5, false",
            "nvidia.com/gpu=1;nvidia.com/gpumem-percentage=50,   0.5, true",
            "nvidia.com/gpu=1;nvidia.com/gpumem-percentage=50,   0.4, false",
            "nvidia.com/mig-1g.10gb=2,                           1,   true",
            "nvidia.com/mig-3g.40gb=3,                           1,   false",
            "example.com/fpga=1,                                 1,   false",
    })
    void wouldAPendingPodFitTheCard(String resources, String freeShare, boolean fits) {
        Map<String, Long> r = new HashMap<>();
        for (String pair : resources.split(";")) {
            r.put(pair.split("=")[0], Long.parseLong(pair.split("=")[1]));
        }
        assertEquals(fits, GpuRequest.of(r).fits(new BigDecimal(freeShare), 81920L, 81920L, "NVIDIA-H100-80GB-HBM3", POLICY));
    }

    @Test
    void theSplitAddsUpAndPrintsSharesOfItsTotal() {
        IdleSplit a = IdleSplit.of(new BigDecimal("600"), new BigDecimal("300"), BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);
        IdleSplit b = IdleSplit.of(BigDecimal.ZERO, BigDecimal.ZERO, new BigDecimal("1200.0004"), new BigDecimal("1500"),
                new BigDecimal("0"));
        IdleSplit sum = a.plus(b);
        assertEquals(0, new BigDecimal("3600.0004").compareTo(sum.total()));
        assertEquals(0, new BigDecimal("1200").compareTo(sum.rounded().allocatedNotBusy()));
        IdleSplit shares = sum.shares();
        assertEquals(new BigDecimal("0.1667"), shares.empty());
        assertEquals(new BigDecimal("0.0833"), shares.queuedWhileEmpty());
        assertEquals(new BigDecimal("0.3333"), shares.allocatedNotBusy());
        assertEquals(new BigDecimal("0.4167"), shares.busy());
        assertEquals(IdleSplit.ZERO, IdleSplit.ZERO.shares());
    }
}
