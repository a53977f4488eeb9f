package io.gpumeter.ledger.config;

import io.gpumeter.common.config.RetentionConfig;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** How the ledger attributes and normalizes allocations. */
@ConfigMapping(prefix = "gpumeter.ledger")
public interface LedgerConfig {

    /** Which labels name the tenant, team and project. */
    Attribution attribution();

    /** The conversion of whole cards, MIG slices, vGPU shares and time-slices to one card-equivalent scale. */
    Normalization normalization();

    /** Thresholds of the utilization triad's four signatures. */
    Diagnosis diagnosis();

    /** How allocated time is told busy or not busy. */
    Idle idle();

    /** The typical request shapes and MIG profiles free capacity is probed with. */
    Fragmentation fragmentation();

    /** The fleet gauges served on /q/metrics. */
    Gauges gauges();

    /** How failure reports from different sources are told to be the same failure. */
    Failures failures();

    /** The resources through which pods ask HAMi for shares of cards. */
    Hami hami();

    /** How long usage is kept per minute and per hour. */
    RetentionConfig retention();

    /** What the change book leaves out, the window a change's impact compares, and how far incidents look back. */
    Changes changes();

    /** When a node's MIG views disagreeing with its configured layout becomes an incident. */
    Mig mig();

    interface Attribution {
        /** Namespace label holding the tenant; the namespace name is the tenant when absent. */
        @WithDefault("gpumeter.io/tenant")
        String tenantLabel();

        /** Pod (else namespace) label holding the team. */
        @WithDefault("gpumeter.io/team")
        String teamLabel();

        /** Pod (else namespace) label holding the project. */
        @WithDefault("gpumeter.io/project")
        String projectLabel();
    }

    interface Normalization {
        /** Version printed on every report; change it whenever any rule below changes. */
        @WithDefault("v1")
        String version();

        /** vGPU rule: max (min(1, max(cores, memory share))), cores, memory or weighted. */
        @WithDefault("max")
        String vgpuRule();

        /** Weight of the core share under the weighted rule; the memory share gets the rest. */
        @WithDefault("0.5")
        BigDecimal vgpuCoreWeight();

        /** Compute slices of a MIG-capable card when its model is not in the table. */
        @WithDefault("7")
        int migDefaultSlices();

        /** Compute slices per card model, e.g. "NVIDIA A30"=4. */
        Map<String, Integer> migSlices();

        /** Card memory to assume when no inventory source names it yet. */
        Optional<Long> defaultCardMemoryMib();
    }

    interface Hami {
        /** The number of vGPUs a pod asks for. */
        @WithDefault("nvidia.com/gpu")
        String countResource();

        /** Memory per vGPU in MiB. */
        @WithDefault("nvidia.com/gpumem")
        String memoryResource();

        /** Memory per vGPU as a percentage of the card's. */
        @WithDefault("nvidia.com/gpumem-percentage")
        String memoryPercentageResource();

        /** Cores per vGPU as a percentage. */
        @WithDefault("nvidia.com/gpucores")
        String coresResource();

        /** The cores HAMi reserves for a vGPU whose pod names none (HAMi's defaultCores). */
        @WithDefault("0")
        int defaultCores();
    }

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

    interface Fragmentation {
        /** Typical vGPU request shapes as GiB:weight; the weights make the overall figure. */
        @WithDefault("10:1,20:1,30:1")
        List<String> shapeMix();

        /** MIG profiles requests ask for; free slices that fit none of them are stranded. */
        @WithDefault("2g.20gb,3g.40gb")
        List<String> migProfiles();

        /**
         * Node labels naming a node pool, first present wins; the card model is the pool otherwise. The change book
         * names each node change's pool by them too.
         */
        @WithDefault("gpumeter.io/pool,cloud.google.com/gke-nodepool,eks.amazonaws.com/nodegroup,kubernetes.azure.com/agentpool,karpenter.sh/nodepool")
        List<String> poolLabels();
    }

    interface Gauges {
        /** How often the fleet gauges are recomputed; "off" disables the job. */
        @WithDefault("60s")
        String every();

        /** How long after a minute ends its usage is taken as complete. */
        @WithDefault("PT30S")
        Duration usageDelay();
    }

    interface Failures {
        /**
         * A node's kernel OOM event and an OOMKilled container on that node are one OOM when they lie this close in
         * time.
         */
        @WithDefault("60s")
        Duration oomEventTolerance();

        /**
         * A change of a card's dcgm-exporter Xid gauge is the kernel-log Xid of the same code on that card when they
         * lie this close in time (the gauge is read once per scrape).
         */
        @WithDefault("120s")
        Duration dcgmXidTolerance();
    }

    interface Changes {
        /**
         * Node labels that move on every heartbeat and are no change a person would call one: label keys, or
         * prefixes ending in *.
         */
        @WithDefault("nvidia.com/gfd.timestamp")
        List<String> ignoredLabels();

        /**
         * Whether a replica derives, at start, the book of every cluster whose stored history was not yet derived
         * under these rules (node label and queue versions stored before the book existed, or another list of
         * ignored labels).
         */
        @WithDefault("true")
        boolean deriveHistoryAtStart();

        /** How long before (and after) a change its impact compares when the request names no window. */
        @WithDefault("P1D")
        Duration impactWindow();

        /** How far before an incident's start the changes it carries ({@code changesBefore}) reach. */
        @WithDefault("P1D")
        Duration lookBack();
    }

    interface Mig {
        /**
         * How long a node's allocatable MIG devices, or the MIG instances dcgm-exporter reports on it, may disagree with
         * the layout its {@code nvidia.com/mig.config} names before the disagreement is a {@code mig-inconsistent}
         * incident: the MIG manager, the device plugin and the exporter each take a while to follow a new layout.
         */
        @WithDefault("PT10M")
        Duration grace();

        /**
         * How long after dcgm-exporter last reported a MIG instance it still counts as there: the exporter is scraped
         * every few seconds and its series delivered per minute.
         */
        @WithDefault("PT5M")
        Duration instanceStaleness();

        /**
         * How often the nodes whose views disagree are derived again, so that a grace running out opens the incident
         * without new facts (a Quarkus duration such as 1m; off disables it).
         */
        @WithDefault("1m")
        String recheckEvery();

        /**
         * Files in mig-parted's format ({@code version: v1}, {@code mig-configs:}) naming the cluster's own layouts,
         * read besides the GPU Operator's defaults; a layout named in both is the file's.
         */
        Optional<List<String>> layoutFiles();
    }
}
