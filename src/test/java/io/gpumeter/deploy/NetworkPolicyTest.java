package io.gpumeter.deploy;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.gpumeter.deploy.NetworkModel.Endpoint;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rendered NetworkPolicies allow exactly the calls the design makes: every pair of endpoints, on every port the
 * destination listens on, is checked against the list below.
 */
class NetworkPolicyTest {

    private static final List<String> SERVICES = Repo.SERVICES.stream().map(s -> s + "-service").toList();

    /** Endpoints outside gpumeter's namespace, labelled as their usual installations label them. */
    private static List<Endpoint> outsiders() {
        return List.of(
                Endpoint.pod("prometheus", "monitoring", Map.of("app.kubernetes.io/name", "prometheus"), Map.of("web", 9090)),
                Endpoint.pod("team-prometheus", "team-a", Map.of("app.kubernetes.io/name", "prometheus"), Map.of("web", 9090)),
                Endpoint.pod("gpumeter-push", "gpu-operator", Map.of("app.kubernetes.io/name", "gpumeter-push"), Map.of()),
                Endpoint.pod("alertmanager", "monitoring", Map.of("app.kubernetes.io/name", "alertmanager"), Map.of("web", 9093)),
                Endpoint.pod("grafana", "monitoring", Map.of("app.kubernetes.io/name", "grafana"), Map.of("http", 3000)),
                Endpoint.pod("kube-dns", "kube-system", Map.of("k8s-app", "kube-dns"), Map.of("dns", 53)),
                Endpoint.pod("dcgm-exporter", "gpu-operator", Map.of("app", "nvidia-dcgm-exporter"), Map.of("metrics", 9400)),
                Endpoint.pod("hami-monitor", "kube-system", Map.of("app.kubernetes.io/component", "hami-device-plugin"), Map.of("monitor", 9394)),
                Endpoint.pod("vllm", "team-a", Map.of("app", "llm-decode"), Map.of("http", 8000)),
                Endpoint.pod("stranger", "team-a", Map.of("app", "notebook"), Map.of("http", 8888)),
                Endpoint.outside("kube-apiserver", Map.of("https", 443, "secure", 6443)),
                Endpoint.outside("external-postgres", Map.of("postgres", 5432)),
                Endpoint.outside("internet", Map.of("http", 80)));
    }

    /** The calls the design makes, as "from -> to:port". */
    private static Set<String> designedCalls(boolean inClusterDatabase) {
        Set<String> calls = new TreeSet<>();
        for (String caller : List.of("collector-service", "slo-service", "alert-service", "billing-service")) {
            calls.add(caller + " -> ledger-service:8082");
        }
        calls.add("alert-service -> billing-service:8085");
        calls.add("alert-service -> slo-service:8083");
        // an acceptance run's window cost and alert-service's runbook; billing-service calls neither
        calls.add("slo-service -> billing-service:8085");
        calls.add("slo-service -> alert-service:8084");
        calls.add("collector-service -> slo-service:8083");
        calls.add("gpumeter-push -> collector-service:8081");
        calls.add("alertmanager -> alert-service:8084");
        calls.add("alert-service -> alertmanager:9093");
        for (String s : SERVICES) {
            if (Repo.usesDatabase(s.replace("-service", ""))) {
                calls.add(s + " -> external-postgres:5432");
                if (inClusterDatabase) {
                    calls.add(s + " -> postgres:5432");
                }
            }
            // Only Prometheus in the monitoring namespace, and only on the management port.
            calls.add("prometheus -> " + s + ":" + Repo.managementPort(s.replace("-service", "")));
        }
        for (String api : List.of("collector-service", "alert-service")) {
            calls.add(api + " -> kube-apiserver:443");
            calls.add(api + " -> kube-apiserver:6443");
        }
        calls.add("collector-service -> dcgm-exporter:9400");
        calls.add("collector-service -> hami-monitor:9394");
        calls.add("collector-service -> prometheus:9090");
        // The collector may read any Prometheus; no Prometheus but the monitoring namespace's may scrape gpumeter.
        calls.add("collector-service -> team-prometheus:9090");
        calls.add("collector-service -> vllm:8000");
        // The console calls each service's API with its users' tokens; people reach it (through your Ingress) on 8086.
        for (String s : SERVICES) {
            calls.add("console -> " + s + ":" + Repo.port(s.replace("-service", "")));
        }
        calls.add("prometheus -> console:" + Repo.managementPort(Repo.CONSOLE));
        for (Endpoint outsider : outsiders()) {
            calls.add(outsider.name() + " -> console:" + Repo.port(Repo.CONSOLE));
        }
        // The MCP server calls the four services its tools read, with a token per call; assistants reach it on 8087.
        for (String s : List.of("ledger", "slo", "alert", "billing")) {
            calls.add("mcp-service -> " + s + "-service:" + Repo.port(s));
        }
        calls.add("prometheus -> mcp-service:" + Repo.managementPort(Repo.MCP));
        for (Endpoint outsider : outsiders()) {
            calls.add(outsider.name() + " -> mcp-service:" + Repo.port(Repo.MCP));
        }
        return calls;
    }

    @ParameterizedTest(name = "k8s/{0}")
    @ValueSource(strings = {"overlays/dev", "overlays/prod", "examples/prod-scrape-shards"})
    void onlyTheDesignedCallsAreAllowed(String dir) {
        Manifests m = Manifests.of(dir);
        String namespace = m.kind("Namespace").get(0).getMetadata().getName();
        NetworkModel model = new NetworkModel(namespace, m.all(NetworkPolicy.class));
        List<Endpoint> endpoints = endpoints(m, namespace);
        boolean inClusterDatabase = endpoints.stream().anyMatch(e -> e.name().equals("postgres"));
        Set<String> gpumeterPods = new TreeSet<>();
        endpoints.stream().filter(e -> namespace.equals(e.namespace())).forEach(e -> gpumeterPods.add(e.name()));

        Set<String> allowed = new TreeSet<>();
        for (Endpoint from : endpoints) {
            for (Endpoint to : endpoints) {
                if (from == to || (!gpumeterPods.contains(from.name()) && !gpumeterPods.contains(to.name()))) {
                    continue;
                }
                for (int port : new TreeSet<>(to.ports().values())) {
                    if (model.allows(from, to, port, "TCP")) {
                        allowed.add(from.name() + " -> " + to.name() + ":" + port);
                    }
                }
            }
        }
        Set<String> expected = designedCalls(inClusterDatabase);
        if (gpumeterPods.contains("collector-scraper")) {
            expected.addAll(scraperCalls(expected));
        }
        Set<String> dns = new TreeSet<>();
        for (String pod : gpumeterPods) {
            dns.add(pod + " -> kube-dns:53");
            Endpoint from = endpoints.stream().filter(e -> e.name().equals(pod)).findFirst().orElseThrow();
            Endpoint kubeDns = endpoints.stream().filter(e -> e.name().equals("kube-dns")).findFirst().orElseThrow();
            assertTrue(model.allows(from, kubeDns, 53, "UDP"), pod + " resolves names over UDP");
        }
        expected.addAll(dns);
        Set<String> unexpected = new TreeSet<>(allowed);
        unexpected.removeAll(expected);
        Set<String> blocked = new TreeSet<>(expected);
        blocked.removeAll(allowed);
        assertTrue(unexpected.isEmpty() && blocked.isEmpty(), "k8s/" + dir + ": allowed but not designed " + unexpected
                + "; designed but blocked " + blocked);
    }

    @ParameterizedTest(name = "k8s/{0}")
    @ValueSource(strings = {"overlays/dev", "overlays/prod"})
    void theProbedPortIsOpenOnlyToPrometheusInTheMonitoringNamespace(String dir) {
        Manifests m = Manifests.of(dir);
        String namespace = m.kind("Namespace").get(0).getMetadata().getName();
        NetworkModel model = new NetworkModel(namespace, m.all(NetworkPolicy.class));
        List<Endpoint> endpoints = endpoints(m, namespace);
        for (String service : Stream.concat(SERVICES.stream(), Stream.of(Repo.CONSOLE, Repo.name(Repo.MCP))).toList()) {
            var container = m.workloads().stream().filter(w -> w.name().endsWith(service)).findFirst().orElseThrow()
                    .pod().getContainers().get(0);
            String probed = container.getReadinessProbe().getHttpGet().getPort().getStrVal();
            int port = container.getPorts().stream().filter(p -> p.getName().equals(probed)).findFirst().orElseThrow()
                    .getContainerPort();
            Endpoint to = endpoints.stream().filter(e -> e.name().equals(service)).findFirst().orElseThrow();
            List<String> reaching = endpoints.stream().filter(from -> from != to && model.allows(from, to, port, "TCP"))
                    .map(Endpoint::name).toList();
            assertEquals(List.of("prometheus"), reaching, "k8s/" + dir + ": " + service + "'s probed port " + port);
            if (service.equals(Repo.CONSOLE) || service.equals(Repo.name(Repo.MCP))) {
                continue; // its pages (or /mcp) are open to every client, Prometheus's included; its health is not
            }
            int api = Repo.port(service.replace("-service", ""));
            Endpoint prometheus = endpoints.stream().filter(e -> e.name().equals("prometheus")).findFirst().orElseThrow();
            assertTrue(!model.allows(prometheus, to, api, "TCP"), service + ": Prometheus reaches the API port " + api);
        }
    }

    @ParameterizedTest(name = "k8s/{0}")
    @ValueSource(strings = {"overlays/dev", "overlays/prod"})
    void theConsolesReplicasTellEachOtherOfSignOutsOnTheManagementPortOnly(String dir) {
        // one endpoint stands for every replica, so the designed calls above, between two endpoints, leave this out;
        // that nothing else reaches the console's management port, they say
        Manifests m = Manifests.of(dir);
        String namespace = m.kind("Namespace").get(0).getMetadata().getName();
        NetworkModel model = new NetworkModel(namespace, m.all(NetworkPolicy.class));
        Endpoint console = endpoints(m, namespace).stream().filter(e -> e.name().equals(Repo.CONSOLE)).findFirst().orElseThrow();
        assertTrue(model.allows(console, console, Repo.managementPort(Repo.CONSOLE), "TCP"), "k8s/" + dir + ": replica to replica");
        URI peers = URI.create(m.get(ConfigMap.class, "console-config").getData().get("GPUMETER_CONSOLE_SESSION_PEERS"));
        assertEquals(Repo.managementPort(Repo.CONSOLE), peers.getPort(), "the peers are asked on the management port");
        assertEquals("None", m.get(io.fabric8.kubernetes.api.model.Service.class, peers.getHost()).getSpec().getClusterIP(),
                "each replica by its own address");
    }

    @ParameterizedTest(name = "k8s/{0}")
    @ValueSource(strings = {"overlays/dev", "overlays/prod"})
    void everyConfiguredServiceUrlIsAnAllowedCall(String dir) {
        Manifests m = Manifests.of(dir);
        String namespace = m.kind("Namespace").get(0).getMetadata().getName();
        NetworkModel model = new NetworkModel(namespace, m.all(NetworkPolicy.class));
        Map<String, Endpoint> byName = new LinkedHashMap<>();
        endpoints(m, namespace).forEach(e -> byName.put(e.name(), e));
        int urls = 0;
        for (String svc : Repo.SERVICES) {
            Map<String, String> config = m.get(ConfigMap.class, svc + "-config").getData();
            for (Map.Entry<String, String> e : config.entrySet()) {
                if (!e.getKey().matches("QUARKUS_REST_CLIENT_\\w+_URL")) {
                    continue;
                }
                URI url = URI.create(e.getValue());
                String host = url.getHost().split("\\.")[0];
                Endpoint to = byName.containsKey(host) ? byName.get(host)
                        : host.startsWith("alertmanager") ? byName.get("alertmanager") : null;
                assertTrue(to != null, svc + "-config " + e.getKey() + " points at an unknown host " + url.getHost());
                if (to.namespace().equals(namespace)) {
                    assertTrue(to.ports().containsValue(url.getPort()),
                            svc + "-config " + e.getKey() + ": " + to.name() + " does not listen on " + url.getPort());
                }
                assertTrue(model.allows(byName.get(svc + "-service"), to, url.getPort(), "TCP"),
                        svc + "-config " + e.getKey() + " = " + e.getValue() + " is blocked by the NetworkPolicies");
                urls++;
            }
        }
        Map<String, String> console = m.get(ConfigMap.class, "console-config").getData();
        int consoleUrls = 0;
        for (Map.Entry<String, String> e : console.entrySet()) {
            if (!e.getKey().matches("GPUMETER_CONSOLE_\\w+_URL")) {
                continue;
            }
            URI url = URI.create(e.getValue());
            Endpoint to = byName.get(url.getHost().split("\\.")[0]);
            assertTrue(to != null && to.ports().containsValue(url.getPort()), "console-config " + e.getKey() + " = " + e.getValue());
            assertTrue(model.allows(byName.get(Repo.CONSOLE), to, url.getPort(), "TCP"),
                    "console-config " + e.getKey() + " = " + e.getValue() + " is blocked by the NetworkPolicies");
            consoleUrls++;
        }
        assertEquals(SERVICES.size(), consoleUrls, "the console knows where each of the five services is");
        int mcpUrls = 0;
        for (Map.Entry<String, String> e : m.get(ConfigMap.class, "mcp-service-config").getData().entrySet()) {
            if (e.getKey().matches("QUARKUS_REST_CLIENT_\\w+_URL")) {
                URI url = URI.create(e.getValue());
                Endpoint to = byName.get(url.getHost().split("\\.")[0]);
                assertTrue(to != null && to.ports().containsValue(url.getPort())
                        && model.allows(byName.get("mcp-service"), to, url.getPort(), "TCP"), "mcp-service-config " + e.getKey());
                mcpUrls++;
            }
        }
        assertEquals(4, mcpUrls, "the MCP server knows where each service its tools read is");
        assertTrue(urls >= 6, "service URLs found: " + urls);
    }

    /**
     * k8s/components/scrape-shards: a scraper is a collector under the collector's policy, so it makes and takes the
     * collector's calls, but for slo-service's, which receives only what the Deployment pulls (latency, engines), and
     * the console's, which reads the Deployment's API through its Service.
     */
    private static Set<String> scraperCalls(Set<String> designed) {
        Set<String> calls = new TreeSet<>();
        for (String call : designed) {
            if (call.contains("collector-service") && !call.contains("slo-service") && !call.startsWith("console ")) {
                calls.add(call.replace("collector-service", "collector-scraper"));
            }
        }
        return calls;
    }

    /** gpumeter's own pods, from the rendered workloads, and the outsiders. */
    private static List<Endpoint> endpoints(Manifests m, String namespace) {
        List<Endpoint> out = new ArrayList<>();
        for (Manifests.Workload w : m.workloads()) {
            Map<String, Integer> ports = new LinkedHashMap<>();
            w.pod().getContainers().forEach(c -> c.getPorts().forEach((ContainerPort p) -> ports.put(p.getName(), p.getContainerPort())));
            out.add(Endpoint.pod(w.owner().getMetadata().getName(), namespace, w.podLabels(), ports));
        }
        out.addAll(outsiders());
        return out;
    }
}
