package io.gpumeter.slo.capacity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.slo.acceptance.Plan;
import io.gpumeter.slo.repository.StoredRun;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the latest acceptance run that held the SLO measured of each service under each form: its throughput per GPU
 * at the SLO — a cell counts when it had latency clauses and every one of them passed at that rate, whatever the
 * run's other clauses said — and the p99, its spread and the interference factor the jitter margin is drawn from.
 * Runs are read as stored (docs/adr/0011), newest first; the first run to measure a service under a form counts.
 */
final class Deliverables {

    /** One cell of a passing run. */
    record Measured(long runId, String runName, String to, String service, String namespace, String form,
                    String cell, double perGpu, Double sloMs, String sloSli, Double p99Ms, Double p99SpreadMs,
                    Double interferenceFactor) {
    }

    private final Map<String, Measured> byServiceAndForm = new HashMap<>();

    Deliverables(List<StoredRun> newestFirst, ObjectMapper json) {
        for (StoredRun stored : newestFirst) {
            JsonNode run;
            try {
                run = json.readTree(stored.run);
            } catch (java.io.IOException e) {
                continue; // a run stored by this service always parses; an unreadable one measures nothing
            }
            Map<String, JsonNode> cells = new HashMap<>();
            run.path("cells").forEach(c -> cells.put(c.path("name").asText(), c));
            for (JsonNode k : run.path("commitments")) {
                JsonNode cell = cells.get(k.path("cell").asText());
                if (cell == null || !k.path("throughputPerGpu").isNumber() || !heldItsSlo(run, k.path("cell").asText())) {
                    continue;
                }
                String service = text(cell, "service");
                String form = k.path("form").asText();
                String name = k.path("cell").asText();
                Measured m = new Measured(stored.id, stored.name, text(run, "to"), service, text(cell, "namespace"),
                        form, name, k.path("throughputPerGpu").asDouble(), number(k, "sloMs"), text(k, "sloSli"),
                        matrix(run, name, "TTFT_P99"), matrix(run, name, "TTFT_P99_SPREAD"),
                        matrix(run, name, "INTERFERENCE_FACTOR"));
                byServiceAndForm.putIfAbsent(key(service, m.namespace(), form), m);
                byServiceAndForm.putIfAbsent(key(service, null, form), m);
            }
        }
    }

    /** The latest measurement of a service under a form (namespace null: any namespace), or null. */
    Measured of(String service, String namespace, String form) {
        Measured m = byServiceAndForm.get(key(service, namespace, form));
        return m != null ? m : byServiceAndForm.get(key(service, null, form));
    }

    private static String key(String service, String namespace, String form) {
        return service + "\u0000" + (namespace == null ? "" : namespace) + "\u0000" + form;
    }

    /** Whether the cell had latency clauses and passed every one. */
    static boolean heldItsSlo(JsonNode run, String cell) {
        int latency = 0;
        for (JsonNode o : run.path("assertions")) {
            if (cell.equals(o.path("cell").asText()) && latency(o.path("metric").asText())) {
                if (!"PASS".equals(o.path("verdict").asText())) {
                    return false;
                }
                latency++;
            }
        }
        return latency > 0;
    }

    private static boolean latency(String metric) {
        for (Plan.Metric m : Plan.Metric.values()) {
            if (m.name().equals(metric)) {
                return m.latency();
            }
        }
        return false;
    }

    private static Double matrix(JsonNode run, String cell, String metric) {
        for (JsonNode row : run.path("matrix")) {
            if (cell.equals(row.path("cell").asText()) && metric.equals(row.path("metric").asText())
                    && row.path("value").isNumber()) {
                return row.path("value").asDouble();
            }
        }
        return null;
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isTextual() ? v.asText() : null;
    }

    private static Double number(JsonNode node, String field) {
        JsonNode v = node.path(field);
        return v.isNumber() ? v.asDouble() : null;
    }
}
