package io.gpumeter.collector.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * What the collector watches and how it delivers facts to the ledger; the groups' settings are kept by concern in
 * {@link KubernetesConfig}, {@link ScrapeConfig}, {@link HostConfig} and {@link DeliveryConfig}.
 */
@ConfigMapping(prefix = "gpumeter.collector")
public interface CollectorConfig {

    /** The name of the cluster every fact from this collector belongs to. */
    @WithDefault("default")
    String cluster();

    /** The live watch of the Kubernetes API. */
    KubernetesConfig.Watch watch();

    /** Delivery of watched facts to the ledger. */
    DeliveryConfig.Delivery delivery();

    /** Limits of the replay endpoint. */
    DeliveryConfig.Replay replay();

    /** Delivery of usage samples to the ledger. */
    DeliveryConfig.Usage usage();

    /** dcgm-exporter endpoints this collector scrapes itself. */
    ScrapeConfig.Dcgm dcgm();

    /** A Prometheus server that already scrapes the exporters, queried for the DCGM series. */
    ScrapeConfig.Prometheus prometheus();

    /** vLLM servers whose latency histograms this collector scrapes and forwards to slo-service. */
    ScrapeConfig.Vllm vllm();

    /** Kueue's visibility API, read for the positions of pending Workloads. */
    KubernetesConfig.Kueue kueue();

    /** The GPU stack's own workloads: which DaemonSets and Deployments are its components. */
    KubernetesConfig.Stack stack();

    /** What a node's status fact keeps beside NVIDIA's domain. */
    KubernetesConfig.NodeStatus nodeStatus();

    /** Host series of GPU pods and GPU nodes: kubelet's cAdvisor and node-exporter, pushed, scraped or pulled. */
    HostConfig host();
}
