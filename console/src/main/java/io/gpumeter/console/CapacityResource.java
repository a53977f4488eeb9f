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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Q10, will the cards suffice: billing's capacity plan per GPU model — usable cards after the margin against the
 * cards the forecast demand needs on the horizon's busiest day, the gap, and the daily demand it was fitted on.
 */
@Path("/capacity")
@Produces(MediaType.TEXT_HTML)
public class CapacityResource {

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template capacity;

    public CapacityResource(Session session, Upstream upstream, ObjectMapper json, @Location("capacity.html") Template capacity) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.capacity = capacity;
    }

    /** One model's plan, as the table shows it. */
    @TemplateData
    public record Row(String model, String usable, String needed, String neededRange, String gap, String gapRange,
                      String growth, String summary, boolean short_) {
    }

    @GET
    @Blocking
    public TemplateInstance capacity(@CookieParam(Session.COOKIE) String cookie, @QueryParam("horizon") String horizonText,
                                     @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Capacity", "capacity", viewer);
        String horizon = horizonText == null || horizonText.isBlank() ? "30d" : horizonText.strip();
        List<Row> rows = new ArrayList<>();
        String asOf = null;
        if (!horizon.matches("\\d{1,2}d")) {
            page.message(Message.error("That horizon is not readable", "horizon must be a number of days such as 30d, got '" + horizonText + "'.",
                    "Pick one in the form above."));
        } else {
            Answer answer = upstream.getJson(Backend.BILLING, "/api/v1/capacity?horizon=" + horizon, viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                JsonNode plan = answer.json();
                asOf = Format.text(plan, "asOf");
                List<String> models = new ArrayList<>();
                List<Double> usable = new ArrayList<>();
                List<Double> needed = new ArrayList<>();
                Map<String, Map<String, Double>> history = new LinkedHashMap<>();
                TreeSet<String> days = new TreeSet<>();
                for (JsonNode m : plan.path("models")) {
                    String model = Format.text(m, "model");
                    BigDecimal usableCards = Format.decimal(m.path("supply"), "usableCards");
                    JsonNode f = m.path("forecast");
                    JsonNode g = m.path("gap");
                    BigDecimal growth = Format.decimalOrNull(m.path("demand"), "growthPerWeek");
                    BigDecimal gap = Format.decimal(g, "cards");
                    rows.add(new Row(model, Format.number(usableCards), Format.number(Format.decimal(f, "cardsNeeded")),
                            Format.number(Format.decimal(f, "cardsNeededLow")) + " – " + Format.number(Format.decimal(f, "cardsNeededHigh")),
                            Format.number(gap), Format.number(Format.decimal(g, "low")) + " – " + Format.number(Format.decimal(g, "high")),
                            growth == null ? "" : Format.percent(growth), Format.text(m, "summary"), gap.signum() < 0));
                    models.add(model);
                    usable.add(usableCards.doubleValue());
                    needed.add(Format.decimal(f, "cardsNeeded").doubleValue());
                    Map<String, Double> perDay = new LinkedHashMap<>();
                    for (JsonNode d : m.path("demand").path("days")) {
                        perDay.put(Format.text(d, "day"), Format.decimal(d, "allocatedGpuHours").doubleValue());
                        days.add(Format.text(d, "day"));
                    }
                    history.put(model, perDay);
                }
                if (rows.isEmpty()) {
                    page.message(Message.info("No GPU model has a history to plan from yet.",
                            "The plan needs some days of allocated GPU-hours: feed the collector and come back."));
                } else {
                    page.charts.add(Chart.of("capacity-chart", "Usable cards against cards needed per model",
                            cards(models, usable, needed), json));
                    if (!days.isEmpty()) {
                        page.charts.add(Chart.of("demand-chart", "Allocated GPU-hours per day and model", demand(history, days), json));
                    }
                }
            }
        }
        return capacity.data("page", page).data("rows", rows).data("horizon", horizon).data("asOf", asOf)
                .data("horizons", List.of("7d", "30d", "90d"));
    }

    private static Map<String, Object> cards(List<String> models, List<Double> usable, List<Double> needed) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 40, "bottom", 60));
        option.put("xAxis", Map.of("type", "category", "data", models, "axisLabel", Map.of("interval", 0)));
        option.put("yAxis", Map.of("type", "value", "name", "cards"));
        option.put("series", List.of(
                Map.of("name", "usable cards", "type", "bar", "barMaxWidth", 50, "color", "#2f6fb0", "data", usable),
                Map.of("name", "cards needed", "type", "bar", "barMaxWidth", 50, "color", "#f0a13a", "data", needed)));
        return option;
    }

    private static Map<String, Object> demand(Map<String, Map<String, Double>> history, TreeSet<String> days) {
        List<Object> series = new ArrayList<>();
        history.forEach((model, perDay) -> {
            List<Double> data = new ArrayList<>();
            days.forEach(d -> data.add(perDay.get(d)));
            series.add(Map.of("name", model, "type", "line", "showSymbol", false, "data", data));
        });
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis"));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 40, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", List.copyOf(days)));
        option.put("yAxis", Map.of("type", "value", "name", "GPU-hours / day"));
        option.put("series", series);
        return option;
    }
}
