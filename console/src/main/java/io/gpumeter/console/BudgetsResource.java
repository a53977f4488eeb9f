package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.console.BillingAnswers.Anomalies;
import io.gpumeter.console.BillingAnswers.Forecast;
import io.gpumeter.console.BillingAnswers.TenantDay;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
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
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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

    @GET
    @Blocking
    public TemplateInstance budgets(@CookieParam(Session.COOKIE) String cookie, @QueryParam("month") String monthText,
                                    @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Budgets and cost watch", "budgets", viewer);
        YearMonth month = HoursResource.month(monthText, page);
        List<Forecast> forecasts = List.of();
        Anomalies anomalies = null;
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
            forecasts = forecasts(forecastCall.join(), seriesCall, viewer, month, page);
            if (anomalyCall != null) {
                anomalies = anomalies(anomalyCall.join(), page);
            }
        }
        YearMonth shown = month != null ? month : YearMonth.now(ZoneOffset.UTC);
        String currency = forecasts.stream().map(Forecast::currency).filter(Objects::nonNull).reduce((a, b) -> b).orElse("");
        return budgets.data("page", page).data("forecasts", forecasts)
                .data("anomalies", anomalies == null || anomalies.tenants() == null ? List.of() : anomalies.tenants())
                .data("watched", anomalies != null).data("currency", currency).data("asOf", asOf(forecasts))
                .data("day", anomalies == null || anomalies.day() == null ? "" : anomalies.day()).data("month", shown.toString())
                .data("previous", shown.minusMonths(1).toString()).data("next", shown.plusMonths(1).toString());
    }

    /** Billing's forecasts, a tenant's one or every budgeted tenant's, drawn against their budgets. */
    private List<Forecast> forecasts(Answer f, CompletableFuture<Answer> seriesCall, Viewer viewer, YearMonth month, Page page) {
        page.call(f.call());
        if (!f.ok()) {
            if (viewer.tenant() != null && f.status() == 404) {
                page.message(Message.info(viewer.tenant() + " has no budget.", "An operator sets one with PUT /api/v1/budgets/"
                        + viewer.tenant() + "; until then billing forecasts nothing."));
            } else {
                page.message(f.refusal());
            }
            return List.of();
        }
        List<Forecast> forecasts = viewer.tenant() != null ? List.of(f.as(json, Forecast.class)) : f.listOf(json, Forecast.class);
        if (forecasts.isEmpty()) {
            page.message(Message.info("No tenant has a budget for " + month + ".",
                    "An operator sets one with PUT /api/v1/budgets/{tenant}; billing then forecasts the month against it."));
            return forecasts;
        }
        page.charts.add(Chart.of("budget-chart", "Spent and forecast against the budget", forecastChart(forecasts), json));
        Answer series = seriesCall.join();
        page.call(series.call());
        if (!series.ok()) {
            page.message(series.refusal());
        } else {
            BudgetBurn.chart(new CostSeries(series.as(json, BillingAnswers.Series.class)), forecasts,
                            Format.instant(asOf(forecasts)).orElse(null))
                    .ifPresent(chart -> page.charts.add(Chart.of("burn-chart", "The month's spend and forecast against the budget, day by day",
                            chart, json)));
        }
        return forecasts;
    }

    private Anomalies anomalies(Answer a, Page page) {
        page.call(a.call());
        if (!a.ok()) {
            page.message(a.refusal());
            return null;
        }
        Anomalies anomalies = a.as(json, Anomalies.class);
        List<TenantDay> tenants = anomalies.tenants() == null ? List.of() : anomalies.tenants();
        if (!tenants.isEmpty()) {
            page.charts.add(Chart.of("anomaly-chart", "A day's cost against the trailing days",
                    anomalyChart(tenants, anomalies.currency() == null ? "" : anomalies.currency()), json));
        }
        return anomalies;
    }

    /** The instant billing forecast at, as its last forecast that says one; "" when none does. */
    private static String asOf(List<Forecast> forecasts) {
        return forecasts.stream().map(Forecast::asOf).filter(Objects::nonNull).reduce((a, b) -> b).orElse("");
    }

    /** Spent and the forecast's rest as shares of each tenant's budget, so that small and large budgets read alike. */
    private static ChartOption forecastChart(List<Forecast> forecasts) {
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(70, 70, 40, 40)
                .categoriesAcross(forecasts.stream().map(Forecast::tenant).toList(), Integer.MAX_VALUE).valuesUp("% of budget", null);
        chart.bars("spent to date", forecasts.stream().map(f -> share(f, f.spentToDate())).toList()).stack("m").width(60)
                .colour(Palette.BLUE);
        chart.bars("forecast to month's end", forecasts.stream().map(f -> share(f, rest(f))).toList()).stack("m").width(60)
                .colour(Palette.LIGHT_BLUE).level(100, "budget", Palette.RED);
        return chart;
    }

    /** What the forecast adds to the spend by the month's end; nothing when it adds nothing. */
    private static BigDecimal rest(Forecast f) {
        BigDecimal rest = zero(f.forecast()).subtract(zero(f.spentToDate()));
        return rest.signum() < 0 ? BigDecimal.ZERO : rest;
    }

    /** An amount as a share of the tenant's budget, in per cent to a tenth. */
    private static double share(Forecast f, BigDecimal amount) {
        double per = f.budget() != null && f.budget().signum() > 0 ? 100 / f.budget().doubleValue() : 0;
        return Math.round(zero(amount).doubleValue() * per * 10) / 10.0;
    }

    private static ChartOption anomalyChart(List<TenantDay> tenants, String currency) {
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(70, 20, 40, 40)
                .categoriesAcross(tenants.stream().map(TenantDay::tenant).toList(), Integer.MAX_VALUE).valuesUp(currency, null);
        // each day's bar red when billing judged it anomalous
        chart.bars("the day's cost", tenants.stream().map(t -> (Object) Map.of("value", zero(t.cost()).doubleValue(),
                "itemStyle", Map.of("color", t.anomalous() ? Palette.RED : Palette.BLUE))).toList()).width(50).colour(Palette.BLUE);
        chart.marks("trailing mean", tenants.stream().map(t -> zero(t.trailingMean()).doubleValue()).toList())
                .colour(Palette.SLATE).set("symbol", "rect").set("symbolSize", List.of(50, 3)).set("z", 3);
        chart.marks("threshold", tenants.stream().map(t -> zero(t.threshold()).doubleValue()).toList())
                .colour(Palette.NIGHT).set("symbol", "rect").set("symbolSize", List.of(50, 3)).set("z", 3);
        return chart;
    }

    private static BigDecimal zero(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value;
    }
}
