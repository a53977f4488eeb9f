package io.gpumeter.alert.review;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.InvalidInput;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Make the platform's acceptance prove it does not happen again: one cell of an acceptance plan (and a baseline cell
 * for a ratio) with its assertion, in the fields and by the rules of slo-service's plan ({@code POST
 * /api/v1/acceptance/runs}), so that the exported plan is one slo-service takes.
 *
 * @param cell      name, workload, form and selector of the cell the assertion judges
 * @param baseline  the cell a RATIO compares with, else null
 * @param assertion the clause without its cell names (the export fills them in)
 */
public record AcceptanceItem(ObjectNode cell, ObjectNode baseline, ObjectNode assertion) implements Prevention {

    /** slo-service's plan: the arms of the control group, the clause shapes, what a clause measures, the SLIs. */
    enum Form { DEDICATED, UNGOVERNED_SHARING, HAMI, MIG }

    enum Clause { THRESHOLD, RATIO, BLOCKED }

    enum Metric {
        P50, P95, P99, MAX, THROUGHPUT, TOKENS_PER_S, COLD_START, INTERFERENCE_FACTOR, P99_SPREAD, JITTER_EVENT_RATE,
        FAILURE_RATE, MTTR, FRAGMENTATION, USED_ALLOCATED, TOKENS_PER_JOULE, ALLOCATED_COST, USED_COST, IDLE_COST,
        QUEUE_WAIT_P50, QUEUE_WAIT_P95;

        boolean latency() {
            return this == P50 || this == P95 || this == P99 || this == MAX;
        }

        /** A figure of one SLI's latency curve (its percentiles, the p99's spread): the clause names its SLI. */
        boolean takesSli() {
            return latency() || this == P99_SPREAD;
        }

        /** Given in milliseconds, as the SLI figures are: a THRESHOLD's limit is maxMs, never max or min. */
        boolean inMilliseconds() {
            return takesSli();
        }
    }

    enum Sli { TTFT, ITL, E2E }

    /** A cell's name appears in file names of slo-service's pack: a DNS label. */
    static final Pattern CELL_NAME = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

    static AcceptanceItem read(JsonNode item, String at) {
        Fields.object(item, at, Set.of("kind", "cell", "baseline", "assertion"),
                "cell (name, workload, form, selector), assertion, and baseline for a RATIO");
        ObjectNode cell = cell(item.get("cell"), Fields.at(at, "cell"), "incident");
        ObjectNode baseline = item.hasNonNull("baseline") ? cell(item.get("baseline"), Fields.at(at, "baseline"), "baseline") : null;
        if (baseline != null && baseline.get("name").asText().equals(cell.get("name").asText())) {
            throw new InvalidInput(Fields.at(at, "baseline.name"), Fields.at(at, "baseline.name") + " must differ from cell.name");
        }
        ObjectNode assertion = assertion(item.get("assertion"), Fields.at(at, "assertion"), baseline != null);
        return new AcceptanceItem(cell, baseline, assertion);
    }

    private static ObjectNode cell(JsonNode c, String at, String defaultName) {
        Fields.object(c, at, Set.of("name", "workload", "form", "selector"), "workload, form, selector and an optional name");
        String name = c.hasNonNull("name") ? Fields.matching(c, "name", at, true, CELL_NAME,
                "1-63 lower-case letters, digits and '-'") : defaultName;
        String workload = Fields.text(c, "workload", at, true, Fields.MAX_TEXT);
        Form form = Fields.member(c, "form", at, Form.values(), null);
        JsonNode s = c.get("selector");
        String sel = Fields.at(at, "selector");
        if (s == null || s.isNull()) {
            throw new InvalidInput(sel, sel + " is required: an object naming service, namespace and/or tenant");
        }
        Fields.object(s, sel, Set.of("service", "namespace", "tenant"), "service, namespace and/or tenant");
        ObjectNode selector = JsonNodeFactory.instance.objectNode();
        for (String key : new String[]{"service", "namespace", "tenant"}) {
            String v = Fields.text(s, key, sel, false, Fields.MAX_TEXT);
            if (v != null) {
                selector.put(key, v);
            }
        }
        if (selector.isEmpty()) {
            throw new InvalidInput(sel, sel + " must name a service, a namespace or a tenant");
        }
        ObjectNode out = JsonNodeFactory.instance.objectNode().put("name", name).put("workload", workload)
                .put("form", form.name());
        out.set("selector", selector);
        return out;
    }

    private static ObjectNode assertion(JsonNode a, String at, boolean hasBaseline) {
        Fields.object(a, at, Set.of("name", "kind", "metric", "sli", "maxMs", "max", "min", "maxRatio", "minRatio",
                "namespace", "pod", "within"), "name, kind and the limits its kind takes");
        ObjectNode out = JsonNodeFactory.instance.objectNode();
        out.put("name", Fields.text(a, "name", at, true, Fields.MAX_TEXT));
        Clause kind = Fields.member(a, "kind", at, Clause.values(), null);
        out.put("kind", kind.name());
        if (kind == Clause.BLOCKED) {
            only(a, at, Set.of("name", "kind", "namespace", "pod", "within"), "BLOCKED takes namespace, pod and within");
            out.put("namespace", Fields.text(a, "namespace", at, true, Fields.MAX_TEXT));
            out.put("pod", Fields.text(a, "pod", at, true, Fields.MAX_TEXT));
            out.put("within", within(a, at));
            return out;
        }
        Metric metric = Fields.member(a, "metric", at, Metric.values(), null);
        out.put("metric", metric.name());
        if (metric.takesSli()) {
            out.put("sli", Fields.member(a, "sli", at, Sli.values(), null).name());
        } else if (a.hasNonNull("sli")) {
            throw new InvalidInput(Fields.at(at, "sli"), Fields.at(at, "sli") + " is for latency metrics (P50, P95,"
                    + " P99, MAX, P99_SPREAD)");
        }
        if (kind == Clause.RATIO) {
            if (!hasBaseline) {
                throw new InvalidInput(Fields.at(at.substring(0, at.lastIndexOf('.')), "baseline"),
                        "a RATIO compares the cell with a baseline cell: name baseline");
            }
            only(a, at, Set.of("name", "kind", "metric", "sli", "maxRatio", "minRatio"), "RATIO takes maxRatio or minRatio");
            limits(a, at, out, "maxRatio", "minRatio");
            return out;
        }
        if (metric.inMilliseconds()) {
            only(a, at, Set.of("name", "kind", "metric", "sli", "maxMs"), "a latency THRESHOLD takes maxMs");
            out.put("maxMs", Fields.number(a, "maxMs", at, true, true));
            return out;
        }
        only(a, at, Set.of("name", "kind", "metric", "max", "min"), metric + " THRESHOLD takes max or min");
        limits(a, at, out, "max", "min");
        return out;
    }

    private static void limits(JsonNode a, String at, ObjectNode out, String max, String min) {
        BigDecimal hi = Fields.number(a, max, at, false, true);
        BigDecimal lo = Fields.number(a, min, at, false, true);
        if (hi == null && lo == null) {
            throw new InvalidInput(Fields.at(at, max), Fields.at(at, max) + " is required (" + max + " or " + min
                    + ", a number above 0)");
        }
        if (hi != null) {
            out.put(max, hi);
        }
        if (lo != null) {
            out.put(min, lo);
        }
    }

    private static void only(JsonNode a, String at, Set<String> allowed, String what) {
        Fields.object(a, at, allowed, what);
    }

    private static String within(JsonNode a, String at) {
        String field = Fields.at(at, "within");
        String v = Fields.text(a, "within", at, true, Fields.MAX_TEXT);
        try {
            Duration d = Duration.parse(v);
            if (d.isNegative() || d.isZero()) {
                throw new InvalidInput(field, field + " must be a positive ISO-8601 duration such as PT5M");
            }
            return d.toString();
        } catch (DateTimeParseException e) {
            throw new InvalidInput(field, field + " must be an ISO-8601 duration such as PT5M, got '" + v + "'");
        }
    }

    /** The cells the plan holds: the judged one, and the baseline when there is one. */
    public ArrayNode cells() {
        ArrayNode cells = JsonNodeFactory.instance.arrayNode().add(cell.deepCopy());
        if (baseline != null) {
            cells.add(baseline.deepCopy());
        }
        return cells;
    }

    /** The assertion as the plan holds it: with its cell (and baseline cell) named. */
    public ObjectNode planAssertion() {
        ObjectNode a = assertion.deepCopy();
        if (!"BLOCKED".equals(a.path("kind").asText())) {
            a.put("cell", cell.get("name").asText());
            if ("RATIO".equals(a.path("kind").asText())) {
                a.put("baselineCell", baseline.get("name").asText());
            }
        }
        return a;
    }

    @Override
    public Kind kind() {
        return Kind.ACCEPTANCE_ITEM;
    }

    @Override
    public ObjectNode json() {
        ObjectNode o = JsonNodeFactory.instance.objectNode().put("kind", kind().name());
        o.set("cell", cell.deepCopy());
        if (baseline != null) {
            o.set("baseline", baseline.deepCopy());
        }
        o.set("assertion", assertion.deepCopy());
        return o;
    }

    @Override
    public String describe() {
        ObjectNode a = assertion;
        String limit = a.has("maxMs") ? "≤ " + a.get("maxMs").asText() + " ms" : a.has("max") ? "≤ " + a.get("max").asText()
                : a.has("min") ? "≥ " + a.get("min").asText() : a.has("maxRatio") ? "≤ " + a.get("maxRatio").asText() + "× baseline"
                : a.has("minRatio") ? "≥ " + a.get("minRatio").asText() + "× baseline" : "within " + a.path("within").asText();
        String what = a.has("metric") ? a.get("metric").asText() + (a.has("sli") ? " " + a.get("sli").asText() : "")
                : "pod " + a.path("namespace").asText() + "/" + a.path("pod").asText() + " held back";
        return "acceptance assertion '" + a.get("name").asText() + "': " + what + " " + limit + " in cell "
                + cell.get("name").asText() + " (" + cell.get("workload").asText() + ", " + cell.get("form").asText() + ")";
    }
}
