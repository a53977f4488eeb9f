package io.gpumeter.ledger.idle.domain;

import io.gpumeter.ledger.config.UsageConfig;

/**
 * The thresholds the host's causes of idle time are decided by ({@code gpumeter.ledger.idle.*}, ADR 22), reported with
 * every split so a reader can decide a minute again by hand.
 *
 * @param cpuLimitShare             CPU used over the limit at which a cgroup is saturated
 * @param cfsThrottledShare         throttled CFS periods over all at which a cgroup is saturated
 * @param ioPressureShare           the node's I/O "full" stall seconds per second at which it is I/O-bound
 * @param diskBytesPerSecond        the pod's disk bytes per second at which it is I/O-bound
 * @param networkShare              the pod's network bytes over its node's at which it is network-bound
 * @param networkMinBytesPerSecond  the least the pod's network must move for its share to count
 * @param hostNetworkTolerance      how close to its node's a pod's network is to be read as the host's network
 * @param hostNetworkDropsPerSecond the node's dropped packets per second that make a host-network pod network-bound
 */
public record IdleCauseThresholds(double cpuLimitShare, double cfsThrottledShare, double ioPressureShare,
                                  double diskBytesPerSecond, double networkShare, double networkMinBytesPerSecond,
                                  double hostNetworkTolerance, double hostNetworkDropsPerSecond) {

    public static IdleCauseThresholds of(UsageConfig.Idle idle) {
        return new IdleCauseThresholds(idle.cpuLimitShare(), idle.cfsThrottledShare(), idle.ioPressureShare(),
                idle.diskBytesPerSecond(), idle.networkShare(), idle.networkMinBytesPerSecond(),
                idle.hostNetworkTolerance(), idle.hostNetworkDropsPerSecond());
    }
}
