package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One card at an instant: who held it (the ledger's Q1 of the card), its activity over the two hours before, and
 * its node's changes over the last day for fleet readers.
 */
@Path("/fleet/card")
@Produces(MediaType.TEXT_HTML)
public class CardResource {

    /** How far back the Card page lists its node's changes, and the most it reads. */
    static final Duration CHANGES_LOOK_BACK = Duration.ofDays(1);
    static final int CHANGES_READ = 200;

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template card;

    public CardResource(Session session, Upstream upstream, ObjectMapper json, @Location("card.html") Template card) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.card = card;
    }

    @GET
    @Blocking
    public TemplateInstance card(@CookieParam(Session.COOKIE) String cookie, @QueryParam("uuid") String uuid,
                                 @QueryParam("at") String atText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Card " + (uuid == null ? "" : uuid), "fleet", viewer);
        Instant at = FleetResource.at(atText, page);
        List<Occupant> occupants = List.of();
        String node = null;
        List<BookChange> changes = null;
        if (uuid == null || uuid.isBlank()) {
            page.message(Message.error("Which card?", "The address names no card.", "Open a card from the Fleet page."));
        } else if (at != null) {
            var usage = upstream.getJson(Backend.LEDGER, CardUsage.path(uuid, at), viewer.token());
            Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/gpus/" + Format.segment(uuid) + "/occupants?at="
                    + Format.query(Format.rfc3339(at)), viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                occupants = answer.listOf(json, Occupant.class);
                node = occupants.isEmpty() ? null : occupants.get(0).node();
                if (occupants.isEmpty()) {
                    page.message(Message.info("Nobody held this card at " + Format.rfc3339(at) + ".",
                            "Choose another instant above, or go back to the fleet."));
                } else {
                    page.charts.add(Chart.of("card-chart", "Shares of the card by pod", pie(occupants), json));
                }
                String cluster = occupants.isEmpty() ? null : occupants.get(0).cluster();
                if (viewer.fleet() && node != null && cluster != null) {
                    // the node's changes over the last day, the two hours drawn among them; a tenant reads no change book
                    changes = ChangeReads.bulk(upstream, json, viewer, page, List.of(new ChangeReads.Scope(cluster, node,
                            at.minus(CHANGES_LOOK_BACK), at.plusSeconds(60), CHANGES_READ, true)));
                }
            }
            usageChart(usage.join(), at, changes, page);
        }
        Instant shown = at != null ? at : Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<NearChange> near = changes == null || at == null ? List.of()
                : NearChange.of(changes, at, at.minus(CardUsage.SPAN), at.plusSeconds(60), CHANGES_READ);
        return card.data("page", page).data("uuid", uuid == null ? "" : uuid).data("node", node).data("occupants", occupants)
                .data("changes", near).data("changesRead", changes != null)
                .data("held", Format.number(FleetResource.held(occupants))).data("at", Format.rfc3339(shown))
                .data("atMinute", Format.minute(shown));
    }

    private void usageChart(Answer curves, Instant at, List<BookChange> changes, Page page) {
        page.call(curves.call());
        if (!curves.ok()) {
            page.message(curves.refusal());
            return;
        }
        ChartOption chart = CardUsage.chart(curves.listOf(json, CardUsage.Point.class), at);
        if (chart == null) {
            page.message(Message.info("No usage of this card reached the ledger in the two hours up to " + Format.rfc3339(at) + ".",
                    "Push dcgm-exporter scrapes to the collector's /api/v1/ingest/dcgm (and the HAMi monitor's to /api/v1/ingest/hami-monitor); ./gpumeter up --demo sends simulated ones."));
            return;
        }
        if (changes != null) {
            ChangeMarks.add(chart, changes, at.minus(CardUsage.SPAN), at.plusSeconds(60));
        }
        page.charts.add(Chart.of("usage-chart", "The card's activity over two hours", chart, json));
    }

    /** The card's shares by pod, and what is free of it. */
    private static ChartOption pie(List<Occupant> occupants) {
        List<Object> data = new ArrayList<>();
        for (Occupant o : occupants) {
            data.add(Map.of("name", o.who(), "value", o.fraction().doubleValue()));
        }
        BigDecimal held = FleetResource.held(occupants);
        if (held.compareTo(BigDecimal.ONE) < 0) {
            data.add(Map.of("name", "free", "value", BigDecimal.ONE.subtract(held).doubleValue(),
                    "itemStyle", Map.of("color", Palette.FREE)));
        }
        return ChartOption.chart().tooltip(ChartOption.Tooltip.ITEM, "{b}: {c} of the card")
                .set("legend", Map.of("bottom", 0, "type", "scroll"))
                .series("pie", "shares", data).colour(null).set("radius", List.of("38%", "62%"))
                .set("center", List.of("50%", "45%")).set("label", Map.of("formatter", "{d} %")).set("color", Palette.SERIES)
                .done();
    }
}
