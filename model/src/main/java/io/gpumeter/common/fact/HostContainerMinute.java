package io.gpumeter.common.fact;

import java.time.Instant;

/**
 * One minute of one cgroup of a GPU pod, from kubelet's cAdvisor series: a container, or the pod itself (container
 * "") — the pod's own cgroup for CPU and disk, its sandbox for the network, which cAdvisor reports per pod and never
 * per container. Counters are the increase over the part of the minute their samples span ({@code coveredMs}), resets
 * handled as Prometheus does; a rate is an amount divided by the covered seconds. A quantity the source did not
 * report is null. Natural key: cluster, namespace, pod, container, minute.
 *
 * @param minute               the minute, whole (no seconds)
 * @param coveredMs            milliseconds of the minute between two samples of the counters, 0..60000
 * @param samples              scrapes read inside the minute
 * @param cpuSeconds           {@code container_cpu_usage_seconds_total}: CPU seconds used
 * @param cfsPeriods           {@code container_cpu_cfs_periods_total}: CFS enforcement periods elapsed
 * @param cfsThrottledPeriods  {@code container_cpu_cfs_throttled_periods_total}: periods in which it was throttled
 * @param cpuLimitCores        {@code container_spec_cpu_quota / container_spec_cpu_period}, the minute's last; null
 *                             when no quota is set
 * @param fsReadBytes          {@code container_fs_reads_bytes_total}, all devices
 * @param fsWriteBytes         {@code container_fs_writes_bytes_total}, all devices
 * @param netReceiveBytes      {@code container_network_receive_bytes_total}, all interfaces (the pod only)
 * @param netTransmitBytes     {@code container_network_transmit_bytes_total}, all interfaces (the pod only)
 */
public record HostContainerMinute(String node, String namespace, String pod, String container, Instant minute,
                                  int coveredMs, int samples, Double cpuSeconds, Double cfsPeriods,
                                  Double cfsThrottledPeriods, Double cpuLimitCores, Double fsReadBytes,
                                  Double fsWriteBytes, Double netReceiveBytes, Double netTransmitBytes) {
}
