package io.gpumeter.collector.service;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeAddress;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.gpumeter.collector.config.CollectorConfig;
import io.gpumeter.collector.config.HostConfig;
import io.gpumeter.collector.config.ScrapeConfig;
import io.gpumeter.collector.host.CadvisorSeries;
import io.gpumeter.collector.host.GpuPlaces;
import io.gpumeter.collector.host.HostSource;
import io.gpumeter.collector.host.NodeExporterSeries;
import io.gpumeter.collector.http.BoundedBody;
import io.gpumeter.collector.usage.PrometheusMatrix;
import io.gpumeter.collector.usage.PrometheusTextParser;
import io.gpumeter.collector.usage.Sample;
import io.gpumeter.common.problem.ApiProblem;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.configuration.DurationConverter;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Host series the collector fetches itself: each GPU node's kubelet ({@code /metrics/cadvisor}, with the collector's
 * token, which the kubelet checks against {@code nodes/metrics}) and node-exporter, configured or discovered; or
 * range queries to a Prometheus that already scrapes them (nothing in the cluster needed). A failure is logged and
 * tried again next round; minutes read twice are stored once.
 */
@ApplicationScoped
public class HostPulls {

    private static final Logger LOG = Logger.getLogger(HostPulls.class);

    private final CollectorConfig config;
    private final HostIngestService host;
    private final GpuPlaces places;
    private final KubernetesClient kubernetes;
    private final BoundedBody bounded;
    private volatile HostHttp kubelets;
    private final HostHttp exporters;
    private final HostHttp prometheus;

    public HostPulls(CollectorConfig config, HostIngestService host, GpuPlaces places, KubernetesClient kubernetes,
                     MeterRegistry metrics) {
        this.config = config;
        this.host = host;
        this.places = places;
        this.kubernetes = kubernetes;
        this.bounded = new BoundedBody(metrics);
        this.exporters = new HostHttp(bounded, "node-exporter", Optional.empty(), false);
        this.prometheus = new HostHttp(bounded, "prometheus", Optional.empty(), false);
    }

    /** Scrapes every GPU node's kubelet once; returns how many answered and were read. */
    public int scrapeKubelets() {
        HostConfig.Kubelet k = config.host().kubelet();
        Optional<String> token = HostHttp.token(k.tokenFile());
        return scrape(kubeletTargets(), HostSource.CADVISOR, target -> kubeletHttp().get(target, token, k.timeout(),
                k.maxBody().asLongValue()));
    }

    /** Scrapes every GPU node's node-exporter once; returns how many answered and were read. */
    public int scrapeNodeExporters() {
        HostConfig.NodeExporter n = config.host().nodeExporter();
        return scrape(nodeExporterTargets(), HostSource.NODE_EXPORTER, target -> exporters.get(target, Optional.empty(),
                n.timeout(), n.maxBody().asLongValue()));
    }

    private interface Fetch {
        String get(URI target) throws IOException;
    }

    private int scrape(Map<String, String> targets, HostSource source, Fetch fetch) {
        int read = 0;
        String cluster = config.cluster();
        for (Map.Entry<String, String> target : targets.entrySet()) {
            try {
                List<Sample> samples = new PrometheusTextParser().parse(fetch.get(URI.create(target.getValue())));
                host.samples(source, samples, target.getKey(), cluster);
                read++;
            } catch (IOException | RuntimeException e) {
                LOG.warnf("host scrape of %s (%s) failed: %s", target.getKey(), target.getValue(), e.getMessage());
            }
        }
        return read;
    }

    /** Configured kubelets, plus, when discovering, each GPU node's at its InternalIP and kubelet port. */
    public Map<String, String> kubeletTargets() {
        HostConfig.Kubelet k = config.host().kubelet();
        Map<String, String> targets = new TreeMap<>(k.targets());
        if (k.discover()) {
            long now = System.currentTimeMillis();
            try {
                for (Node node : kubernetes.nodes().list().getItems()) {
                    String name = node.getMetadata() == null ? null : node.getMetadata().getName();
                    if (name == null || !places.gpuNode(config.cluster(), name, now) || node.getStatus() == null) {
                        continue;
                    }
                    String ip = internalIp(node);
                    if (ip != null) {
                        targets.putIfAbsent(name, "https://" + host(ip) + ":" + kubeletPort(node) + "/metrics/cadvisor");
                    }
                }
            } catch (RuntimeException e) {
                LOG.warnf("kubelet discovery failed: %s", e.getMessage());
            }
        }
        return targets;
    }

    /** Configured node-exporters, plus the exporter pods found by label in their namespace on GPU nodes. */
    public Map<String, String> nodeExporterTargets() {
        HostConfig.NodeExporter n = config.host().nodeExporter();
        Map<String, String> targets = new TreeMap<>(n.targets());
        if (n.discover()) {
            long now = System.currentTimeMillis();
            try {
                for (Pod pod : kubernetes.pods().inNamespace(n.discoveryNamespace())
                        .withLabelSelector(n.discoverySelector()).list().getItems()) {
                    String node = pod.getSpec() == null ? null : pod.getSpec().getNodeName();
                    String ip = pod.getStatus() == null ? null : pod.getStatus().getPodIP();
                    if (node != null && ip != null && places.gpuNode(config.cluster(), node, now)) {
                        targets.putIfAbsent(node, "http://" + host(ip) + ":" + n.port() + "/metrics");
                    }
                }
            } catch (RuntimeException e) {
                LOG.warnf("node-exporter discovery failed: %s", e.getMessage());
            }
        }
        return targets;
    }

    /**
     * Pulls the last lookback of host series from Prometheus, cAdvisor's of the GPU pods' namespaces and
     * node-exporter's; returns the samples read, -1 when there is no Prometheus or host pulls are off.
     */
    public int pullPrometheus(Instant now) {
        HostConfig.Prometheus p = config.host().prometheus();
        if (config.prometheus().url().isEmpty() || off(p.interval())) {
            return -1;
        }
        String cluster = config.cluster();
        int read = 0;
        try {
            List<Sample> cadvisor = query(names(CadvisorSeries.metricNames()) + ",namespace!=\"\"", now);
            Map<String, List<Sample>> byNode = new LinkedHashMap<>();
            for (Sample s : cadvisor) {
                String ns = s.label("namespace", "pod_namespace");
                String pod = s.label("pod", "pod_name");
                String node = s.label(p.cadvisorNodeLabel());
                if (node == null && ns != null && pod != null) {
                    node = places.nodeOf(cluster, ns, pod).orElse(null);
                }
                if (node != null) {
                    byNode.computeIfAbsent(node, x -> new ArrayList<>()).add(s);
                }
            }
            for (Map.Entry<String, List<Sample>> e : byNode.entrySet()) {
                read += host.samples(HostSource.CADVISOR, e.getValue(), e.getKey(), cluster).samples();
            }
            Map<String, Map<Long, List<Sample>>> scrapes = new LinkedHashMap<>();
            for (Sample s : query(names(NodeExporterSeries.metricNames()), now)) {
                String node = s.label(p.nodeExporterNodeLabel());
                if (node != null) {
                    // one scrape at a time, so that its CPUs are counted as a scrape reports them
                    scrapes.computeIfAbsent(node.replaceFirst(":[0-9]+$", ""), x -> new TreeMap<>())
                            .computeIfAbsent(s.timestampMs().orElse(0), t -> new ArrayList<>()).add(s);
                }
            }
            for (Map.Entry<String, Map<Long, List<Sample>>> e : scrapes.entrySet()) {
                for (List<Sample> scrape : e.getValue().values()) {
                    read += host.samples(HostSource.NODE_EXPORTER, scrape, e.getKey(), cluster).samples();
                }
            }
        } catch (IOException | IllegalArgumentException | ApiProblem e) {
            LOG.warnf("host pull from Prometheus %s failed: %s", config.prometheus().url().get(), e.getMessage());
        }
        return read;
    }

    private List<Sample> query(String selector, Instant now) throws IOException {
        HostConfig.Prometheus p = config.host().prometheus();
        ScrapeConfig.Prometheus server = config.prometheus();
        Instant start = now.minus(p.lookback());
        String form = "query=" + URLEncoder.encode("{" + selector + "}", StandardCharsets.UTF_8) + "&start="
                + start.getEpochSecond() + "&end=" + now.getEpochSecond() + "&step=" + p.step().toSeconds() + "s";
        URI uri = URI.create(server.url().get().replaceAll("/+$", "") + "/api/v1/query_range");
        return PrometheusMatrix.parse(prometheus.post(uri, form, server.timeout(), server.maxBody().asLongValue()));
    }

    private static String names(Set<String> names) {
        return "__name__=~\"" + String.join("|", new TreeSet<>(names)) + "\"";
    }

    private HostHttp kubeletHttp() {
        if (kubelets == null) {
            HostConfig.Kubelet k = config.host().kubelet();
            kubelets = new HostHttp(bounded, "kubelet", k.caFile(), k.insecureSkipVerify());
        }
        return kubelets;
    }

    static boolean off(String interval) {
        String v = interval.strip().toLowerCase(java.util.Locale.ROOT);
        if (v.equals("off") || v.equals("disabled") || v.equals("0")) {
            return true;
        }
        Duration d = DurationConverter.parseDuration(v);
        return d == null || d.isZero() || d.isNegative();
    }

    private static String internalIp(Node node) {
        if (node.getStatus().getAddresses() == null) {
            return null;
        }
        return node.getStatus().getAddresses().stream().filter(a -> "InternalIP".equals(a.getType()))
                .map(NodeAddress::getAddress).findFirst().orElse(null);
    }

    private static int kubeletPort(Node node) {
        var endpoints = node.getStatus().getDaemonEndpoints();
        Integer port = endpoints == null || endpoints.getKubeletEndpoint() == null ? null
                : endpoints.getKubeletEndpoint().getPort();
        return port == null || port <= 0 ? 10250 : port;
    }

    /** An IPv6 address goes in brackets in a URL. */
    private static String host(String ip) {
        return ip.contains(":") ? "[" + ip + "]" : ip;
    }
}
