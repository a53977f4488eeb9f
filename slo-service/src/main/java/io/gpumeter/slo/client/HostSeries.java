package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.time.Instant;
import java.util.List;

/**
 * The ledger's answer to a bulk host read ({@code POST /api/v1/host/series}): spans of the GPU pods' cgroups and of
 * the GPU nodes, each a minute (or an hour past the minute retention) starting {@code at}. Amounts are increases over
 * {@code coveredSeconds} of the span, so a rate is amount / coveredSeconds; null: not reported.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record HostSeries(List<ContainerPoint> containers, List<NodePoint> nodes) {

    /** Nothing read. */
    public static final HostSeries EMPTY = new HostSeries(List.of(), List.of());

    /** A container of a GPU pod; container "" is the pod itself (its cgroup's CPU, its sandbox's network). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ContainerPoint(String cluster, String namespace, String pod, String container, String node,
                                 Instant at, int spanSeconds, double coveredSeconds, Double cpuSeconds,
                                 Double cfsPeriods, Double cfsThrottledPeriods, Double cpuLimitCores,
                                 Double fsReadBytes, Double fsWriteBytes, Double netReceiveBytes,
                                 Double netTransmitBytes) {

        public String podKey() {
            return namespace + "/" + pod;
        }
    }

    /** A GPU node; CPU seconds are summed over its {@code cpus}, pressure stalls are the node's. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record NodePoint(String cluster, String node, Instant at, int spanSeconds, double coveredSeconds,
                            Integer cpus, Double cpuIdleSeconds, Double cpuIowaitSeconds,
                            Double cpuPressureWaitingSeconds, Double ioPressureStalledSeconds,
                            Double netReceiveBytes, Double netTransmitBytes) {
    }

    public HostSeries {
        containers = containers == null ? List.of() : List.copyOf(containers);
        nodes = nodes == null ? List.of() : List.copyOf(nodes);
    }
}
