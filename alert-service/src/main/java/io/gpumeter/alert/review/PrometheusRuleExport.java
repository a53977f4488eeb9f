package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An ALERT_THRESHOLD as a Prometheus Operator PrometheusRule (monitoring.coreos.com/v1): one group, one alert, its
 * labels naming the incident it comes from and its runbook_url the review's page. {@code spec} is a plain Prometheus
 * rule file, which {@code promtool check rules} reads.
 */
final class PrometheusRuleExport {

    private PrometheusRuleExport() {
    }

    static ObjectNode rule(Review review, int n, AlertThreshold a, String externalUrl) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        String name = ExportNames.object(review.incidentId(), n);
        ObjectNode doc = f.objectNode().put("apiVersion", "monitoring.coreos.com/v1").put("kind", "PrometheusRule");
        ObjectNode metadata = doc.putObject("metadata").put("name", name);
        metadata.putObject("labels").put("app.kubernetes.io/name", "gpumeter-review-rules")
                .put("app.kubernetes.io/component", "monitoring");
        metadata.putObject("annotations").put("gpumeter.io/incident", review.incidentId())
                .put("gpumeter.io/review-version", String.valueOf(review.version()));
        ObjectNode rule = doc.putObject("spec").putArray("groups").addObject().put("name", name).putArray("rules")
                .addObject().put("alert", a.alert()).put("expr", a.expr()).put("for", a.forDuration());
        rule.putObject("labels").put("severity", a.severity()).put("incident", literal(review.incidentId()));
        rule.putObject("annotations").put("summary", literal(a.alert() + ": " + a.expr()))
                .put("description", literal((a.description() == null ? "" : a.description() + " ")
                        + "Added after incident " + review.incidentId() + " (" + review.decision().cause() + " on "
                        + review.incident().subject() + ")."))
                .put("runbook_url", externalUrl.replaceAll("/+$", "") + ReviewPaths.review(review.incidentId())
                        + "?format=html");
        return doc;
    }

    /**
     * Text as Prometheus shows it: labels and annotations are Go templates, so each "{{" and "}}" of the text is written
     * as an action printing it, and a reviewer's or tenant's text never runs as a template.
     */
    static String literal(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            if (text.startsWith("{{", i) || text.startsWith("}}", i)) {
                out.append("{{\"").append(text, i, i + 2).append("\"}}");
                i++;
            } else {
                out.append(text.charAt(i));
            }
        }
        return out.toString();
    }
}
