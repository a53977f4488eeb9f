package io.gpumeter.console;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** The ledger's thresholds of the idle causes ({@code causeThresholds}) in a sentence, or "" when it gave none. */
final class IdleThresholdsNote {

    private static final BigDecimal MIB = BigDecimal.valueOf(1_048_576);

    private IdleThresholdsNote() {
    }

    static String of(IdleAnswer.Thresholds t) {
        if (t == null) {
            return "";
        }
        return "A held card's idle minute is CPU saturated when a container of its pod used "
                + Format.percent(zero(t.cpuLimitShare())) + " of its CPU limit or was throttled in "
                + Format.percent(zero(t.cfsThrottledShare())) + " of its CFS periods; else I/O wait when its node "
                + "stalled on I/O " + Format.percent(zero(t.ioPressureShare())) + " of the time or the pod's disk moved "
                + mib(t.diskBytesPerSecond()) + " MiB/s; else network when the pod's traffic was "
                + Format.percent(zero(t.networkShare())) + " of its node's and at least "
                + mib(t.networkMinBytesPerSecond()) + " MiB/s (a pod on the host's network only when the node dropped "
                + zero(t.hostNetworkDropsPerSecond()).stripTrailingZeros().toPlainString()
                + " packets/s); else unexplained, as is a minute without host data.";
    }

    private static String mib(BigDecimal bytes) {
        return zero(bytes).divide(MIB, 2, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    private static BigDecimal zero(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value;
    }
}
