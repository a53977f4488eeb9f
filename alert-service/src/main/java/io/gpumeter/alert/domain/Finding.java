package io.gpumeter.alert.domain;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One alert a rule raises: its labels (identity) and a one-line summary with a longer description (annotations).
 * Blank label values are left out, as Alertmanager drops them too, so the fingerprint matches on both sides.
 */
public record Finding(String alertname, Severity severity, SortedMap<String, String> labels, String summary,
                      String description) {

    /** Label names every finding may carry; a rule sets those its subject has. */
    public static final String NODE = "node";
    public static final String GPU_UUID = "gpu_uuid";
    public static final String NAMESPACE = "namespace";
    public static final String TENANT = "tenant";
    public static final String POD = "pod";

    public Finding {
        labels = Collections.unmodifiableSortedMap(new TreeMap<>(labels));
    }

    public String fingerprint() {
        return Fingerprint.of(labels);
    }

    public String label(String name) {
        return labels.get(name);
    }

    public static Builder of(String alertname, Severity severity) {
        return new Builder(alertname, severity);
    }

    /** Collects labels, skipping blank values. */
    public static final class Builder {

        private final String alertname;
        private final Severity severity;
        private final SortedMap<String, String> labels = new TreeMap<>();

        private Builder(String alertname, Severity severity) {
            this.alertname = alertname;
            this.severity = severity;
            labels.put("alertname", alertname);
            labels.put("severity", severity.label());
            // Alertmanager routes gpumeter's own alerts on this label (k8s/monitoring/alertmanager.yml).
            labels.put("gpumeter", "true");
        }

        public Builder label(String name, String value) {
            if (value != null && !value.isBlank()) {
                labels.put(name, value);
            }
            return this;
        }

        public Finding describe(String summary, String description) {
            return new Finding(alertname, severity, labels, summary, description);
        }
    }
}
