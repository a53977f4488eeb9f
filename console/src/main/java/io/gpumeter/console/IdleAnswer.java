package io.gpumeter.console;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

/**
 * The ledger's idle split ({@code GET /api/v1/idle}) as the Idle page binds it: each group's card-seconds by part, its
 * allocated-but-not-busy hours by the host's cause where the ledger gave them, the share of that time with host
 * data, and the thresholds the causes were judged by.
 *
 * @param causeThresholds null from a ledger that gives no causes
 */
@RegisterForReflection
record IdleAnswer(List<Row> rows, Thresholds causeThresholds) {

    /** One group; {@code group} names it by tenant, node, or cluster, namespace and pod (with the pod's tenant). */
    @RegisterForReflection
    record Row(String key, Map<String, String> group, Seconds seconds, Causes allocatedNotBusyBy, BigDecimal hostCoverage) {
    }

    /** A group's card-seconds, split; the parts add up to {@code total}. */
    @RegisterForReflection
    record Seconds(BigDecimal busy, BigDecimal allocatedNotBusy, BigDecimal allocatedUnmeasured, BigDecimal queuedWhileEmpty,
                   BigDecimal empty, BigDecimal total) {
    }

    /** Allocated-but-not-busy hours by the host's cause, in the order the ledger decides them (ADR 22). */
    @RegisterForReflection
    record Causes(@JsonProperty("CPU_SATURATED") BigDecimal cpuSaturated, @JsonProperty("IO_WAIT") BigDecimal ioWait,
                  @JsonProperty("NETWORK") BigDecimal network, @JsonProperty("UNEXPLAINED") BigDecimal unexplained) {

        List<BigDecimal> inOrder() {
            return java.util.Arrays.asList(cpuSaturated, ioWait, network, unexplained);
        }
    }

    /** What made a held card's idle minute CPU saturated, I/O wait or network. */
    @RegisterForReflection
    record Thresholds(BigDecimal cpuLimitShare, BigDecimal cfsThrottledShare, BigDecimal ioPressureShare,
                      BigDecimal diskBytesPerSecond, BigDecimal networkShare, BigDecimal networkMinBytesPerSecond,
                      BigDecimal hostNetworkDropsPerSecond) {
    }
}
