package io.gpumeter.console;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * alert-service's reads as the Alerts page binds them: the alerts it raised ({@code GET /api/v1/alerts}) and the
 * runbook actions it took or, dry-run, only planned ({@code GET /api/v1/actions}). Labels, summaries and details carry
 * tenants' and nodes' words: the page writes them only as template values, which the HTML template escapes.
 */
final class AlertAnswers {

    /** The labels that say what an alert is about, in the order the table names them. */
    static final List<String> SUBJECT_LABELS = List.of("tenant", "node", "gpu_uuid", "namespace", "pod", "service", "slo", "cluster_queue");

    private AlertAnswers() {
    }

    /** One episode of an alert: firing, or resolved at {@code endsAt}. */
    @TemplateData
    @RegisterForReflection
    record Alert(String alertname, String severity, String state, String startsAt, String endsAt, Map<String, String> labels,
                 Annotations annotations) {

        public boolean firing() {
            return "firing".equalsIgnoreCase(state);
        }

        /** What it is about, e.g. {@code node=gpu-a, gpu_uuid=GPU-aaaa-0001}. */
        public String subject() {
            return labels == null ? "" : SUBJECT_LABELS.stream().filter(k -> labels.get(k) != null)
                    .map(k -> k + "=" + labels.get(k)).collect(Collectors.joining(", "));
        }

        public String summary() {
            return annotations == null || annotations.summary() == null ? "" : annotations.summary();
        }

        /** The runbook's address when it is a web link (http or https), else null: the page links nothing else. */
        public String runbook() {
            String url = annotations == null ? null : annotations.runbookUrl();
            return url != null && (url.startsWith("http://") || url.startsWith("https://")) ? url : null;
        }
    }

    @RegisterForReflection
    record Annotations(String summary, @JsonProperty("runbook_url") String runbookUrl) {
    }

    /** One runbook action on an alert, and its undo once the alert resolved. */
    @TemplateData
    @RegisterForReflection
    record Action(String alertname, String action, String mode, String target, String result, String detail, String at,
                  String undoResult, String undoneAt) {

        public boolean enforced() {
            return "enforce".equals(mode);
        }

        /** e.g. {@code DRY_RUN at 2026-11-30T09:00:05Z}; empty before any undo. */
        public String undo() {
            return undoResult == null ? "" : undoResult + (undoneAt == null ? "" : " at " + undoneAt);
        }
    }
}
