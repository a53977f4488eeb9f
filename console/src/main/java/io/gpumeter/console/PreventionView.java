package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * A prevention item of a review ({@link ReviewView.Item}) said in one line, with what it exports as and the console's
 * link that downloads that export with the viewer's token.
 *
 * @param exportsAs e.g. {@code PrometheusRule (YAML)}
 * @param link      the console's download of the export; null when the item carries no number
 */
@TemplateData
public record PreventionView(String kind, String summary, String description, String exportsAs, String link) {

    /** What an acceptance assertion measures and its bound, in the order they are named. */
    private static final List<String> MEASURED = List.of("metric", "sli");
    private static final List<String> BOUNDS = List.of("maxMs", "max", "min", "maxRatio", "minRatio", "within");

    static PreventionView of(ReviewView.Item item, String incidentId, int version) {
        String kind = String.valueOf(item.kind());
        String summary = switch (kind) {
            case "ALERT_THRESHOLD" -> "alert " + item.alert() + " (" + item.severity() + ") when "
                    + (item.expr() != null ? item.expr() : item.metric()) + " for " + item.forDuration();
            case "ADMISSION_POLICY" -> admission(item);
            case "ACCEPTANCE_ITEM" -> acceptance(item);
            case "REGRESSION_CASE" -> "a regression case: the incident's inputs, redacted to its tenant, replayed must triage to the same cause";
            default -> kind;
        };
        String description = kind.equals("REGRESSION_CASE") ? item.note() : item.description();
        String exportsAs = switch (kind) {
            case "ALERT_THRESHOLD" -> "PrometheusRule (YAML)";
            case "ADMISSION_POLICY" -> "Kubernetes objects (YAML)";
            case "ACCEPTANCE_ITEM" -> "acceptance plan (JSON)";
            case "REGRESSION_CASE" -> "inputs to replay (zip)";
            default -> "file";
        };
        int n = item.n() == null ? 0 : item.n();
        String link = n < 1 ? null : "/failures/incidents/" + Format.segment(incidentId) + "/review/items/" + n
                + (version > 0 ? "?version=" + version : "");
        return new PreventionView(kind, summary, description, exportsAs, link);
    }

    private static String admission(ReviewView.Item item) {
        String resource = item.resource();
        String where = item.namespace() != null ? " in " + item.namespace() : " in every namespace";
        String what = switch (String.valueOf(item.policy())) {
            case "RESOURCE_QUOTA" -> "a quota of " + item.limit() + " " + resource;
            case "MAX_REQUEST" -> "no container requests more than " + item.limit() + " " + resource;
            case "REQUIRE_SCHEDULER" -> "a pod requesting " + resource + " names scheduler " + item.schedulerName();
            case "EXCLUSIVE_RESOURCES" -> "no container requests both " + resource + " and " + item.otherResource();
            default -> item.policy() + " on " + resource;
        };
        return what + where + (item.action() != null ? " (" + item.action() + ")" : "");
    }

    /** The assertion and cell are alert-service's free-form objects: their named parts, as far as they go. */
    private static String acceptance(ReviewView.Item item) {
        Map<String, Object> a = item.assertion() == null ? Map.of() : item.assertion();
        Map<String, Object> cell = item.cell() == null ? Map.of() : item.cell();
        String measured = MEASURED.stream().map(a::get).filter(Objects::nonNull).map(String::valueOf).collect(Collectors.joining(" "));
        String bound = BOUNDS.stream().filter(f -> a.get(f) != null).map(f -> f + " " + a.get(f)).collect(Collectors.joining(" "));
        return "acceptance assertion '" + a.get("name") + "' (" + a.get("kind") + " " + String.join(" ", List.of(measured, bound).stream()
                .filter(s -> !s.isEmpty()).toList()) + ") in cell " + cell.get("name") + " (" + cell.get("workload") + ", " + cell.get("form") + ")";
    }
}
