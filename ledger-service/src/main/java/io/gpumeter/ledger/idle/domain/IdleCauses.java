package io.gpumeter.ledger.idle.domain;

import io.gpumeter.common.triage.FailureCause;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the host says of allocated-not-busy time, in card-seconds (ADR 22): the parts found CPU-saturated, I/O-bound and
 * network-bound, each second counted once in that order, and the part the pod's cgroups and its node both reported.
 * The rest of the allocated-not-busy time is unexplained.
 */
public record IdleCauses(BigDecimal cpuSaturated, BigDecimal ioWait, BigDecimal network, BigDecimal hostCovered) {

    /** The causes in the order they are decided, the last one what is left. */
    public static final List<FailureCause> ORDER = List.of(FailureCause.CPU_SATURATED, FailureCause.IO_WAIT,
            FailureCause.NETWORK, FailureCause.UNEXPLAINED);

    public static final IdleCauses NONE = new IdleCauses(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO);

    private static final BigDecimal HOUR = BigDecimal.valueOf(3600);
    private static final int HOUR_SCALE = 6;

    public IdleCauses plus(IdleCauses o) {
        return new IdleCauses(cpuSaturated.add(o.cpuSaturated), ioWait.add(o.ioWait), network.add(o.network),
                hostCovered.add(o.hostCovered));
    }

    /**
     * The allocated-not-busy hours by cause, keyed by the causes' names in {@link #ORDER}, adding up exactly to
     * {@link #hours(BigDecimal) hours(notBusySeconds)}: each is the difference of rounded running totals, so rounding
     * never makes a part negative or the parts miss their sum.
     */
    public Map<String, BigDecimal> hoursBy(BigDecimal notBusySeconds) {
        BigDecimal[] running = {cpuSaturated, cpuSaturated.add(ioWait), cpuSaturated.add(ioWait).add(network),
                notBusySeconds};
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        BigDecimal before = BigDecimal.ZERO;
        for (int i = 0; i < ORDER.size(); i++) {
            BigDecimal upTo = hours(running[i].min(notBusySeconds));
            out.put(ORDER.get(i).name(), upTo.subtract(before).stripTrailingZeros());
            before = upTo;
        }
        return out;
    }

    /** The share of allocated-not-busy time with host data, to four decimals; null when there was none. */
    public BigDecimal coverage(BigDecimal notBusySeconds) {
        if (notBusySeconds.signum() == 0) {
            return null;
        }
        return hostCovered.min(notBusySeconds).divide(notBusySeconds, 4, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }

    /** Seconds as hours to the microhour, as every part is printed. */
    public static BigDecimal hours(BigDecimal seconds) {
        return seconds.divide(HOUR, HOUR_SCALE, RoundingMode.HALF_EVEN);
    }
}
