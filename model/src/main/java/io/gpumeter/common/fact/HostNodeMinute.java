package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * One minute of one GPU node, from node-exporter's series. Counters are the increase over the part of the minute
 * their samples span ({@code coveredMs}), summed over the node's CPUs or network devices, resets handled as
 * Prometheus does; a rate is an amount divided by the covered seconds. A quantity the source did not report (no PSI
 * in the kernel, say) is null. Natural key: cluster, node, minute.
 *
 * @param minute                       the minute, whole (no seconds)
 * @param coveredMs                    milliseconds of the minute between two samples of the counters, 0..60000
 * @param samples                      scrapes read inside the minute
 * @param cpus                         CPUs {@code node_cpu_seconds_total} reported, the minute's last scrape
 * @param cpuIdleSeconds               {@code node_cpu_seconds_total{mode="idle"}}, all CPUs; likewise iowait, user,
 *                                     system
 * @param cpuOtherSeconds              the modes nice, irq, softirq and steal together
 * @param cpuPressureWaitingSeconds    {@code node_pressure_cpu_waiting_seconds_total}
 * @param ioPressureStalledSeconds     {@code node_pressure_io_stalled_seconds_total}
 * @param memoryPressureStalledSeconds {@code node_pressure_memory_stalled_seconds_total}
 * @param netReceiveBytes              {@code node_network_receive_bytes_total} of the node's own devices (virtual
 *                                     ones of pods and bridges left out); likewise transmit, and the drops
 */
public record HostNodeMinute(String node, Instant minute, int coveredMs, int samples, Integer cpus,
                             Double cpuIdleSeconds, Double cpuIowaitSeconds, Double cpuUserSeconds,
                             Double cpuSystemSeconds, Double cpuOtherSeconds, Double cpuPressureWaitingSeconds,
                             Double ioPressureStalledSeconds, Double memoryPressureStalledSeconds,
                             Double netReceiveBytes, Double netTransmitBytes, Double netReceiveDrops,
                             Double netTransmitDrops) {
}
