package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import jakarta.ws.rs.core.MultivaluedMap;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The review form's fieldsets for the two prevention items a person fills in by hand — an alert threshold built from
 * its parts and an admission policy — read from the posted form and turned into the items alert-service takes. A
 * blank field is left out, so alert-service's defaults apply and its own checks name what is wrong.
 */
final class PreventionFields {

    static final List<String> FUNCTIONS = List.of("rate", "irate", "increase", "delta", "deriv", "changes", "resets",
            "avg_over_time", "min_over_time", "max_over_time", "sum_over_time", "count_over_time", "last_over_time");
    static final List<String> AGGREGATES = List.of("sum", "min", "max", "avg", "count");
    static final List<String> COMPARISONS = List.of(">", ">=", "<", "<=", "==", "!=");
    static final List<String> SEVERITIES = List.of("warning", "critical", "info");
    static final List<String> POLICIES = List.of("RESOURCE_QUOTA", "MAX_REQUEST", "REQUIRE_SCHEDULER", "EXCLUSIVE_RESOURCES");
    static final List<String> ACTIONS = List.of("DENY", "WARN", "AUDIT");

    private PreventionFields() {
    }

    /** An alert on a metric: {@code aggregate by (by) (function(metric{matchers}[range])) comparison threshold}, for a while. */
    @TemplateData
    record Threshold(String alert, String metric, String matchers, String function, String range, String aggregate, String by,
                     String comparison, String threshold, String forDuration, String severity, String description) {

        static final Threshold EMPTY = new Threshold("", "", "", "", "", "", "", ">", "", "", "warning", "");

        static Threshold read(MultivaluedMap<String, String> form) {
            return new Threshold(one(form, "alert"), one(form, "metric"), one(form, "matchers"), one(form, "function"),
                    one(form, "range"), one(form, "aggregate"), one(form, "by"), one(form, "comparison"), one(form, "threshold"),
                    one(form, "for"), one(form, "severity"), one(form, "thresholdDescription"));
        }

        boolean filled() {
            return !alert.isEmpty() || !metric.isEmpty() || !threshold.isEmpty();
        }

        /** The item, or null with the problem added when a part cannot be read. */
        Map<String, Object> item(List<String> problems) {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("kind", "ALERT_THRESHOLD");
            put(o, "alert", alert);
            put(o, "metric", metric);
            if (!matchers.isEmpty()) {
                Map<String, String> m = new LinkedHashMap<>();
                o.put("matchers", m);
                for (String pair : matchers.split(",")) {
                    int eq = pair.indexOf('=');
                    if (eq <= 0) {
                        problems.add("matchers: write label=value, separated by commas (got '" + pair.strip() + "').");
                        return null;
                    }
                    m.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip().replaceAll("^\"|\"$", ""));
                }
            }
            put(o, "function", function);
            put(o, "range", range);
            put(o, "aggregate", aggregate);
            if (!by.isEmpty()) {
                o.put("by", Stream.of(by.split(",")).map(String::strip).toList());
            }
            put(o, "comparison", comparison);
            if (!threshold.isEmpty()) {
                try {
                    o.put("threshold", new BigDecimal(threshold));
                } catch (NumberFormatException e) {
                    problems.add("threshold: a number, such as 0 or 0.95 (got '" + threshold + "').");
                    return null;
                }
            }
            put(o, "for", forDuration);
            put(o, "severity", severity);
            put(o, "description", description);
            return o;
        }
    }

    /** A policy the API server applies at admission, so the request that caused it is refused next time. */
    @TemplateData
    record Admission(String policy, String namespace, String resource, String limit, String otherResource, String schedulerName,
                     String action) {

        static final Admission EMPTY = new Admission("", "", "", "", "", "", "");

        static Admission read(MultivaluedMap<String, String> form) {
            return new Admission(one(form, "policy"), one(form, "policyNamespace"), one(form, "resource"), one(form, "limit"),
                    one(form, "otherResource"), one(form, "schedulerName"), one(form, "action"));
        }

        boolean filled() {
            return !policy.isEmpty();
        }

        Map<String, Object> item() {
            Map<String, Object> o = new LinkedHashMap<>();
            o.put("kind", "ADMISSION_POLICY");
            put(o, "policy", policy);
            put(o, "namespace", namespace);
            put(o, "resource", resource);
            put(o, "limit", limit);
            put(o, "otherResource", otherResource);
            put(o, "schedulerName", schedulerName);
            put(o, "action", action);
            return o;
        }
    }

    private static void put(Map<String, Object> o, String field, String value) {
        if (!value.isEmpty()) {
            o.put(field, value);
        }
    }

    static String one(MultivaluedMap<String, String> form, String field) {
        String value = form.getFirst(field);
        return value == null ? "" : value.strip();
    }
}
