package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;
import io.gpumeter.console.HoursRows.Row;
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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Q2 and Q9, a month's hours and cost per tenant, team or project: allocated, used and idle normalized GPU-hours
 * and the energy their units drew from the ledger beside their cost, energy cost and CO2e from billing's monthly
 * report, and the same per day or ISO week from billing's cost series (each bucket's hours priced by billing). A
 * tenant's token gets its own tenant's rows from all three.
 */
@Path("/hours")
public class HoursResource {

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template hours;
    private final BillingMonths months;

    public HoursResource(Session session, Upstream upstream, ObjectMapper json, @Location("hours.html") Template hours,
                         BillingMonths months) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.hours = hours;
        this.months = months;
    }

    /** The views of the month: its days, its ISO weeks, or the month whole per group. */
    static final List<String> VIEWS = List.of("day", "week", "month");
    /** What the hours can be grouped by, as the ledger and billing both name it. */
    static final List<String> GROUPS = List.of("tenant", "team", "project");

    @GET
    @Blocking
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance hours(@CookieParam(Session.COOKIE) String cookie, @QueryParam("month") String monthText,
                                  @QueryParam("view") String viewText, @QueryParam("groupBy") String groupText,
                                  @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Hours and cost", "hours", viewer);
        YearMonth month = month(monthText, page);
        String view = choice("view", viewText, VIEWS, page);
        String dim = choice("groupBy", groupText, GROUPS, page);
        List<Row> rows = List.of();
        List<BillingAnswers.Line> lines = List.of();
        String currency = "";
        String zone = "";
        if (month != null && view != null && dim != null) {
            // Billing's month runs between the local midnights of its zone: its series says where (one bucket for the
            // month view), and the ledger is asked for exactly that window, so the hours and their cost are one month.
            // A month billing has named before is asked of the ledger at once, beside billing's two reads; the series
            // then confirms that window or the ledger is asked again for the one it gives.
            CompletableFuture<Answer> report = upstream.getJson(Backend.BILLING, "/api/v1/reports/monthly?month=" + month
                    + "&format=json&groupBy=" + dim, viewer.token());
            CompletableFuture<Answer> seriesCall = upstream.getJson(Backend.BILLING, "/api/v1/reports/series?month=" + month
                    + "&bucket=" + view + "&groupBy=" + dim, viewer.token());
            BillingMonth guess = months.lastSaid(month);
            CompletableFuture<Answer> gpuHours = guess == null ? null : gpuHours(guess, dim, viewer);
            Answer seriesAnswer = seriesCall.join();
            CostSeries series = seriesAnswer.ok() ? new CostSeries(seriesAnswer.as(json, BillingAnswers.Series.class)) : null;
            BillingMonth window = BillingMonth.of(series == null ? null : series.answer, month);
            months.heard(month, window);
            if (window.note() != null) {
                page.message(Message.info("Billing did not say where its month begins and ends.", window.note()));
            }
            if (!window.equals(guess)) {
                gpuHours = gpuHours(window, dim, viewer);
            }
            boolean perMonth = view.equals("month");
            if (perMonth) {
                page.call(seriesAnswer.call());
            }
            Answer h = gpuHours.join();
            Answer r = report.join();
            page.call(h.call());
            page.call(r.call().withCsv("/hours/report.csv?month=" + month));
            MonthlyCost cost = r.ok() ? new MonthlyCost(r.listOf(json, BillingAnswers.MonthlyLine.class)) : null;
            if (cost != null) {
                currency = cost.currency;
            }
            if (!h.ok()) {
                page.message(h.refusal());
            } else {
                rows = HoursRows.rows(h.listOf(json, HoursRows.GroupHours.class), cost, dim);
            }
            if (!r.ok()) {
                page.message(r.refusal());
            }
            if (h.ok() && rows.isEmpty()) {
                page.message(Message.info("No GPU-hours were allocated in " + month + (viewer.tenant() != null ? " to " + viewer.tenant() : "") + ".",
                        "Pick another month above; the ledger counts hours once the collector has seen pods holding GPUs."));
            }
            if (!perMonth) {
                page.call(seriesAnswer.call());
                if (!seriesAnswer.ok()) {
                    page.message(seriesAnswer.refusal());
                } else if (!rows.isEmpty()) {
                    List<String> order = series.order(rows.stream().map(Row::tenant).toList());
                    lines = series.lines();
                    zone = series.timeZone();
                    currency = currency.isEmpty() ? series.currency() : currency;
                    page.charts.add(Chart.of("hours-chart", "GPU-hours per " + view + ": used and idle per " + dim + " make up allocated",
                            series.hoursChart(order), json));
                    page.charts.add(Chart.of("cost-chart", "Cost per " + view + " and " + dim, series.costChart(order), json));
                }
            } else if (!rows.isEmpty()) {
                page.charts.add(Chart.of("hours-chart", "GPU-hours per " + dim + ": used and idle make up allocated", HoursRows.hoursChart(rows), json));
                if (r.ok()) {
                    page.charts.add(Chart.of("cost-chart", "Cost per " + dim, HoursRows.costChart(rows, currency), json));
                }
            }
        }
        YearMonth shown = month != null ? month : YearMonth.now(ZoneOffset.UTC);
        return hours.data("page", page).data("rows", rows).data("lines", lines).data("month", shown.toString())
                .data("currency", currency).data("zone", zone)
                .data("view", view == null ? "day" : view).data("groupBy", dim == null ? "tenant" : dim)
                .data("groupTitle", dim == null ? "Tenant" : Character.toUpperCase(dim.charAt(0)) + dim.substring(1))
                .data("views", VIEWS).data("groups", GROUPS)
                .data("previous", shown.minusMonths(1).toString()).data("next", shown.plusMonths(1).toString())
                .data("total", HoursRows.total(rows));
    }

    private CompletableFuture<Answer> gpuHours(BillingMonth window, String dim, Viewer viewer) {
        return upstream.getJson(Backend.LEDGER, "/api/v1/gpu-hours?from=" + Format.query(window.from())
                + "&to=" + Format.query(window.to()) + "&groupBy=" + dim, viewer.token());
    }

    /** One of {@code allowed} ({@code allowed}'s first when absent), else null with a message naming the field. */
    static String choice(String field, String text, List<String> allowed, Page page) {
        if (text == null || text.isBlank()) {
            return allowed.get(0);
        }
        try {
            return Params.oneOf(field, text, allowed.toArray(String[]::new));
        } catch (InvalidInput e) {
            page.message(Message.error("That " + field + " is not one the page knows", e.getMessage() + ".",
                    "Pick one with the links above."));
            return null;
        }
    }

    /** Billing's monthly CSV, fetched with the user's token: the browser cannot present the token to billing itself. */
    @GET
    @Path("/report.csv")
    @Blocking
    public Response csv(@CookieParam(Session.COOKIE) String cookie, @QueryParam("month") String monthText, @Context UriInfo uri) {
        return download(cookie, monthText, uri, "csv", "gpumeter-tenant-");
    }

    /** The same month in FOCUS 1.1 columns (one row per tenant and GPU model), for FinOps tools that read FOCUS. */
    @GET
    @Path("/focus.csv")
    @Blocking
    public Response focus(@CookieParam(Session.COOKIE) String cookie, @QueryParam("month") String monthText, @Context UriInfo uri) {
        return download(cookie, monthText, uri, "focus", "gpumeter-focus-tenant-");
    }

    private Response download(String cookie, String monthText, UriInfo uri, String format, String filePrefix) {
        Viewer viewer = session.require(cookie, uri);
        YearMonth month;
        try {
            month = Params.month("month", monthText == null ? null : monthText.strip());
        } catch (InvalidInput e) {
            return Response.status(Response.Status.BAD_REQUEST).type(MediaType.TEXT_PLAIN).entity(e.getMessage() + ".").build();
        }
        Answer answer = upstream.get(Backend.BILLING, "/api/v1/reports/monthly?month=" + month + "&format=" + format + "&groupBy=tenant",
                viewer.token(), "text/csv").join();
        if (!answer.ok()) {
            Message m = answer.refusal();
            return Response.status(answer.status() > 0 ? answer.status() : 502).type("text/plain; charset=UTF-8")
                    .entity(m.title() + (m.detail() != null ? "\n" + m.detail() : "") + (m.hint() != null ? "\n" + m.hint() : "") + "\n").build();
        }
        return Response.ok(answer.text(), "text/csv; charset=UTF-8")
                .header("Content-Disposition", "attachment; filename=\"" + filePrefix + month + ".csv\"").build();
    }

    static YearMonth month(String text, Page page) {
        if (text == null || text.isBlank()) {
            return YearMonth.now(ZoneOffset.UTC);
        }
        try {
            return Params.month("month", text.strip());
        } catch (InvalidInput e) {
            page.message(Message.error("That month is not readable", e.getMessage() + ".", "Pick a month in the form above."));
            return null;
        }
    }
}
