package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.InvalidInput;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Alert earlier next time: a Prometheus alert on a metric, built from parts rather than taken as free PromQL, so
 * that every accepted item makes a rule Prometheus loads — {@code aggregate by (labels) (function(metric{matchers}[range]))
 * comparison threshold}, firing after {@code for}.
 *
 * @param matchers  label = value matchers of the metric's series
 * @param function  a range function (rate, increase, max_over_time, …) over {@code range}, or null
 * @param aggregate sum, min, max, avg or count over the series, keeping the {@code by} labels, or null
 */
public record AlertThreshold(String alert, String metric, SortedMap<String, String> matchers, String function,
                             String range, String aggregate, List<String> by, String comparison, BigDecimal threshold,
                             String forDuration, String severity, String description) implements Prevention {

    static final Pattern ALERT = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,99}");
    static final Pattern METRIC = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]{0,199}");
    static final Pattern LABEL = Pattern.compile("(?!__)[a-zA-Z_][a-zA-Z0-9_]{0,99}");
    /** Prometheus's duration: units from years to milliseconds, largest first, at least one. */
    static final Pattern DURATION = Pattern.compile("(?=\\d)(\\d+y)?(\\d+w)?(\\d+d)?(\\d+h)?(\\d+m)?(\\d+s)?(\\d+ms)?");
    static final Set<String> FUNCTIONS = Set.of("rate", "irate", "increase", "delta", "deriv", "changes", "resets",
            "avg_over_time", "min_over_time", "max_over_time", "sum_over_time", "count_over_time", "last_over_time");
    static final Set<String> AGGREGATES = Set.of("sum", "min", "max", "avg", "count");
    static final Set<String> COMPARISONS = Set.of(">", ">=", "<", "<=", "==", "!=");
    static final Set<String> SEVERITIES = Set.of("critical", "warning", "info");
    static final int MAX_MATCHERS = 20;
    static final int MAX_DESCRIPTION = 500;

    private static final Set<String> KEYS = Set.of("kind", "alert", "metric", "matchers", "function", "range",
            "aggregate", "by", "comparison", "threshold", "for", "severity", "description");

    public AlertThreshold {
        matchers = new TreeMap<>(matchers);
        by = List.copyOf(by);
    }

    static AlertThreshold read(JsonNode item, String at) {
        Fields.object(item, at, KEYS, "alert, metric, threshold and optionally matchers, function with range, aggregate "
                + "with by, comparison, for, severity, description");
        String alert = Fields.matching(item, "alert", at, true, ALERT, "an alert name (letters, digits and _, 1-100)");
        String metric = Fields.matching(item, "metric", at, true, METRIC, "a Prometheus metric name");
        SortedMap<String, String> matchers = matchers(item.get("matchers"), Fields.at(at, "matchers"));
        String function = oneOf(item, "function", at, FUNCTIONS);
        String range = Fields.matching(item, "range", at, false, DURATION, "a Prometheus duration such as 5m or 1h30m");
        if ((function == null) != (range == null)) {
            String field = Fields.at(at, function == null ? "function" : "range");
            throw new InvalidInput(field, field + " is required with " + (function == null ? "range" : "function")
                    + ": a range function reads a range of each series (e.g. increase over 10m)");
        }
        if (range != null && !range.matches(".*[1-9].*")) {
            throw new InvalidInput(Fields.at(at, "range"), Fields.at(at, "range") + " must be longer than 0");
        }
        String aggregate = oneOf(item, "aggregate", at, AGGREGATES);
        List<String> by = labels(item.get("by"), Fields.at(at, "by"));
        if (aggregate == null && !by.isEmpty()) {
            throw new InvalidInput(Fields.at(at, "by"), Fields.at(at, "by") + " keeps labels of an aggregate; name aggregate too");
        }
        String comparison = oneOf(item, "comparison", at, COMPARISONS);
        BigDecimal threshold = Fields.number(item, "threshold", at, true, false);
        String forDuration = Fields.matching(item, "for", at, false, DURATION, "a Prometheus duration such as 10m");
        String severity = oneOf(item, "severity", at, SEVERITIES);
        String description = Fields.text(item, "description", at, false, MAX_DESCRIPTION);
        return new AlertThreshold(alert, metric, matchers, function, range, aggregate, by,
                comparison == null ? ">" : comparison, threshold, forDuration == null ? "5m" : forDuration,
                severity == null ? "warning" : severity, description);
    }

    /** The rule's PromQL expression. */
    public String expr() {
        StringBuilder series = new StringBuilder(metric);
        if (!matchers.isEmpty()) {
            series.append('{');
            matchers.forEach((k, v) -> series.append(series.charAt(series.length() - 1) == '{' ? "" : ", ")
                    .append(k).append("=\"").append(promString(v)).append('"'));
            series.append('}');
        }
        String e = function == null ? series.toString() : function + "(" + series + "[" + range + "])";
        if (aggregate != null) {
            e = aggregate + (by.isEmpty() ? "" : " by (" + String.join(", ", by) + ")") + " (" + e + ")";
        }
        return e + " " + comparison + " " + threshold.toPlainString();
    }

    @Override
    public Kind kind() {
        return Kind.ALERT_THRESHOLD;
    }

    @Override
    public ObjectNode json() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("kind", kind().name()).put("alert", alert)
                .put("metric", metric);
        if (!matchers.isEmpty()) {
            ObjectNode m = o.putObject("matchers");
            matchers.forEach(m::put);
        }
        if (function != null) {
            o.put("function", function).put("range", range);
        }
        if (aggregate != null) {
            o.put("aggregate", aggregate);
            ArrayNode labels = o.putArray("by");
            by.forEach(labels::add);
        }
        o.put("comparison", comparison).put("threshold", threshold).put("for", forDuration).put("severity", severity);
        if (description != null) {
            o.put("description", description);
        }
        return o;
    }

    @Override
    public String describe() {
        return "alert " + alert + " (" + severity + ") when " + expr() + " for " + forDuration;
    }

    /** A PromQL double-quoted string's content: backslash and quote escaped (line breaks never get this far). */
    static String promString(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static String oneOf(JsonNode item, String key, String at, Set<String> allowed) {
        String v = Fields.text(item, key, at, false, Fields.MAX_TEXT);
        if (v != null && !allowed.contains(v)) {
            throw new InvalidInput(Fields.at(at, key), Fields.at(at, key) + " must be one of "
                    + String.join(", ", new java.util.TreeSet<>(allowed)) + ", got '" + v + "'");
        }
        return v;
    }

    private static SortedMap<String, String> matchers(JsonNode node, String field) {
        SortedMap<String, String> out = new TreeMap<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isObject()) {
            throw new InvalidInput(field, field + " must be an object of label: value");
        }
        if (node.size() > MAX_MATCHERS) {
            throw new InvalidInput(field, field + " holds at most " + MAX_MATCHERS + " labels, got " + node.size());
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String at = field + "." + e.getKey();
            if (!LABEL.matcher(e.getKey()).matches()) {
                throw new InvalidInput(at, at + ": a label name is letters, digits and _ (not starting with a digit or __)");
            }
            out.put(e.getKey(), Fields.text(node, e.getKey(), field, true, Fields.MAX_TEXT));
        }
        return out;
    }

    private static List<String> labels(JsonNode node, String field) {
        List<String> out = new ArrayList<>();
        if (node == null || node.isNull()) {
            return out;
        }
        if (!node.isArray() || node.size() > MAX_MATCHERS) {
            throw new InvalidInput(field, field + " must be an array of at most " + MAX_MATCHERS + " label names");
        }
        for (int i = 0; i < node.size(); i++) {
            JsonNode label = node.get(i);
            if (!label.isTextual() || !LABEL.matcher(label.asText()).matches()) {
                throw new InvalidInput(field + "[" + i + "]", field + "[" + i + "] must be a label name, got " + label);
            }
            if (!out.contains(label.asText())) {
                out.add(label.asText());
            }
        }
        return out;
    }
}
