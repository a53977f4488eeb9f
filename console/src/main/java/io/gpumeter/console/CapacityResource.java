package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.console.CapacityPlan.Cards;
import io.gpumeter.console.CapacityPlan.Model;
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
import java.util.List;
import java.util.function.Function;

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

    @GET
    @Blocking
    public TemplateInstance capacity(@CookieParam(Session.COOKIE) String cookie, @QueryParam("horizon") String horizonText,
                                     @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Capacity", "capacity", viewer);
        String horizon = horizonText == null || horizonText.isBlank() ? "30d" : horizonText.strip();
        CapacityPlan plan = null;
        if (!horizon.matches("\\d{1,2}d")) {
            page.message(Message.error("That horizon is not readable", "horizon must be a number of days such as 30d, got '" + horizonText + "'.",
                    "Pick one in the form above."));
        } else {
            Answer answer = upstream.getJson(Backend.SLO, "/api/v1/capacity/plan?horizon=" + horizon, viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                plan = answer.as(json, CapacityPlan.class);
                if (models(plan).isEmpty()) {
                    page.message(Message.info("No GPU model is in the inventory or in demand yet.",
                            "The plan needs the ledger's inventory and some days of allocated GPU-hours: feed the collector and come back."));
                } else {
                    page.charts.add(Chart.of("capacity-chart", "Usable cards against cards needed, margins stacked, per model",
                            chart(models(plan)), json));
                }
            }
        }
        List<Model> models = models(plan);
        return capacity.data("page", page).data("models", models)
                .data("shapes", models.stream().flatMap(m -> (m.shapes() == null ? List.<CapacityPlan.Shape>of() : m.shapes()).stream()
                        .map(s -> new ShapeOf(m.model(), s))).toList())
                .data("horizon", horizon).data("asOf", plan == null ? null : plan.at()).data("horizons", List.of("7d", "30d", "90d"));
    }

    /** A demand shape beside the model it is planned on. */
    @io.quarkus.qute.TemplateData
    public record ShapeOf(String model, CapacityPlan.Shape s) {
    }

    private static List<Model> models(CapacityPlan plan) {
        return plan == null || plan.models() == null ? List.of() : plan.models();
    }

    /** Per model its usable cards beside its cards needed as base + jitter + failures + peaks. */
    private static ChartOption chart(List<Model> models) {
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(60, 20, 60, 60)
                .categoriesAcross(models.stream().map(Model::model).toList(), Integer.MAX_VALUE).valuesUp("cards", null);
        chart.bars("usable cards", models.stream().map(m -> m.supply() == null ? 0 : m.supply().usable()).toList()).stack("supply").width(50);
        part(chart, models, "demand (base)", Cards::base);
        part(chart, models, "jitter margin", Cards::jitter);
        part(chart, models, "failures and maintenance margin", Cards::failures);
        part(chart, models, "governance peaks margin", Cards::peaks);
        return chart;
    }

    private static void part(ChartOption chart, List<Model> models, String name, Function<Cards, BigDecimal> part) {
        chart.bars(name, models.stream().map(m -> {
            BigDecimal value = m.cardsNeeded() == null ? null : part.apply(m.cardsNeeded());
            return value == null ? 0.0 : value.doubleValue();
        }).toList()).stack("needed").width(50);
    }
}
