package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Q5, the SLOs: each one's attainment and error budget as of the window's end (slo-service's states, one call), the
 * error budget left at instants across the window (its burn-down), and for a latency SLO on a service the curve of
 * the objective's percentile per minute against the threshold. A tenant's token reads the SLOs that select its
 * tenant, without service curves or burn-down (those merge every tenant's requests or are fleet reads).
 */
@Path("/slos")
@Produces(MediaType.TEXT_HTML)
public class SlosResource {

    /** Instants of the burn-down, the window's end included. */
    static final int BURN_POINTS = 7;
    /** SLOs drawn in the burn-down, at most, so that its lines stay legible. */
    static final int BURN_SLOS = 10;

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template slos;

    public SlosResource(Session session, Upstream upstream, ObjectMapper json, @Location("slos.html") Template slos) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.slos = slos;
    }

    /** One SLO's standing, with the id of its latency chart when it has one. */
    @TemplateData
    public record Row(String name, String selector, String sli, String objective, String target, String window, String state,
                      String attainment, String events, String budgetLeft, String firing, boolean breached, String chart) {
    }

    @GET
    @Blocking
    public TemplateInstance slos(@CookieParam(Session.COOKIE) String cookie, @QueryParam("to") String toText,
                                 @QueryParam("window") String windowText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("SLOs", "slos", viewer);
        Span span = Span.parse(toText, windowText, page);
        List<Row> rows = new ArrayList<>();
        if (span.readable()) {
            // Every SLO's state and, for the fleet's burn-down, its budget left across the window: one read.
            Answer answer = upstream.getJson(Backend.SLO, "/api/v1/slo-states?" + span.query()
                    + (viewer.fleet() ? "&budgetPoints=" + BURN_POINTS : ""), viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                List<String> names = new ArrayList<>();
                List<Map<String, Object>> attained = new ArrayList<>();
                List<Double> targets = new ArrayList<>();
                List<JsonNode> states = new ArrayList<>();
                answer.json().forEach(states::add);
                for (int n = 0; n < states.size(); n++) {
                    JsonNode s = states.get(n);
                    JsonNode slo = s.path("slo");
                    JsonNode status = s.path("status");
                    String name = Format.text(slo, "name");
                    BigDecimal target = Format.decimalOrNull(slo, "target");
                    BigDecimal attainment = Format.decimalOrNull(status, "attainment");
                    boolean breached = attainment != null && target != null && attainment.compareTo(target) < 0;
                    long firing = 0;
                    for (JsonNode a : status.path("alerts")) {
                        if (a.path("firing").asBoolean()) {
                            firing++;
                        }
                    }
                    String chart = null;
                    JsonNode latency = s.path("latency");
                    JsonNode objective = slo.path("objective");
                    if (latency.isObject() && latency.path("minutes").size() > 0) {
                        chart = "slo-" + n + "-chart";
                        page.charts.add(Chart.of(chart, name + ": the percentile per minute against the objective",
                                latencyChart(latency, objective, span), json));
                    }
                    JsonNode problem = s.path("problem");
                    if (problem.isObject()) {
                        // stored before services belonged to a namespace, and its service's name is now reported by several
                        page.message(Message.error("SLO " + name + " has no status", Format.text(problem, "detail"),
                                "Replace it (PUT /api/v1/slos/" + name + ") with the namespace of the service it means."));
                    }
                    JsonNode budget = status.path("errorBudget");
                    rows.add(new Row(name, selector(slo.path("selector")), Format.text(slo, "sli"), objective(objective),
                            Format.percent(target), Format.text(slo, "window"), Format.text(status, "state"), Format.percent(attainment),
                            status.path("goodEvents").asLong() + " / " + status.path("totalEvents").asLong(),
                            Format.percent(Format.decimalOrNull(budget, "remaining")), firing == 0 ? "" : Long.toString(firing),
                            breached, chart));
                    names.add(name);
                    double value = attainment == null ? 0 : attainment.doubleValue() * 100;
                    attained.add(Map.of("value", value, "itemStyle", Map.of("color", breached ? Palette.RED : Palette.GREEN)));
                    targets.add(target == null ? 0 : target.doubleValue() * 100);
                }
                if (rows.isEmpty()) {
                    page.message(Message.info(viewer.tenant() != null ? "No SLO selects " + viewer.tenant() + "." : "No SLO is defined.",
                            "An operator defines one with POST /api/v1/slos (a service's or a tenant's latency or availability)."));
                } else {
                    page.charts.add(Chart.of("attainment-chart", "Attainment against the target", attainmentChart(names, attained, targets), json));
                    if (viewer.fleet()) {
                        burnDown(page, states.subList(0, Math.min(BURN_SLOS, states.size())));
                        if (names.size() > BURN_SLOS) {
                            page.message(Message.info("The burn-down draws the first " + BURN_SLOS + " of " + names.size() + " SLOs.",
                                    "The table has them all; each SLO's status over time is GET /api/v1/slos/{name}/status?at=."));
                        }
                    }
                }
            }
        }
        return slos.data("page", page).data("rows", rows).data("attainmentHeight", Math.max(page.chart("burn-chart") != null ? 280 : 160, rows.size() * 40 + 80)).data("span", span).data("windows", Span.windows());
    }

    /** The budget left as of instants across the window, as slo-states answered it beside each SLO's status. */
    private void burnDown(Page page, List<JsonNode> states) {
        List<Map<String, Object>> series = new ArrayList<>();
        for (JsonNode s : states) {
            List<List<Object>> points = new ArrayList<>();
            for (JsonNode p : s.path("budgetLeft")) {
                BigDecimal left = Format.decimalOrNull(p, "remaining");
                Optional<Instant> at = Optional.ofNullable(Format.text(p, "at")).flatMap(Format::instant);
                if (left != null && at.isPresent()) {
                    points.add(List.of(Format.rfc3339(at.get()), left.movePointRight(2).doubleValue()));
                }
            }
            series.add(Map.of("name", Optional.ofNullable(Format.text(s.path("slo"), "name")).orElse(""), "type", "line",
                    "showSymbol", true, "data", points));
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis"));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 40, "bottom", 40));
        option.put("xAxis", Map.of("type", "time"));
        option.put("yAxis", Map.of("type", "value", "name", "% of budget left"));
        option.put("series", series);
        page.charts.add(Chart.of("burn-chart", "Error budget left across the window", option, json));
    }

    private static String selector(JsonNode s) {
        List<String> parts = new ArrayList<>();
        for (String f : List.of("service", "tenant", "namespace")) {
            if (s.hasNonNull(f)) {
                parts.add(f + "=" + s.get(f).asText());
            }
        }
        return String.join(", ", parts);
    }

    private static String objective(JsonNode o) {
        if (!o.isObject()) {
            return "";
        }
        return "p" + Format.decimal(o, "percentile").stripTrailingZeros().toPlainString() + " ≤ "
                + Format.decimal(o, "thresholdMs").stripTrailingZeros().toPlainString() + " ms per "
                + Optional.ofNullable(Format.text(o, "per")).orElse("").toLowerCase(java.util.Locale.ROOT);
    }

    /** The curve's field nearest the objective's percentile: p50, p95 or p99 (the default). */
    static String percentileField(JsonNode objective) {
        BigDecimal p = Format.decimalOrNull(objective, "percentile");
        if (p == null || p.compareTo(BigDecimal.valueOf(97)) >= 0) {
            return "p99Ms";
        }
        return p.compareTo(BigDecimal.valueOf(75)) >= 0 ? "p95Ms" : "p50Ms";
    }

    private static Map<String, Object> latencyChart(JsonNode latency, JsonNode objective, Span span) {
        String field = percentileField(objective);
        List<List<Object>> points = new ArrayList<>();
        for (JsonNode m : latency.path("minutes")) {
            JsonNode v = m.path("latency").get(field);
            if (v != null && !v.isNull()) {
                points.add(List.of(Format.text(m, "minute"), v.asDouble()));
            }
        }
        Map<String, Object> series = new LinkedHashMap<>();
        series.put("name", field.replace("Ms", ""));
        series.put("type", "line");
        series.put("showSymbol", false);
        series.put("color", Palette.BLUE);
        series.put("data", points);
        if (objective.isObject()) {
            series.put("markLine", Map.of("symbol", "none", "silent", true, "lineStyle", Map.of("color", Palette.RED, "type", "dashed"),
                    "label", Map.of("formatter", "objective " + Format.decimal(objective, "thresholdMs").stripTrailingZeros().toPlainString() + " ms"),
                    "data", List.of(Map.of("yAxis", Format.decimal(objective, "thresholdMs").doubleValue()))));
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis"));
        option.put("grid", Map.of("left", 60, "right", 130, "top", 20, "bottom", 40));
        option.put("xAxis", Map.of("type", "time", "min", Format.rfc3339(span.from()), "max", span.rfc3339To()));
        option.put("yAxis", Map.of("type", "value", "name", "ms"));
        option.put("series", List.of(series));
        return option;
    }

    private static Map<String, Object> attainmentChart(List<String> names, List<Map<String, Object>> attained, List<Double> targets) {
        double floor = Math.max(0, Math.floor(Math.min(
                attained.stream().mapToDouble(a -> (Double) a.get("value")).min().orElse(90),
                targets.stream().mapToDouble(Double::doubleValue).min().orElse(90)) - 1));
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 160, "right", 30, "top", 40, "bottom", 30));
        option.put("xAxis", Map.of("type", "value", "min", floor, "max", 100, "name", "%"));
        option.put("yAxis", Map.of("type", "category", "data", names, "inverse", true));
        option.put("series", List.of(
                Map.of("name", "attainment", "type", "bar", "barMaxWidth", 24, "color", Palette.GREEN, "data", attained),
                Map.of("name", "target", "type", "scatter", "symbol", "rect", "symbolSize", List.of(4, 28), "color", Palette.NIGHT, "data", targets)));
        return option;
    }
}
