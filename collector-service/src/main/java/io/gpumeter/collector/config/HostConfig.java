package io.gpumeter.collector.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * Host series of GPU pods and GPU nodes (gpumeter.collector.host): kubelet's cAdvisor and node-exporter, pushed,
 * scraped or pulled, and how their minutes reach the ledger.
 */
public interface HostConfig {

    /** Two samples of a counter further apart are not joined into an increase (Prometheus's look-back). */
    @WithDefault("5m")
    Duration maxGap();

    /** How long a deleted GPU pod, or a node that stopped offering GPUs, still has its host series kept. */
    @WithDefault("10m")
    Duration grace();

    /**
     * node-exporter's network devices that are not the node's own (a regular expression matching the whole name):
     * loopback, the pods' veths, bridges and tunnels, whose traffic is the pods' and would count twice.
     */
    @WithDefault("lo|veth.*|cali.*|cilium.*|lxc.*|flannel.*|cni.*|cbr.*|docker.*|br-.*|virbr.*|vxlan.*|tunl.*|"
            + "kube-ipvs.*|nodelocaldns|genev_sys.*|gre.*|erspan.*|ip6.*|ip_vti.*|sit.*|ifb.*")
    String excludedDevices();

    /**
     * How often closed host minutes go to the ledger, e.g. 2s; "off" (or 0) delivers each push's minutes before
     * answering.
     */
    @WithDefault("2s")
    String flushInterval();

    /** Most host minutes held for the ledger; a push that finds it full is a 503, nothing of it kept. */
    @WithDefault("500000")
    int bufferCapacity();

    /** Most minutes in one delivery to the ledger. */
    @WithDefault("20000")
    int batchSize();

    /** kubelets scraped for /metrics/cadvisor (the collector's token needs nodes/metrics, never nodes/proxy). */
    Kubelet kubelet();

    /** node-exporters scraped for /metrics. */
    NodeExporter nodeExporter();

    /** Host series pulled from the Prometheus of gpumeter.collector.prometheus.url. */
    Prometheus prometheus();

    interface Kubelet {
        /** kubelets to scrape: node name to URL, e.g. https://10.0.0.5:10250/metrics/cadvisor. */
        Map<String, String> targets();

        /** Scrape the kubelet of every GPU node the watch knows, at its InternalIP and kubelet port. */
        @WithDefault("false")
        boolean discover();

        /** The bearer token presented to kubelets (the service account's, re-read each round: it rotates). */
        @WithDefault("/var/run/secrets/kubernetes.io/serviceaccount/token")
        String tokenFile();

        /** PEM file of the CA that signs the kubelets' serving certificates; the JDK's trust store when unset. */
        Optional<String> caFile();

        /**
         * Accept any kubelet certificate, as Prometheus's insecure_skip_verify does for kubelets with self-signed
         * serving certificates; the token is still sent, so use only where the node network is trusted.
         */
        @WithDefault("false")
        boolean insecureSkipVerify();

        /** How long one scrape may take. */
        @WithDefault("10s")
        Duration timeout();

        /** Largest page read from one kubelet; a larger one is refused (log, gpumeter.collector.scrape.refused). */
        @WithDefault("64M")
        MemorySize maxBody();

        /** How often every kubelet is scraped, e.g. 30s; "off" stops the timed scrape. */
        @WithDefault("off")
        String scrapeInterval();
    }

    interface NodeExporter {
        /** node-exporters to scrape: node name to URL, e.g. http://10.0.0.5:9100/metrics. */
        Map<String, String> targets();

        /** Find node-exporter pods by label in their namespace and scrape those on GPU nodes. */
        @WithDefault("false")
        boolean discover();

        /** Label selector of node-exporter pods. */
        @WithDefault("app.kubernetes.io/name=prometheus-node-exporter")
        String discoverySelector();

        /** The only namespace whose pods are taken for node-exporters. */
        @WithDefault("monitoring")
        String discoveryNamespace();

        /** Port of a discovered node-exporter's metrics. */
        @WithDefault("9100")
        int port();

        /** How long one scrape may take. */
        @WithDefault("10s")
        Duration timeout();

        /** Largest page read from one node-exporter. */
        @WithDefault("16M")
        MemorySize maxBody();

        /** How often every node-exporter is scraped, e.g. 30s; "off" stops the timed scrape. */
        @WithDefault("off")
        String scrapeInterval();
    }

    interface Prometheus {
        /** How often host series are pulled, e.g. 60s; "off" (the default) pulls none. */
        @WithDefault("off")
        String interval();

        /** Resolution of the pulled range. */
        @WithDefault("15s")
        Duration step();

        /** How far back each pull reaches; minutes pulled twice are stored once. */
        @WithDefault("5m")
        Duration lookback();

        /** The label naming the node of a cAdvisor series; without it the watched pod's node is taken. */
        @WithDefault("node")
        String cadvisorNodeLabel();

        /**
         * The label naming the node of a node-exporter series (kube-prometheus-stack relabels instance to the node's
         * name); a trailing :port is dropped.
         */
        @WithDefault("instance")
        String nodeExporterNodeLabel();
    }
}
