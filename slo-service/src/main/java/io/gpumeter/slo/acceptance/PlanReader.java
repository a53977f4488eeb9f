package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.slo.acceptance.Plan.Cell;
import io.gpumeter.slo.acceptance.Plan.Clause;
import io.gpumeter.slo.acceptance.Plan.Form;
import io.gpumeter.slo.acceptance.Plan.Kind;
import io.gpumeter.slo.acceptance.Plan.Metric;
import io.gpumeter.slo.domain.Sli;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads a plan from its JSON, field by field, so that whatever is wrong is answered as a 400 naming the field
 * ({@code cells[1].form}, {@code assertions[0].maxRatio}) and what was expected.
 */
public final class PlanReader {

    /** Cell names appear in file names inside the pack: keep them to a DNS label. */
    static final Pattern CELL_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    static final int MAX_CELLS = 32;
    static final int MAX_ASSERTIONS = 100;
    static final int MAX_TEXT = 200;

    private PlanReader() {
    }

    /** @throws InvalidInput naming the first field at fault */
    public static Plan read(JsonNode root, Duration longestWindow) {
        if (root == null || !root.isObject()) {
            throw new InvalidInput("plan", "the body must be a JSON object: name, from, to, cells and assertions");
        }
        String name = text(root, "name", "name", true);
        Instant from = instant(root, "from");
        Instant to = instant(root, "to");
        if (!to.isAfter(from)) {
            throw new InvalidInput("to", "to must be after from");
        }
        if (Duration.between(from, to).compareTo(longestWindow) > 0) {
            throw new InvalidInput("to", "a plan's window spans at most " + longestWindow + "; narrow from/to");
        }
        List<Cell> cells = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (JsonNode c : array(root, "cells", MAX_CELLS)) {
            String at = "cells[" + cells.size() + "]";
            Cell cell = cell(c, at);
            if (!names.add(cell.name())) {
                throw new InvalidInput(at + ".name", at + ".name '" + cell.name() + "' names a cell twice");
            }
            cells.add(cell);
        }
        List<Clause> clauses = new ArrayList<>();
        Set<String> clauseNames = new HashSet<>();
        for (JsonNode a : array(root, "assertions", MAX_ASSERTIONS)) {
            String at = "assertions[" + clauses.size() + "]";
            Clause clause = clause(a, at, names);
            if (!clauseNames.add(clause.name())) {
                throw new InvalidInput(at + ".name", at + ".name '" + clause.name() + "' names an assertion twice");
            }
            clauses.add(clause);
        }
        return new Plan(name, from, to, List.copyOf(cells), List.copyOf(clauses));
    }

    private static Cell cell(JsonNode c, String at) {
        if (!c.isObject()) {
            throw new InvalidInput(at, at + " must be an object: name, workload, form and selector");
        }
        String name = text(c, "name", at + ".name", true);
        if (!CELL_NAME.matcher(name).matches()) {
            throw new InvalidInput(at + ".name", at + ".name must be 1-63 lower-case letters, digits and '-', got '"
                    + name + "'");
        }
        String workload = text(c, "workload", at + ".workload", true);
        Form form = member(c, "form", at + ".form", Form.values());
        JsonNode s = c.get("selector");
        if (s == null || !s.isObject()) {
            throw new InvalidInput(at + ".selector", at + ".selector is required: an object naming service,"
                    + " namespace and/or tenant");
        }
        String service = text(s, "service", at + ".selector.service", false);
        String namespace = text(s, "namespace", at + ".selector.namespace", false);
        String tenant = text(s, "tenant", at + ".selector.tenant", false);
        if (service == null && namespace == null && tenant == null) {
            throw new InvalidInput(at + ".selector", at + ".selector must name a service, a namespace or a tenant");
        }
        return new Cell(name, workload, form, new Plan.Selector(service, namespace, tenant));
    }

    private static Clause clause(JsonNode a, String at, Set<String> cells) {
        if (!a.isObject()) {
            throw new InvalidInput(at, at + " must be an object naming kind and its limits");
        }
        String name = text(a, "name", at + ".name", true);
        Kind kind = member(a, "kind", at + ".kind", Kind.values());
        if (kind == Kind.BLOCKED) {
            String namespace = text(a, "namespace", at + ".namespace", true);
            String pod = text(a, "pod", at + ".pod", true);
            Duration within = duration(a, at + ".within");
            return new Clause(name, kind, null, null, null, null, null, null, namespace, pod, within);
        }
        Metric metric = member(a, "metric", at + ".metric", Metric.values());
        Sli sli = null;
        if (metric.takesSli()) {
            sli = member(a, "sli", at + ".sli", new Sli[]{Sli.TTFT, Sli.ITL, Sli.E2E});
        }
        String cell = cellName(a, "cell", at, cells);
        if (kind == Kind.RATIO) {
            String baseline = cellName(a, "baselineCell", at, cells);
            if (baseline.equals(cell)) {
                throw new InvalidInput(at + ".baselineCell", at + ".baselineCell must differ from cell");
            }
            BigDecimal max = number(a, "maxRatio", at);
            BigDecimal min = number(a, "minRatio", at);
            requireLimit(max, min, at + (metric.higherIsBetter() ? ".minRatio" : ".maxRatio"), "maxRatio or minRatio");
            return new Clause(name, kind, metric, sli, cell, baseline, max, min, null, null, null);
        }
        if (metric.inMilliseconds()) {
            BigDecimal maxMs = number(a, "maxMs", at);
            if (a.has("max")) {
                throw new InvalidInput(at + ".max", at + ".max is for figures not in milliseconds; " + metric
                        + "'s limit is maxMs");
            }
            requireLimit(maxMs, null, at + ".maxMs", "maxMs");
            return new Clause(name, kind, metric, sli, cell, null, maxMs, null, null, null, null);
        }
        if (a.has("maxMs")) {
            throw new InvalidInput(at + ".maxMs", at + ".maxMs is for figures in milliseconds; " + metric + " ("
                    + metric.unit() + ") takes max or min");
        }
        BigDecimal max = number(a, "max", at);
        BigDecimal min = number(a, "min", at);
        requireLimit(max, min, at + (metric.higherIsBetter() ? ".min" : ".max"), "max or min");
        return new Clause(name, kind, metric, null, cell, null, max, min, null, null, null);
    }

    private static void requireLimit(BigDecimal max, BigDecimal min, String field, String names) {
        if (max == null && min == null) {
            throw new InvalidInput(field, field + " is required (" + names + ", a number above 0)");
        }
    }

    private static String cellName(JsonNode a, String key, String at, Set<String> cells) {
        String name = text(a, key, at + "." + key, true);
        if (!cells.contains(name)) {
            throw new InvalidInput(at + "." + key, at + "." + key + " '" + name + "' names no cell of the plan");
        }
        return name;
    }

    private static BigDecimal number(JsonNode a, String key, String at) {
        JsonNode n = a.get(key);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isNumber() || n.decimalValue().signum() <= 0) {
            throw new InvalidInput(at + "." + key, at + "." + key + " must be a number above 0, got " + n);
        }
        return n.decimalValue().stripTrailingZeros();
    }

    private static String text(JsonNode node, String key, String field, boolean required) {
        JsonNode v = node.get(key);
        if (v == null || v.isNull()) {
            if (required) {
                throw new InvalidInput(field, field + " is required");
            }
            return null;
        }
        if (!v.isTextual() || v.asText().isBlank() || v.asText().length() > MAX_TEXT
                || v.asText().chars().anyMatch(Character::isISOControl)) {
            throw new InvalidInput(field, field + " must be text of 1-" + MAX_TEXT + " printable characters");
        }
        return v.asText().strip();
    }

    private static Instant instant(JsonNode root, String key) {
        String v = text(root, key, key, true);
        try {
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw new InvalidInput(key, key + " must be an ISO-8601 instant such as 2026-11-02T10:00:00Z, got '"
                    + v + "'");
        }
    }

    private static Duration duration(JsonNode a, String field) {
        String v = text(a, "within", field, true);
        try {
            Duration d = Duration.parse(v);
            if (d.isNegative() || d.isZero()) {
                throw new InvalidInput(field, field + " must be a positive ISO-8601 duration such as PT5M");
            }
            return d;
        } catch (DateTimeParseException e) {
            throw new InvalidInput(field, field + " must be an ISO-8601 duration such as PT5M, got '" + v + "'");
        }
    }

    private static Iterable<JsonNode> array(JsonNode root, String key, int most) {
        JsonNode v = root.get(key);
        if (v == null || !v.isArray() || v.isEmpty()) {
            throw new InvalidInput(key, key + " must be a non-empty array");
        }
        if (v.size() > most) {
            throw new InvalidInput(key, key + " holds at most " + most + " entries, got " + v.size());
        }
        return v;
    }

    private static <E extends Enum<E>> E member(JsonNode node, String key, String field, E[] members) {
        String v = text(node, key, field, true);
        return Arrays.stream(members).filter(m -> m.name().equals(v.toUpperCase(Locale.ROOT))).findFirst()
                .orElseThrow(() -> new InvalidInput(field, field + " must be one of " + String.join(", ",
                        Arrays.stream(members).map(Enum::name).toList()) + ", got '" + v + "'"));
    }
}
