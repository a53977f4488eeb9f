package io.gpumeter.ledger.config;

import io.smallrye.config.WithDefault;

/**
 * How the ledger judges a card's use: the utilization triad's thresholds, and what makes an allocated minute busy or
 * not busy and why. Each group is a child of gpumeter.ledger.
 */
public interface UsageConfig {

    interface Diagnosis {
        /** GR_ENGINE_ACTIVE (else GPU_UTIL) at or above this ratio is high, below it low. */
        @WithDefault("0.5")
        double engineHigh();

        /** SM_ACTIVE at or above this ratio is high, below it low. */
        @WithDefault("0.5")
        double smHigh();

        /** DRAM_ACTIVE at or above this ratio is high. */
        @WithDefault("0.5")
        double dramHigh();

        /** DRAM_ACTIVE below this ratio is low; between this and dram-high it is mid. */
        @WithDefault("0.2")
        double dramLow();
    }

    interface Idle {
        /** Activity (SM_ACTIVE, else GR_ENGINE_ACTIVE, else GPU_UTIL) at or above this ratio makes an allocated minute busy. */
        @WithDefault("0.1")
        double busyThreshold();

        /** A cgroup using this share of its CPU limit or more is CPU-saturated (ADR 22). */
        @WithDefault("0.9")
        double cpuLimitShare();

        /** A cgroup throttled by CFS in this share of its periods or more is CPU-saturated (kubernetes-mixin's 25 %). */
        @WithDefault("0.25")
        double cfsThrottledShare();

        /** A node whose I/O pressure ("full" stall seconds per second) reaches this share is I/O-bound. */
        @WithDefault("0.1")
        double ioPressureShare();

        /** A pod reading and writing this many bytes per second or more on its disks is I/O-bound. */
        @WithDefault("104857600")
        double diskBytesPerSecond();

        /** A pod whose network bytes reach this share of its node's own devices' is network-bound. */
        @WithDefault("0.5")
        double networkShare();

        /** ... and move at least this many bytes per second: a quiet node's share says nothing. */
        @WithDefault("1048576")
        double networkMinBytesPerSecond();

        /** A pod whose network bytes are within this share of its node's is read as on the host's network. */
        @WithDefault("0.01")
        double hostNetworkTolerance();

        /** A host-network pod is network-bound only when its node drops this many packets per second or more. */
        @WithDefault("1")
        double hostNetworkDropsPerSecond();
    }
}
