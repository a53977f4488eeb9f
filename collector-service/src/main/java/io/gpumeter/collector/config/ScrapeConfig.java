package io.gpumeter.collector.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * The series the collector scrapes or pulls itself: dcgm-exporters, a Prometheus that already scrapes them, and vLLM
 * servers' latency histograms. Each group is a child of gpumeter.collector.
 */
public interface ScrapeConfig {

    interface Dcgm {
        /** Exporters to scrape: node name to metrics URL. */
        Map<String, String> targets();

        /** Find dcgm-exporter pods through the Kubernetes API and scrape each on its node. */
        @WithDefault("false")
        boolean discover();

        /** Label selector of dcgm-exporter pods. */
        @WithDefault("app=nvidia-dcgm-exporter")
        String discoverySelector();

        /**
         * The only namespace whose pods are taken for exporters (the GPU Operator's): a tenant's pod carrying the
         * exporter's labels elsewhere must not stand in for its node's exporter.
         */
        @WithDefault("gpu-operator")
        String discoveryNamespace();

        /** Port of a discovered exporter's metrics. */
        @WithDefault("9400")
        int port();

        /** How long one scrape may take. */
        @WithDefault("10s")
        Duration timeout();

        /** Largest metrics page read from one exporter; a larger one is refused (log, gpumeter.collector.scrape.refused). */
        @WithDefault("16M")
        MemorySize maxBody();

        /** How often every exporter is scraped. */
        @WithDefault("30s")
        Duration scrapeInterval();

        /** Exporters scraped at once: a round of thousands of nodes must fit in one interval. */
        @WithDefault("8")
        int parallelScrapes();

        /** Collectors sharing the exporters; each scrapes the nodes that rendezvous-hash to its index. */
        @WithDefault("1")
        int shards();

        /** This collector's index among them, 0 to shards − 1 (a StatefulSet pod's apps.kubernetes.io/pod-index). */
        @WithDefault("0")
        int shardIndex();
    }

    interface Prometheus {
        /** Base URL of the Prometheus HTTP API, e.g. http://prometheus:9090; pulling is off when unset. */
        Optional<String> url();

        /** The series to pull. */
        @WithDefault("{__name__=~\"DCGM_FI_.*\"}")
        String query();

        /** Resolution of the pulled range. */
        @WithDefault("15s")
        Duration step();

        /** How far back each pull reaches; overlapping pulls are counted once by the ledger. */
        @WithDefault("5m")
        Duration lookback();

        /** How long one query may take. */
        @WithDefault("30s")
        Duration timeout();

        /** Largest query answer read; a larger one is refused (log, gpumeter.collector.scrape.refused). */
        @WithDefault("64M")
        MemorySize maxBody();

        /** How often Prometheus is queried. */
        @WithDefault("60s")
        Duration interval();
    }

    interface Vllm {
        /** Servers to scrape: "namespace/pod" to metrics URL (quote a key holding a dot). */
        Map<String, String> targets();

        /** The service a configured pod's requests belong to, "namespace/pod" to name; else the model name. */
        Map<String, String> services();

        /** Find vLLM pods through the Kubernetes API and scrape each. */
        @WithDefault("false")
        boolean discover();

        /** Label selector of vLLM pods. */
        @WithDefault("gpumeter.io/latency=vllm")
        String discoverySelector();

        /** The pod label naming a discovered pod's service; the model name when the pod lacks it. */
        @WithDefault("app.kubernetes.io/name")
        String serviceLabel();

        /** Port of a discovered server's metrics. */
        @WithDefault("8000")
        int port();

        /** Path of a discovered server's metrics. */
        @WithDefault("/metrics")
        String path();

        /** How long one scrape may take. */
        @WithDefault("10s")
        Duration timeout();

        /** Largest metrics page read from one server; a larger one is refused (log, gpumeter.collector.scrape.refused). */
        @WithDefault("16M")
        MemorySize maxBody();

        /** How often every server is scraped, e.g. 30s; "off" stops the timed scrape. */
        @WithDefault("30s")
        String scrapeInterval();

        /** Most request records one scrape of one server may yield; a larger interval is dropped as implausible. */
        @WithDefault("100000")
        int maxRecords();
    }
}
