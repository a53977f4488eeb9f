package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;

/** The ledger's thresholds of the idle causes ({@code causeThresholds}) in a sentence, or "" when it gave none. */
final class IdleThresholdsNote {

    private static final BigDecimal MIB = BigDecimal.valueOf(1_048_576);

    private IdleThresholdsNote() {
    }

    static String of(JsonNode t) {
        if (t == null || !t.isObject()) {
            return "";
        }
        return "A held card's idle minute is CPU saturated when a container of its pod used "
                + Format.percent(Format.decimal(t, "cpuLimitShare")) + " of its CPU limit or was throttled in "
                + Format.percent(Format.decimal(t, "cfsThrottledShare")) + " of its CFS periods; else I/O wait when its node "
                + "stalled on I/O " + Format.percent(Format.decimal(t, "ioPressureShare")) + " of the time or the pod's disk moved "
                + mib(t, "diskBytesPerSecond") + " MiB/s; else network when the pod's traffic was "
                + Format.percent(Format.decimal(t, "networkShare")) + " of its node's and at least "
                + mib(t, "networkMinBytesPerSecond") + " MiB/s (a pod on the host's network only when the node dropped "
                + Format.decimal(t, "hostNetworkDropsPerSecond").stripTrailingZeros().toPlainString()
                + " packets/s); else unexplained, as is a minute without host data.";
    }

    private static String mib(JsonNode t, String field) {
        return Format.decimal(t, field).divide(MIB, 2, java.math.RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }
}
