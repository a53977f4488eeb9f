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
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Q3, why the cards were not busy over a window: the ledger's split of every card's time into busy, allocated but
 * not busy, allocated but unmeasured, empty while work queued, and empty; per tenant or per node. Fleet-wide: tenant
 * tokens are refused by the ledger.
 */
@Path("/idle")
@Produces(MediaType.TEXT_HTML)
public class IdleResource {

    /** The parts of the split in the order they are stacked, with their labels and colours. */
    private static final List<String[]> PARTS = List.of(
            new String[]{"busy", "busy", "#2f6fb0"},
            new String[]{"allocatedNotBusy", "allocated, not busy", "#f0a13a"},
            new String[]{"allocatedUnmeasured", "allocated, unmeasured", "#c9cfd6"},
            new String[]{"queuedWhileEmpty", "empty while work queued", "#c2504a"},
            new String[]{"empty", "empty", "#e3e8ef"});

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template idle;

    public IdleResource(Session session, Upstream upstream, ObjectMapper json, @Location("idle.html") Template idle) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.idle = idle;
    }

    /** One group's card-hours by part. */
    @TemplateData
    public record Row(String group, List<String> hours, String total, String notBusyShare) {
    }

    @GET
    @Blocking
    public TemplateInstance idle(@CookieParam(Session.COOKIE) String cookie, @QueryParam("from") String fromText,
                                 @QueryParam("to") String toText, @QueryParam("groupBy") String groupByText,
                                 @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Idle", "idle", viewer);
        Days days = Days.parse(fromText, toText, page);
        String groupBy = groupByText == null || groupByText.isBlank() ? "tenant" : groupByText.strip().toLowerCase(Locale.ROOT);
        if (!groupBy.equals("tenant") && !groupBy.equals("node")) {
            page.message(Message.error("That grouping is not offered", "groupBy must be tenant or node, got '" + groupByText + "'.",
                    "Pick one in the form above."));
            groupBy = null;
        }
        List<Row> rows = new ArrayList<>();
        if (days.readable() && groupBy != null) {
            Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/idle?" + days.query() + "&groupBy=" + groupBy,
                    viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                for (JsonNode row : answer.json().path("rows")) {
                    JsonNode seconds = row.path("seconds");
                    List<String> hours = new ArrayList<>();
                    for (String[] part : PARTS) {
                        hours.add(Format.number(hours(seconds, part[0])));
                    }
                    BigDecimal total = hours(seconds, "total");
                    BigDecimal notBusy = hours(seconds, "allocatedNotBusy").add(hours(seconds, "empty")).add(hours(seconds, "queuedWhileEmpty"));
                    String share = total.signum() == 0 ? "" : Format.percent(notBusy.divide(total, 4, RoundingMode.HALF_EVEN));
                    String key = groupBy.equals("tenant") ? Format.text(row.path("group"), "tenant") : Format.text(row.path("group"), "node");
                    rows.add(new Row(key == null ? Format.text(row, "key") : key, hours, Format.number(total), share));
                }
                if (rows.isEmpty()) {
                    page.message(Message.info("No card was known between " + days.from() + " and " + days.to() + ".",
                            "Pick another window above; the ledger splits the time of the cards the collector has seen."));
                } else {
                    page.charts.add(Chart.of("idle-chart", "Card-hours per " + groupBy + " by why they were not busy",
                            chart(answer.json().path("rows"), rows, groupBy), json));
                }
            }
        }
        return idle.data("page", page).data("rows", rows).data("from", days.from().toString()).data("to", days.to().toString())
                .data("groupBy", groupBy == null ? "tenant" : groupBy)
                .data("parts", PARTS.stream().map(p -> p[1]).toList())
                .data("chartHeight", Math.max(240, rows.size() * 34 + 130));
    }

    private static BigDecimal hours(JsonNode seconds, String field) {
        return Format.decimal(seconds, field).divide(BigDecimal.valueOf(3600), 6, RoundingMode.HALF_EVEN);
    }

    private static Map<String, Object> chart(JsonNode apiRows, List<Row> rows, String groupBy) {
        List<Object> series = new ArrayList<>();
        for (String[] part : PARTS) {
            List<Double> data = new ArrayList<>();
            apiRows.forEach(r -> data.add(hours(r.path("seconds"), part[0]).doubleValue()));
            series.add(Map.of("name", part[1], "type", "bar", "stack", "time", "color", part[2], "data", data));
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 140, "right", 30, "top", 40, "bottom", 50));
        option.put("xAxis", Map.of("type", "value", "name", "card-hours", "nameLocation", "middle", "nameGap", 28));
        option.put("yAxis", Map.of("type", "category", "data", rows.stream().map(Row::group).toList(), "inverse", true));
        option.put("series", series);
        return option;
    }
}
