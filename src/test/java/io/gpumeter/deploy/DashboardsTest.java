package io.gpumeter.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Grafana dashboards: valid JSON in Grafana's model, provisioned by the ConfigMap, and every query built on
 * series that dcgm-exporter or the services expose (or that the shipped rules record from them).
 */
class DashboardsTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path DIR = Repo.k8s().resolve("monitoring/dashboards");
    private static final Set<String> PANELS_WITHOUT_QUERIES = Set.of("row", "text");

    /** The question families each need a dashboard (SPEC Q1-Q10), by uid. */
    private static final Set<String> FAMILIES = Set.of("gpumeter-gpu-holders", "gpumeter-allocated-vs-used",
            "gpumeter-idle-reasons", "gpumeter-queue-wait", "gpumeter-failures", "gpumeter-slo-jitter", "gpumeter-cost",
            "gpumeter-capacity");

    record Query(String dashboard, String where, String expr) {
    }

    static Map<String, JsonNode> dashboards() throws IOException {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        try (Stream<Path> files = Files.list(DIR)) {
            for (Path f : files.filter(p -> p.toString().endsWith(".json")).sorted().toList()) {
                out.put(f.getFileName().toString(), JSON.readTree(f.toFile()));
            }
        }
        return out;
    }

    @Test
    void everyDashboardIsWellFormed() throws IOException {
        Map<String, JsonNode> boards = dashboards();
        assertFalse(boards.isEmpty());
        Set<String> uids = new HashSet<>();
        for (Map.Entry<String, JsonNode> e : boards.entrySet()) {
            String file = e.getKey();
            JsonNode d = e.getValue();
            assertTrue(uids.add(d.path("uid").asText()), file + ": duplicate uid");
            assertTrue(d.path("uid").asText().matches("[a-z0-9-]{1,40}"), file + ": uid");
            assertFalse(d.path("title").asText().isBlank(), file + ": title");
            assertTrue(d.path("schemaVersion").asInt() >= 36, file + ": schemaVersion");
            assertTrue(d.path("tags").toString().contains("\"gpumeter\""), file + ": tag gpumeter");
            assertTrue(d.path("id").isNull(), file + ": id must be null for provisioning");
            JsonNode datasource = variable(d, "datasource");
            assertEquals("datasource", datasource.path("type").asText(), file + ": a data source variable");
            assertEquals("prometheus", datasource.path("query").asText(), file + ": of Prometheus data sources");
            Set<Integer> ids = new HashSet<>();
            for (JsonNode p : panels(d)) {
                String where = file + " panel '" + p.path("title").asText() + "'";
                assertTrue(ids.add(p.path("id").asInt()), where + ": duplicate panel id");
                assertTrue(p.has("gridPos"), where + ": gridPos");
                if (PANELS_WITHOUT_QUERIES.contains(p.path("type").asText())) {
                    continue;
                }
                assertEquals("${datasource}", p.path("datasource").path("uid").asText(), where + ": data source");
                assertFalse(p.path("targets").isEmpty(), where + ": no queries");
                Set<String> refIds = new HashSet<>();
                for (JsonNode t : p.path("targets")) {
                    assertTrue(refIds.add(t.path("refId").asText()), where + ": duplicate refId");
                    assertFalse(t.path("expr").asText().isBlank(), where + ": empty expr");
                }
            }
        }
        Set<String> missing = new TreeSet<>(FAMILIES);
        missing.removeAll(uids);
        assertTrue(missing.isEmpty(), "question families without a dashboard: " + missing);
    }

    @Test
    void everyQuerySelectsSeriesThatExist() throws IOException {
        Set<String> known = Monitoring.knownSeries();
        List<String> problems = new ArrayList<>();
        for (Query q : queries()) {
            Set<String> used = PromQl.metricNames(PromQl.fromGrafana(q.expr()));
            if (used.isEmpty()) {
                problems.add(q.where() + " selects no series");
            }
            for (String name : used) {
                if (!known.contains(name)) {
                    problems.add(q.where() + " uses " + name + ", which neither dcgm-exporter nor a service exposes");
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void promtoolParsesEveryQuery(@TempDir Path dir) throws IOException {
        Path promtool = Tools.promtool();
        ObjectNode file = JSON.createObjectNode();
        ArrayNode rules = file.putArray("groups").addObject().put("name", "dashboard-queries").putArray("rules");
        List<Query> queries = queries();
        for (int i = 0; i < queries.size(); i++) {
            rules.addObject().put("record", "dashboard:query_" + i + ":check").put("expr", PromQl.fromGrafana(queries.get(i).expr()));
        }
        Files.writeString(dir.resolve("queries.yaml"), Yaml.write(file));
        Tools.Result result = Tools.run(dir, List.of(promtool.toString(), "check", "rules", "queries.yaml"));
        StringBuilder index = new StringBuilder();
        for (int i = 0; i < queries.size(); i++) {
            index.append("\n  query_").append(i).append(": ").append(queries.get(i).where());
        }
        assertTrue(result.ok(), "promtool check rules on the dashboards' queries:\n" + result.output() + index);
    }

    @Test
    void theConfigMapProvisionsEveryDashboard() throws IOException {
        Manifests m = Manifests.of("monitoring");
        ConfigMap cm = m.get(ConfigMap.class, "gpumeter-dashboards");
        assertEquals("1", cm.getMetadata().getLabels().get("grafana_dashboard"), "Grafana's sidecar label");
        assertEquals(dashboards().keySet(), new TreeSet<>(cm.getData().keySet()), "every dashboard file is in the ConfigMap");
        for (String file : cm.getData().keySet()) {
            assertEquals(Repo.read(DIR.resolve(file)), cm.getData().get(file), file);
        }
        int size = cm.getData().values().stream().mapToInt(v -> v.getBytes(StandardCharsets.UTF_8).length).sum();
        // kubectl apply keeps a copy in an annotation, which is limited to 256 KiB.
        assertTrue(size < 200 * 1024, "dashboards ConfigMap is " + size + " bytes; split it before it reaches 256 KiB");
    }

    /** Every Prometheus query: panel targets and query variables. */
    static List<Query> queries() throws IOException {
        List<Query> out = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : dashboards().entrySet()) {
            JsonNode d = e.getValue();
            for (JsonNode p : panels(d)) {
                for (JsonNode t : p.path("targets")) {
                    out.add(new Query(e.getKey(), e.getKey() + " panel '" + p.path("title").asText() + "' "
                            + t.path("refId").asText(), t.path("expr").asText()));
                }
            }
            for (JsonNode v : d.path("templating").path("list")) {
                if (v.path("type").asText().equals("query")) {
                    JsonNode query = v.path("query");
                    String text = query.isObject() ? query.path("query").asText() : query.asText();
                    out.add(new Query(e.getKey(), e.getKey() + " variable " + v.path("name").asText(),
                            PromQl.variableExpression(text)));
                }
            }
        }
        return out;
    }

    private static List<JsonNode> panels(JsonNode dashboard) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode p : dashboard.path("panels")) {
            out.add(p);
            p.path("panels").forEach(out::add);
        }
        return out;
    }

    private static JsonNode variable(JsonNode dashboard, String name) {
        for (JsonNode v : dashboard.path("templating").path("list")) {
            if (v.path("name").asText().equals(name)) {
                return v;
            }
        }
        throw new AssertionError(dashboard.path("title").asText() + " has no variable " + name);
    }
}
