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

/**
 * Q10, will the cards suffice: slo-service's capacity plan — per GPU model the usable cards against the cards its
 * demand shapes need on the horizon's busiest day, drawn as a stacked bar of the base and each margin; per shape the
 * rule it was planned by and its commitment. The page draws the plan; every figure is the plan's.
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
    public record Row(String model, String supply, String usable, String needed, String neededRange, String jitter,
                      String failures, String peaks, String gap, String gapRange, String summary, boolean short_) {
    }

    /** One demand shape's commitment. */
    @TemplateData
    public record ShapeRow(String model, String workloadClass, String shape, String service, String slo, String rule,
                           String deliverable, String forecast, String base, String needed, String gap,
                           String ceiling, String degrades, String basis) {
    }

    @GET
    @Blocking
    public TemplateInstance capacity(@CookieParam(Session.COOKIE) String cookie, @QueryParam("horizon") String horizonText,
                                     @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Capacity", "capacity", viewer);
        String horizon = horizonText == null || horizonText.isBlank() ? "30d" : horizonText.strip();
        List<Row> rows = new ArrayList<>();
        List<ShapeRow> shapes = new ArrayList<>();
        String asOf = null;
        if (!horizon.matches("\\d{1,2}d")) {
            page.message(Message.error("That horizon is not readable", "horizon must be a number of days such as 30d, got '" + horizonText + "'.",
                    "Pick one in the form above."));
        } else {
            Answer answer = upstream.getJson(Backend.SLO, "/api/v1/capacity/plan?horizon=" + horizon, viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                JsonNode plan = answer.json();
                asOf = Format.text(plan, "at");
                Bars bars = new Bars();
                for (JsonNode m : plan.path("models")) {
                    String model = Format.text(m, "model");
                    rows.add(row(m));
                    bars.add(model, m.path("supply"), m.path("cardsNeeded"));
                    for (JsonNode s : m.path("shapes")) {
                        shapes.add(shape(model, s));
                    }
                }
                if (rows.isEmpty()) {
                    page.message(Message.info("No GPU model is in the inventory or in demand yet.",
                            "The plan needs the ledger's inventory and some days of allocated GPU-hours: feed the collector and come back."));
                } else {
                    page.charts.add(Chart.of("capacity-chart", "Usable cards against cards needed, margins stacked, per model",
                            bars.option(), json));
                }
            }
        }
        return capacity.data("page", page).data("rows", rows).data("shapes", shapes).data("horizon", horizon)
                .data("asOf", asOf).data("horizons", List.of("7d", "30d", "90d"));
    }

    private static Row row(JsonNode m) {
        JsonNode supply = m.path("supply");
        JsonNode needed = m.path("cardsNeeded");
        JsonNode g = m.path("gap");
        JsonNode margins = m.path("margins");
        BigDecimal gap = Format.decimal(g, "cards");
        String inventory = supply.path("cards").asInt() + " cards, " + supply.path("cordoned").asInt() + " cordoned, "
                + supply.path("failed").asInt() + " failed";
        return new Row(Format.text(m, "model"), inventory, String.valueOf(supply.path("usable").asInt()),
                Format.number(Format.decimal(needed, "total")),
                Format.number(Format.decimal(needed, "low")) + " – " + Format.number(Format.decimal(needed, "high")),
                margin(margins.path("jitter")), margin(margins.path("failures")), margin(margins.path("peaks")),
                Format.number(gap), Format.number(Format.decimal(g, "low")) + " – " + Format.number(Format.decimal(g, "high")),
                Format.text(m, "summary"), gap.signum() < 0);
    }

    /** A margin's applied share, and whether it was measured or is the configured floor. */
    private static String margin(JsonNode margin) {
        if (margin.isMissingNode() || margin.isNull()) {
            return "";
        }
        return Format.percent(Format.decimal(margin, "applied")) + " (" + Format.text(margin, "source") + ")";
    }

    private static ShapeRow shape(String model, JsonNode s) {
        JsonNode service = s.path("service");
        JsonNode slo = s.path("slo");
        JsonNode d = s.path("deliverable");
        JsonNode demand = s.path("demand");
        JsonNode degrade = s.path("degradesFirst");
        String unit = Format.text(d, "unit");
        return new ShapeRow(model, Format.text(s, "workloadClass"), Format.text(s, "shape"),
                service.isObject() ? Format.text(service, "namespace") + "/" + Format.text(service, "name") : "",
                slo.isObject() ? Format.text(slo, "name") + " (" + Format.text(slo, "sli") + " ≤ "
                        + Format.decimal(slo, "thresholdMs").stripTrailingZeros().toPlainString() + " ms)" : "",
                Format.text(s, "rule"),
                Format.number(Format.decimal(d, "perGpu")) + " → " + Format.number(Format.decimal(d, "committedPerGpu"))
                        + " " + (unit == null ? "" : unit),
                Format.number(Format.decimal(demand, "forecast")) + " " + Format.text(demand, "unit") + " on "
                        + Format.text(demand, "forecastDay") + " (" + demand.path("daysFitted").asInt() + " days fitted)",
                Format.number(Format.decimal(s.path("cardsNeeded"), "base")),
                Format.number(Format.decimal(s.path("cardsNeeded"), "total")),
                s.path("gap").isObject() ? Format.number(Format.decimal(s.path("gap"), "cards")) : "",
                Format.duration(Format.decimalOrNull(s, "queueWaitCeilingSeconds")),
                degrade.isObject() ? Format.text(degrade, "policy") : "", Format.text(d, "basis"));
    }

    /** The stacked bars: per model its usable cards beside its cards needed as base + jitter + failures + peaks. */
    private static final class Bars {
        private final List<String> models = new ArrayList<>();
        private final List<Integer> usable = new ArrayList<>();
        private final Map<String, List<Double>> parts = new LinkedHashMap<>();

        Bars() {
            for (String part : List.of("base", "jitter", "failures", "peaks")) {
                parts.put(part, new ArrayList<>());
            }
        }

        void add(String model, JsonNode supply, JsonNode needed) {
            models.add(model);
            usable.add(supply.path("usable").asInt());
            parts.forEach((part, values) -> values.add(Format.decimal(needed, part).doubleValue()));
        }

        Map<String, Object> option() {
            Map<String, String> names = Map.of("base", "demand (base)", "jitter", "jitter margin",
                    "failures", "failures and maintenance margin", "peaks", "governance peaks margin");
            List<Object> series = new ArrayList<>();
            series.add(Map.of("name", "usable cards", "type", "bar", "barMaxWidth", 50, "stack", "supply",
                    "color", Chart.PALETTE.get(0), "data", usable));
            int colour = 1;
            for (Map.Entry<String, List<Double>> part : parts.entrySet()) {
                series.add(Map.of("name", names.get(part.getKey()), "type", "bar", "barMaxWidth", 50, "stack", "needed",
                        "color", Chart.PALETTE.get(colour++), "data", part.getValue()));
            }
            Map<String, Object> option = new LinkedHashMap<>();
            option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
            option.put("legend", Map.of("top", 0));
            option.put("grid", Map.of("left", 60, "right", 20, "top", 60, "bottom", 60));
            option.put("xAxis", Map.of("type", "category", "data", models, "axisLabel", Map.of("interval", 0)));
            option.put("yAxis", Map.of("type", "value", "name", "cards"));
            option.put("series", series);
            return option;
        }
    }
}
