package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.util.ArrayList;
import java.util.List;

/**
 * A prevention item of a review as alert-service serves it (its {@code kind} and the fields it was given), said in
 * one line, with what it exports as and the console's link that downloads that export with the viewer's token.
 *
 * @param exportsAs e.g. {@code PrometheusRule (YAML)}
 * @param link      the console's download of the export; null when the item carries no number
 */
@TemplateData
public record PreventionView(String kind, String summary, String description, String exportsAs, String link) {

    static PreventionView of(JsonNode item, String incidentId, int version) {
        String kind = String.valueOf(Format.text(item, "kind"));
        String summary = switch (kind) {
            case "ALERT_THRESHOLD" -> "alert " + Format.text(item, "alert") + " (" + Format.text(item, "severity") + ") when "
                    + text(item, "expr", Format.text(item, "metric")) + " for " + Format.text(item, "for");
            case "ADMISSION_POLICY" -> admission(item);
            case "ACCEPTANCE_ITEM" -> acceptance(item);
            case "REGRESSION_CASE" -> "a regression case: the incident's inputs, redacted to its tenant, replayed must triage to the same cause";
            default -> item.toString();
        };
        String description = Format.text(item, kind.equals("REGRESSION_CASE") ? "note" : "description");
        String exportsAs = switch (kind) {
            case "ALERT_THRESHOLD" -> "PrometheusRule (YAML)";
            case "ADMISSION_POLICY" -> "Kubernetes objects (YAML)";
            case "ACCEPTANCE_ITEM" -> "acceptance plan (JSON)";
            case "REGRESSION_CASE" -> "inputs to replay (zip)";
            default -> "file";
        };
        int n = item.path("n").asInt(0);
        String link = n < 1 ? null : "/failures/incidents/" + Format.segment(incidentId) + "/review/items/" + n
                + (version > 0 ? "?version=" + version : "");
        return new PreventionView(kind, summary, description, exportsAs, link);
    }

    private static String admission(JsonNode item) {
        String resource = Format.text(item, "resource");
        String where = item.hasNonNull("namespace") ? " in " + Format.text(item, "namespace") : " in every namespace";
        String what = switch (String.valueOf(Format.text(item, "policy"))) {
            case "RESOURCE_QUOTA" -> "a quota of " + Format.text(item, "limit") + " " + resource;
            case "MAX_REQUEST" -> "no container requests more than " + Format.text(item, "limit") + " " + resource;
            case "REQUIRE_SCHEDULER" -> "a pod requesting " + resource + " names scheduler " + Format.text(item, "schedulerName");
            case "EXCLUSIVE_RESOURCES" -> "no container requests both " + resource + " and " + Format.text(item, "otherResource");
            default -> Format.text(item, "policy") + " on " + resource;
        };
        return what + where + (item.hasNonNull("action") ? " (" + Format.text(item, "action") + ")" : "");
    }

    private static String acceptance(JsonNode item) {
        JsonNode a = item.path("assertion");
        JsonNode cell = item.path("cell");
        List<String> measured = new ArrayList<>();
        for (String f : List.of("metric", "sli")) {
            if (a.hasNonNull(f)) {
                measured.add(Format.text(a, f));
            }
        }
        for (String f : List.of("maxMs", "max", "min", "maxRatio", "minRatio", "within")) {
            if (a.hasNonNull(f)) {
                measured.add(f + " " + Format.text(a, f));
            }
        }
        return "acceptance assertion '" + Format.text(a, "name") + "' (" + Format.text(a, "kind") + " " + String.join(" ", measured)
                + ") in cell " + Format.text(cell, "name") + " (" + Format.text(cell, "workload") + ", " + Format.text(cell, "form") + ")";
    }

    private static String text(JsonNode node, String field, String otherwise) {
        String value = Format.text(node, field);
        return value != null ? value : otherwise;
    }
}
