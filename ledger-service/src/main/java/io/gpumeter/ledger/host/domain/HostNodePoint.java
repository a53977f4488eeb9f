package io.gpumeter.ledger.host.domain;

import java.time.Instant;

/**
 * One span of a GPU node as the ledger keeps it: a minute, or an hour past the minute retention. Amounts are the
 * increase over {@code coveredSeconds} of the span, summed over the node's CPUs or own network devices; a rate is
 * amount / coveredSeconds, a CPU share amount / (coveredSeconds × cpus). Null: not reported.
 */
public record HostNodePoint(String cluster, String node, Instant at, int spanSeconds, int minutes,
                            double coveredSeconds, int samples, Integer cpus, Double cpuIdleSeconds,
                            Double cpuIowaitSeconds, Double cpuUserSeconds, Double cpuSystemSeconds,
                            Double cpuOtherSeconds, Double cpuPressureWaitingSeconds, Double ioPressureStalledSeconds,
                            Double memoryPressureStalledSeconds, Double netReceiveBytes, Double netTransmitBytes,
                            Double netReceiveDrops, Double netTransmitDrops) {
}
