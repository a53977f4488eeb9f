package io.gpumeter.collector.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the collector reads from the Kubernetes API: the watch itself, which workloads are the GPU stack, what a
 * node's status keeps, and Kueue's pending positions. Each group is a child of gpumeter.collector.
 */
public interface KubernetesConfig {

    interface Watch {
        /** Watch Namespaces, Nodes and Pods through the configured Kubernetes API server. */
        @WithDefault("true")
        boolean enabled();

        /** Only these namespaces' pods; all namespaces when empty. */
        Optional<List<String>> namespaces();

        /** How long to wait before trying again to start a watch that failed. */
        @WithDefault("30s")
        Duration retryInterval();

        /** Informer resync period; a resync re-sends every object, which the ledger stores once. */
        @WithDefault("10m")
        Duration resync();
    }

    interface Stack {
        /**
         * Component name (lower-case letters, digits and dashes) to the workload it is, {@code
         * <namespace>/<DaemonSet|Deployment>/<name>}, several comma-separated, or "off". The defaults, in
         * application.properties, are the upstream charts' names and namespaces. Only these namespaces' DaemonSets and
         * Deployments are read, and the collector needs get/list/watch on them there (k8s/collector-gpu-stack).
         */
        Map<String, String> components();
    }

    interface NodeStatus {
        /**
         * GPU resources beyond NVIDIA's domain whose capacity and allocatable a node's status keeps: a name such as
         * amd.com/gpu, or a domain ending in a slash for all of its names.
         */
        Optional<List<String>> resources();

        /**
         * Labels of NVIDIA's domain a node's status leaves out because they change without anything changing
         * (default nvidia.com/gfd.timestamp, which feature discovery rewrites on every refresh); empty keeps all.
         */
        Optional<List<String>> ignoredLabels();
    }

    interface Kueue {
        /** How often the pending Workloads of every ClusterQueue the watch has seen are read, e.g. 60s; "off" stops it. */
        @WithDefault("60s")
        String pendingInterval();

        /** Largest pending-workloads summary read for one ClusterQueue; a larger one is refused and counted. */
        @WithDefault("16M")
        MemorySize maxBody();
    }
}
