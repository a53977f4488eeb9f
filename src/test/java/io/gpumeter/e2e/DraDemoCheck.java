package io.gpumeter.e2e;

import io.gpumeter.launcher.simulator.DraPool;
import io.gpumeter.launcher.simulator.GpuPool;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.SimPod;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What the demo's DRA node pool must show, worked out by hand from {@link DraPool}'s plan (counted back from the end
 * of the history, E): the training Job's pod holds gpu-0 whole from E − 6 h, the notebook the 3g.40gb MIG device of
 * gpu-2 from E − 5 h (3 of the A100's 7 compute slices: 3/7), and two replicas share one claim on gpu-1 from E − 4 h
 * and E − 3 h (½ each while both hold it, the first alone before). All of them still run at E.
 * <p>
 * Allocated GPU-hours of the node over [E − 6 h, E): 6 (gpu-0) + 5 × 3/7 (gpu-2) + 4 (gpu-1, held by someone from
 * E − 4 h: 1 h by the first replica alone, then 3 h half each) = 10 + 15/7 = 12.142857… h; the Job's 6 h; the first
 * replica's 1 + 3 × ½ = 2.5 h and the second's 1.5 h.
 */
final class DraDemoCheck {

    static final BigDecimal WHOLE = BigDecimal.ONE;
    static final BigDecimal THREE_SEVENTHS = BigDecimal.valueOf(3).divide(BigDecimal.valueOf(7), MathContext.DECIMAL64);
    static final BigDecimal HALF = new BigDecimal("0.5");
    static final double NODE_HOURS = 10 + 15.0 / 7;
    static final double JOB_HOURS = 6;

    /** The four pods of the pool in DraPool's order: train, notebook, first replica, second replica. */
    record Pods(SimPod train, SimPod notebook, SimPod first, SimPod second) {
        List<SimPod> all() {
            return List.of(train, notebook, first, second);
        }
    }

    private DraDemoCheck() {
    }

    static Pods pods(Plan plan) {
        List<SimPod> dra = plan.pods().stream().filter(p -> p.pool() == GpuPool.DRA).toList();
        if (dra.size() != 4) {
            throw new AssertionError("the demo's DRA pool has four pods, found " + dra.size());
        }
        return new Pods(dra.get(0), dra.get(1), dra.get(2), dra.get(3));
    }

    /** Each pod's card and fraction at an instant when all four hold (any time in the last three hours before E). */
    static Map<String, Holding> expectedWhenAllHold(Pods p) {
        return Map.of(
                p.train().name(), new Holding(p.train().grants().get(0).gpuUuid(), WHOLE, "WHOLE", null),
                p.notebook().name(), new Holding(p.notebook().grants().get(0).gpuUuid(), THREE_SEVENTHS, "MIG", "3g.40gb"),
                p.first().name(), new Holding(p.first().grants().get(0).gpuUuid(), HALF, "WHOLE", null),
                p.second().name(), new Holding(p.second().grants().get(0).gpuUuid(), HALF, "WHOLE", null));
    }

    /** One pod's expected holding: the card, the fraction of it, the unit's kind and MIG profile. */
    record Holding(String gpuUuid, BigDecimal fraction, String kind, String migProfile) {
    }

    /** An instant inside the last three hours of the history, when all four pods hold. */
    static Instant allHold(Plan plan) {
        return plan.end().minus(DraPool.SECOND_REPLICA_BEFORE_END).plusSeconds(3600);
    }

    /** An instant when the first replica holds the shared card alone. */
    static Instant firstAlone(Plan plan) {
        return plan.end().minus(DraPool.FIRST_REPLICA_BEFORE_END).plusSeconds(1800);
    }

    static boolean close(BigDecimal expected, Object actual) {
        return actual != null && expected.subtract(new BigDecimal(String.valueOf(actual))).abs()
                .compareTo(new BigDecimal("0.000001")) <= 0;
    }
}
