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
import java.time.YearMonth;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Q9, budgets and cost watch: each budgeted tenant's month so far and its linear forecast to the month's end against
 * the budget (billing's budget forecasts), and the last whole day's cost of each tenant against its trailing days
 * (cost anomalies). A tenant's token reads its own forecast only; the anomalies are fleet-wide.
 */
@Path("/budgets")
@Produces(MediaType.TEXT_HTML)
public class BudgetsResource {

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template budgets;

    public BudgetsResource(Session session, Upstream upstream, ObjectMapper json, @Location("budgets.html") Template budgets) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.budgets = budgets;
    }

    /** One tenant's month against its budget. */
    @TemplateData
    public record Forecast(String tenant, String budget, String spent, String elapsed, String forecast, String remaining,
                           String overrun, boolean over, boolean closed) {
    }

    /** One tenant's day against its trailing days. */
    @TemplateData
    public record Anomaly(String tenant, String cost, String mean, String stdDev, String threshold, boolean anomalous) {
    }

    @GET
    @Blocking
    public TemplateInstance budgets(@CookieParam(Session.COOKIE) String cookie, @QueryParam("month") String monthText,
                                    @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Budgets and cost watch", "budgets", viewer);
        YearMonth month = HoursResource.month(monthText, page);
        List<Forecast> forecasts = new ArrayList<>();
        List<Anomaly> anomalies = new ArrayList<>();
        String currency = "";
        String asOf = "";
        String day = "";
        boolean watched = false;
        if (month != null) {
            boolean tenant = viewer.tenant() != null;
            CompletableFuture<Answer> forecastCall = tenant
                    ? upstream.getJson(Backend.BILLING, "/api/v1/budgets/" + Format.segment(viewer.tenant()) + "/forecast?month=" + month, viewer.token())
                    : upstream.getJson(Backend.BILLING, "/api/v1/budget-forecasts?month=" + month, viewer.token());
            CompletableFuture<Answer> anomalyCall = tenant ? null
                    : upstream.getJson(Backend.BILLING, "/api/v1/cost-anomalies", viewer.token());
            // The month's cost per day, for the spend drawn against each budget through the month.
            CompletableFuture<Answer> seriesCall = upstream.getJson(Backend.BILLING, "/api/v1/reports/series?month=" + month
                    + "&bucket=day&groupBy=tenant", viewer.token());
            Answer f = forecastCall.join();
            page.call(f.call());
            if (!f.ok()) {
                if (tenant && f.status() == 404) {
                    page.message(Message.info(viewer.tenant() + " has no budget.", "An operator sets one with PUT /api/v1/budgets/"
                            + viewer.tenant() + "; until then billing forecasts nothing."));
                } else {
                    page.message(f.refusal());
                }
            } else {
                List<JsonNode> lines = new ArrayList<>();
                if (f.json().isArray()) {
                    f.json().forEach(lines::add);
                } else {
                    lines.add(f.json());
                }
                List<String> names = new ArrayList<>();
                List<Double> spent = new ArrayList<>();
                List<Double> rest = new ArrayList<>();
                List<BudgetBurn.Budget> burn = new ArrayList<>();
                for (JsonNode l : lines) {
                    String name = Format.text(l, "tenant");
                    currency = Optional.ofNullable(Format.text(l, "currency")).orElse(currency);
                    asOf = Optional.ofNullable(Format.text(l, "asOf")).orElse(asOf);
                    BigDecimal s = Format.decimal(l, "spentToDate");
                    BigDecimal fc = Format.decimal(l, "forecast");
                    BigDecimal b = Format.decimal(l, "budget");
                    boolean over = l.path("overrun").asBoolean();
                    forecasts.add(new Forecast(name, Format.number(b), Format.number(s), Format.percent(Format.decimalOrNull(l, "elapsedFraction")),
                            Format.number(fc), Format.number(Format.decimalOrNull(l, "remaining")),
                            over ? Format.number(Format.decimalOrNull(l, "overrunAmount")) : "", over, l.path("closed").asBoolean()));
                    names.add(name);
                    burn.add(new BudgetBurn.Budget(name, b, s, fc));
                    double per = b.signum() > 0 ? 100 / b.doubleValue() : 0;
                    spent.add(round(s.doubleValue() * per));
                    rest.add(round(Math.max(0, fc.subtract(s).doubleValue()) * per));
                }
                if (forecasts.isEmpty()) {
                    page.message(Message.info("No tenant has a budget for " + month + ".",
                            "An operator sets one with PUT /api/v1/budgets/{tenant}; billing then forecasts the month against it."));
                } else {
                    page.charts.add(Chart.of("budget-chart", "Spent and forecast against the budget", forecastChart(names, spent, rest), json));
                    Answer series = seriesCall.join();
                    page.call(series.call());
                    if (!series.ok()) {
                        page.message(series.refusal());
                    } else {
                        BudgetBurn.option(series.json(), burn, Format.instant(asOf).orElse(null)).ifPresent(option ->
                                page.charts.add(Chart.of("burn-chart", "The month's spend and forecast against the budget, day by day", option, json)));
                    }
                }
            }
            if (anomalyCall != null) {
                Answer a = anomalyCall.join();
                page.call(a.call());
                if (!a.ok()) {
                    page.message(a.refusal());
                } else {
                    watched = true;
                    day = Optional.ofNullable(Format.text(a.json(), "day")).orElse("");
                    List<String> names = new ArrayList<>();
                    List<Map<String, Object>> cost = new ArrayList<>();
                    List<Double> threshold = new ArrayList<>();
                    List<Double> mean = new ArrayList<>();
                    for (JsonNode j : a.json().path("tenants")) {
                        boolean anomalous = j.path("anomalous").asBoolean();
                        anomalies.add(new Anomaly(Format.text(j, "tenant"), Format.number(Format.decimalOrNull(j, "cost")),
                                Format.number(Format.decimalOrNull(j, "trailingMean")), Format.number(Format.decimalOrNull(j, "trailingStdDev")),
                                Format.number(Format.decimalOrNull(j, "threshold")), anomalous));
                        names.add(Format.text(j, "tenant"));
                        cost.add(Map.of("value", Format.decimal(j, "cost").doubleValue(),
                                "itemStyle", Map.of("color", anomalous ? Palette.RED : Palette.BLUE)));
                        threshold.add(Format.decimal(j, "threshold").doubleValue());
                        mean.add(Format.decimal(j, "trailingMean").doubleValue());
                    }
                    if (!anomalies.isEmpty()) {
                        page.charts.add(Chart.of("anomaly-chart", "A day's cost against the trailing days", anomalyChart(names, cost, mean, threshold,
                                Optional.ofNullable(Format.text(a.json(), "currency")).orElse("")), json));
                    }
                }
            }
        }
        YearMonth shown = month != null ? month : YearMonth.now(java.time.ZoneOffset.UTC);
        return budgets.data("page", page).data("forecasts", forecasts).data("anomalies", anomalies).data("watched", watched).data("currency", currency)
                .data("asOf", asOf).data("day", day).data("month", shown.toString())
                .data("previous", shown.minusMonths(1).toString()).data("next", shown.plusMonths(1).toString());
    }

    private static double round(double value) {
        return Math.round(value * 10) / 10.0;
    }

    /** Spent and the forecast's rest as shares of each tenant's budget, so that small and large budgets read alike. */
    private static Map<String, Object> forecastChart(List<String> names, List<Double> spent, List<Double> rest) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 70, "right", 70, "top", 40, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", names));
        option.put("yAxis", Map.of("type", "value", "name", "% of budget"));
        option.put("series", List.of(
                Map.of("name", "spent to date", "type", "bar", "stack", "m", "barMaxWidth", 60, "color", Palette.BLUE, "data", spent),
                Map.of("name", "forecast to month's end", "type", "bar", "stack", "m", "barMaxWidth", 60, "color", Palette.LIGHT_BLUE, "data", rest,
                        "markLine", Map.of("symbol", "none", "silent", true, "lineStyle", Map.of("color", Palette.RED, "type", "dashed", "width", 2),
                                "label", Map.of("formatter", "budget"), "data", List.of(Map.of("yAxis", 100))))));
        return option;
    }

    private static Map<String, Object> anomalyChart(List<String> names, List<Map<String, Object>> cost, List<Double> mean,
                                                    List<Double> threshold, String currency) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 70, "right", 20, "top", 40, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", names));
        option.put("yAxis", Map.of("type", "value", "name", currency));
        option.put("series", List.of(
                Map.of("name", "the day's cost", "type", "bar", "barMaxWidth", 50, "color", Palette.BLUE, "data", cost),
                Map.of("name", "trailing mean", "type", "scatter", "symbol", "rect", "symbolSize", List.of(50, 3), "z", 3, "color", Palette.SLATE, "data", mean),
                Map.of("name", "threshold", "type", "scatter", "symbol", "rect", "symbolSize", List.of(50, 3), "z", 3, "color", Palette.NIGHT, "data", threshold)));
        return option;
    }
}
