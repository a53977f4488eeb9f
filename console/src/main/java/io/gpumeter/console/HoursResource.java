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
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.math.BigDecimal;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * Q2 and Q9, a month's hours and cost per tenant: allocated, used and idle normalized GPU-hours from the ledger,
 * beside their cost from billing's monthly report. A tenant's token gets its own tenant's rows from both.
 */
@Path("/hours")
public class HoursResource {

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template hours;

    public HoursResource(Session session, Upstream upstream, ObjectMapper json, @Location("hours.html") Template hours) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.hours = hours;
    }

    /** One tenant's month. */
    @TemplateData
    public record Row(String tenant, BigDecimal allocated, BigDecimal used, BigDecimal idle, String coverage,
                      String confidence, BigDecimal allocatedCost, BigDecimal usedCost, BigDecimal idleCost, boolean priced) {
        public String allocatedText() {
            return Format.number(allocated);
        }

        public String usedText() {
            return Format.number(used);
        }

        public String idleText() {
            return Format.number(idle);
        }

        public String allocatedCostText() {
            return priced ? Format.number(allocatedCost) : "";
        }

        public String usedCostText() {
            return priced ? Format.number(usedCost) : "";
        }

        public String idleCostText() {
            return priced ? Format.number(idleCost) : "";
        }
    }

    @GET
    @Blocking
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance hours(@CookieParam(Session.COOKIE) String cookie, @QueryParam("month") String monthText,
                                  @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Hours and cost", "hours", viewer);
        YearMonth month = month(monthText, page);
        List<Row> rows = List.of();
        String currency = "";
        if (month != null) {
            String from = month.atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString();
            String to = month.plusMonths(1).atDay(1).atStartOfDay().toInstant(ZoneOffset.UTC).toString();
            CompletableFuture<Answer> gpuHours = upstream.getJson(Backend.LEDGER, "/api/v1/gpu-hours?from=" + Format.query(from)
                    + "&to=" + Format.query(to) + "&groupBy=tenant", viewer.token());
            CompletableFuture<Answer> report = upstream.getJson(Backend.BILLING, "/api/v1/reports/monthly?month=" + month
                    + "&format=json&groupBy=tenant", viewer.token());
            Answer h = gpuHours.join();
            Answer r = report.join();
            page.call(h.call());
            page.call(r.call().withCsv("/hours/report.csv?month=" + month));
            Map<String, BigDecimal[]> cost = new TreeMap<>();
            if (r.ok()) {
                for (JsonNode line : r.json()) {
                    String tenant = Format.text(line, "tenant");
                    BigDecimal[] c = cost.computeIfAbsent(tenant == null ? "" : tenant, t -> new BigDecimal[]{BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO});
                    c[0] = c[0].add(Format.decimal(line, "allocated_cost"));
                    c[1] = c[1].add(Format.decimal(line, "used_cost_showback"));
                    c[2] = c[2].add(Format.decimal(line, "idle_cost_showback"));
                    if (currency.isEmpty() && Format.text(line, "currency") != null) {
                        currency = Format.text(line, "currency");
                    }
                }
            }
            if (!h.ok()) {
                page.message(h.refusal());
            } else {
                rows = rows(h.json(), r.ok() ? cost : null);
            }
            if (!r.ok()) {
                page.message(r.refusal());
            }
            if (h.ok() && rows.isEmpty()) {
                page.message(Message.info("No GPU-hours were allocated in " + month + (viewer.tenant() != null ? " to " + viewer.tenant() : "") + ".",
                        "Pick another month above; the ledger counts hours once the collector has seen pods holding GPUs."));
            }
            if (!rows.isEmpty()) {
                page.charts.add(Chart.of("hours-chart", "GPU-hours per tenant: used and idle make up allocated", hoursChart(rows), json));
                if (r.ok()) {
                    page.charts.add(Chart.of("cost-chart", "Cost per tenant", costChart(rows, currency), json));
                }
            }
        }
        YearMonth shown = month != null ? month : YearMonth.now(ZoneOffset.UTC);
        BigDecimal allocated = rows.stream().map(Row::allocated).reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal used = rows.stream().map(Row::used).reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal idle = rows.stream().map(Row::idle).reduce(BigDecimal.ZERO, BigDecimal::add);
        BigDecimal allocatedCost = rows.stream().map(Row::allocatedCost).reduce(BigDecimal.ZERO, BigDecimal::add);
        boolean priced = rows.stream().anyMatch(Row::priced);
        return hours.data("page", page).data("rows", rows).data("month", shown.toString()).data("currency", currency)
                .data("previous", shown.minusMonths(1).toString()).data("next", shown.plusMonths(1).toString())
                .data("total", new Row("all", allocated, used, idle, "", "", allocatedCost,
                        rows.stream().map(Row::usedCost).reduce(BigDecimal.ZERO, BigDecimal::add),
                        rows.stream().map(Row::idleCost).reduce(BigDecimal.ZERO, BigDecimal::add), priced));
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
            month = YearMonth.parse(monthText == null ? "" : monthText.strip());
        } catch (DateTimeParseException e) {
            return Response.status(Response.Status.BAD_REQUEST).type(MediaType.TEXT_PLAIN)
                    .entity("month must be YYYY-MM, such as 2026-11.").build();
        }
        Answer answer = upstream.get(Backend.BILLING, "/api/v1/reports/monthly?month=" + month + "&format=" + format + "&groupBy=tenant",
                viewer.token(), "text/csv").join();
        if (!answer.ok()) {
            Message m = answer.refusal();
            return Response.status(answer.status() > 0 ? answer.status() : 502).type("text/plain; charset=UTF-8")
                    .entity(m.title() + (m.detail() != null ? "\n" + m.detail() : "") + (m.hint() != null ? "\n" + m.hint() : "") + "\n").build();
        }
        return Response.ok(answer.text(), "text/csv; charset=UTF-8")
                .header("Content-Disposition", "attachment; filename=\"" + filePrefix + month + ".csv\"")
                .header("Cache-Control", "no-store").build();
    }

    static YearMonth month(String text, Page page) {
        if (text == null || text.isBlank()) {
            return YearMonth.now(ZoneOffset.UTC);
        }
        try {
            return YearMonth.parse(text.strip());
        } catch (DateTimeParseException e) {
            page.message(Message.error("That month is not readable", "month must be YYYY-MM, such as 2026-11, got '" + text + "'.",
                    "Pick a month in the form above."));
            return null;
        }
    }

    private static List<Row> rows(JsonNode hours, Map<String, BigDecimal[]> cost) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode h : hours) {
            String tenant = Format.text(h.path("group"), "tenant");
            if (tenant == null) {
                tenant = Format.text(h, "key");
            }
            BigDecimal[] c = cost == null ? null : cost.get(tenant);
            rows.add(new Row(tenant, Format.decimal(h, "allocatedGpuHours"), Format.decimal(h, "usedGpuHours"),
                    Format.decimal(h, "idleGpuHours"), Format.percent(Format.decimal(h, "usageCoverage")),
                    Format.text(h, "usageConfidence"),
                    c == null ? BigDecimal.ZERO : c[0], c == null ? BigDecimal.ZERO : c[1], c == null ? BigDecimal.ZERO : c[2],
                    cost != null));
        }
        rows.sort((a, b) -> b.allocated().compareTo(a.allocated()));
        return rows;
    }

    private static Map<String, Object> hoursChart(List<Row> rows) {
        List<String> tenants = rows.stream().map(Row::tenant).toList();
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 36, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", tenants, "axisLabel", Map.of("interval", 0)));
        option.put("yAxis", Map.of("type", "value", "name", "GPU-hours"));
        option.put("series", List.of(
                Map.of("name", "used", "type", "bar", "barMaxWidth", 90, "stack", "allocated", "color", "#2f6fb0",
                        "data", rows.stream().map(r -> r.used().doubleValue()).toList()),
                Map.of("name", "idle", "type", "bar", "barMaxWidth", 90, "stack", "allocated", "color", "#f0a13a",
                        "data", rows.stream().map(r -> r.idle().doubleValue()).toList())));
        return option;
    }

    private static Map<String, Object> costChart(List<Row> rows, String currency) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 36, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", rows.stream().map(Row::tenant).toList(), "axisLabel", Map.of("interval", 0)));
        option.put("yAxis", Map.of("type", "value", "name", currency));
        option.put("series", List.of(
                Map.of("name", "used cost", "type", "bar", "barMaxWidth", 90, "stack", "cost", "color", "#3c8d5a",
                        "data", rows.stream().map(r -> r.usedCost().doubleValue()).toList()),
                Map.of("name", "idle cost", "type", "bar", "barMaxWidth", 90, "stack", "cost", "color", "#c9d6cf",
                        "data", rows.stream().map(r -> r.idleCost().doubleValue()).toList())));
        return option;
    }
}
