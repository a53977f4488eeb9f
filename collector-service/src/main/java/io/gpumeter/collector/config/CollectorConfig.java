package io.gpumeter.collector.config;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/** What the collector watches and how it delivers facts to the ledger. */
@ConfigMapping(prefix = "gpumeter.collector")
public interface CollectorConfig {

    /** The name of the cluster every fact from this collector belongs to. */
    @WithDefault("default")
    String cluster();

    /** The live watch of the Kubernetes API. */
    Watch watch();

    /** Delivery of watched facts to the ledger. */
    Delivery delivery();

    /** Limits of the replay endpoint. */
    Replay replay();

    /** Delivery of usage samples to the ledger. */
    Usage usage();

    /** dcgm-exporter endpoints this collector scrapes itself. */
    Dcgm dcgm();

    /** A Prometheus server that already scrapes the exporters, queried for the DCGM series. */
    Prometheus prometheus();

    /** vLLM servers whose latency histograms this collector scrapes and forwards to slo-service. */
    Vllm vllm();

    /** Kueue's visibility API, read for the positions of pending Workloads. */
    Kueue kueue();

    /** The GPU stack's own workloads: which DaemonSets and Deployments are its components. */
    Stack stack();

    /** What a node's status fact keeps beside NVIDIA's domain. */
    NodeStatus nodeStatus();

    /** Host series of GPU pods and GPU nodes: kubelet's cAdvisor and node-exporter, pushed, scraped or pulled. */
    Host host();

    interface Host {
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
        HostPrometheus prometheus();
    }

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

    interface HostPrometheus {
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

    interface Delivery {
        /** Facts per batch sent to the ledger. */
        @WithDefault("2000")
        int batchSize();

        /** Facts held while the ledger is unreachable; the watch waits when the buffer is full. */
        @WithDefault("200000")
        int bufferCapacity();

        /** How often watched facts are sent to the ledger: the retries once a flush found the ledger away. */
        @WithDefault("2s")
        Duration flushInterval();

        /** How long a watched fact waits for others to share its batch before a flush starts; 0 leaves it to the interval. */
        @WithDefault("100ms")
        Duration linger();
    }

    interface Usage {
        /**
         * How often buffered usage goes to the ledger as per-minute partials, e.g. 2s; "off" (or 0) delivers each
         * push at once and answers with the ledger's receipt.
         */
        @WithDefault("2s")
        String flushInterval();

        /** Most usage values held for the ledger; a push that does not fit is a 503, nothing of it kept. */
        @WithDefault("2000000")
        int bufferCapacity();

        /** Most values in one batch to the ledger; holding this many open also starts a flush at once. */
        @WithDefault("100000")
        int batchSize();
    }

    interface Replay {
        /** Most NDJSON lines one replay request may carry. */
        @WithDefault("200000")
        int maxLines();

        /**
         * Threads that parse a replay request's lines at once; by default one per core. The facts are gathered in
         * line order whatever the number.
         */
        OptionalInt parsers();
    }
}
