package io.gpumeter.ledger.host.domain;

import java.time.Instant;

/**
 * One span of a GPU pod's cgroup as the ledger keeps it: a minute, or an hour past the minute retention. Amounts are
 * the increase over {@code coveredSeconds} of the span; a rate is amount / coveredSeconds. Null: not reported.
 *
 * @param container   the container, "" for the pod itself (its cgroup's CPU, its sandbox's network)
 * @param spanSeconds 60 for a minute, 3600 for an hour
 * @param minutes     the minute rows the span holds (1 for a minute)
 */
public record HostContainerPoint(String cluster, String namespace, String pod, String container, String node,
                                 Instant at, int spanSeconds, int minutes, double coveredSeconds, int samples,
                                 Double cpuSeconds, Double cfsPeriods, Double cfsThrottledPeriods, Double cpuLimitCores,
                                 Double fsReadBytes, Double fsWriteBytes, Double netReceiveBytes,
                                 Double netTransmitBytes) {
}
