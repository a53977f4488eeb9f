package io.gpumeter.console;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.UsageField;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.quarkus.runtime.annotations.RegisterForReflection;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Q1, the fleet at an instant: every node, every card on it and who held each card, as the ledger lays the fleet
 * out ({@code GET /api/v1/fleet/occupants?layout=true}, a page of nodes at a time with the cards per pool over them
 * all); coloured by the share held or by each named card's activity over the five minutes before (one usage read of
 * every field, each minute judged by the suite's one rule, SM_ACTIVE else GR_ENGINE_ACTIVE else GPU_UTIL).
 */
@Path("/fleet")
@Produces(MediaType.TEXT_HTML)
public class FleetResource {

    /** The nodes one page lists; the pools' table counts every node. */
    static final int NODES_PER_PAGE = 50;
    /** How long before the instant the colour by use averages each card's SM activity. */
    static final Duration USED_OVER = Duration.ofMinutes(5);
    /** The most cards one usage read of the ledger names. */
    static final int USAGE_CARDS = 500;

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template fleet;

    public FleetResource(Session session, Upstream upstream, ObjectMapper json, @Location("fleet.html") Template fleet) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.fleet = fleet;
    }

    /** One card's usage as the ledger's bulk read answers it, each series folded into the spans asked for. */
    @RegisterForReflection
    record CardSeries(String gpuUuid, List<Point> points) {
        @RegisterForReflection
        record Point(String scope, String field, String minute, double mean, double max, int samples, int seconds) {
        }
    }

    @GET
    @Blocking
    public TemplateInstance fleet(@CookieParam(Session.COOKIE) String cookie, @QueryParam("at") String atText,
                                  @QueryParam("colour") String colour, @QueryParam("offset") String offsetText,
                                  @QueryParam("groupBy") String groupByText, @QueryParam("group") String group,
                                  @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Fleet", "fleet", viewer);
        Instant at = at(atText, page);
        int offset = Offsets.of(offsetText, "offset", page);
        String groupBy = "model".equals(groupByText) ? "model" : "pool";
        String drill = group == null || group.isBlank() ? null : group;
        FleetLayout layout = at == null || page.refused() ? null : layout(viewer, at, offset, groupBy, drill, page);
        if (layout != null && layout.totalNodes() == 0) {
            page.message(Message.info("No GPU node was known at " + Format.rfc3339(at) + ".",
                    "Choose a later instant, or feed the collector (./gpumeter up --demo runs a simulated fleet)."));
        }
        boolean byUse = "used".equals(colour);
        List<FleetLayout.Node> nodes = layout == null ? List.of() : layout.nodes();
        if (!nodes.isEmpty()) {
            Map<String, Double> used = byUse ? used(viewer, at, nodes, page) : null;
            String instant = Format.query(Format.rfc3339(at));
            page.charts.add(Chart.of("fleet-chart", byUse ? "Cards per node, coloured by their SM activity"
                    : "Cards per node, coloured by the share held", FleetHeatmap.of(nodes, used,
                    uuid -> "/fleet/card?uuid=" + Format.query(uuid) + "&at=" + instant), json));
        }
        Instant shown = at != null ? at : Instant.now().truncatedTo(ChronoUnit.SECONDS);
        String all = "/fleet?at=" + Format.query(Format.rfc3339(shown)) + (byUse ? "&colour=used" : "")
                + ("pool".equals(groupBy) ? "" : "&groupBy=" + groupBy);
        String here = all + (drill == null ? "" : "&group=" + Format.query(drill));
        boolean more = layout != null && offset + nodes.size() < layout.totalNodes();
        return fleet.data("page", page).data("layout", layout).data("nodes", nodes).data("byUse", byUse)
                .data("at", Format.rfc3339(shown)).data("atMinute", Format.minute(shown))
                .data("chartHeight", nodes.size() * 56 + 110).data("groupBy", groupBy).data("group", drill)
                .data("allNodes", all)
                .data("previous", offset > 0 ? here + "&offset=" + Math.max(0, offset - NODES_PER_PAGE) : null)
                .data("next", more ? here + "&offset=" + (offset + NODES_PER_PAGE) : null)
                .data("first", offset + 1).data("last", offset + nodes.size());
    }

    /** A page of the ledger's layout at the instant; null when it was refused (the page says why). */
    private FleetLayout layout(Viewer viewer, Instant at, int offset, String groupBy, String group, Page page) {
        Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/fleet/occupants?at=" + Format.query(Format.rfc3339(at))
                + "&layout=true" + ("pool".equals(groupBy) ? "" : "&groupBy=" + groupBy) // pool is the ledger's default
                + (group == null ? "" : "&group=" + Format.query(group))
                + "&limit=" + NODES_PER_PAGE + "&offset=" + offset, viewer.token()).join();
        page.call(answer.call());
        if (!answer.ok()) {
            page.message(answer.refusal());
            return null;
        }
        return answer.as(json, FleetLayout.class);
    }

    /**
     * Each named card's mean activity over the five minutes before the instant, minute by minute by the suite's one
     * rule ({@link ActivityCurve}), in one usage read of every field; a card without any is absent.
     */
    private Map<String, Double> used(Viewer viewer, Instant at, List<FleetLayout.Node> nodes, Page page) {
        List<String> uuids = nodes.stream().flatMap(n -> n.gpus().stream()).map(FleetLayout.Card::uuid)
                .filter(Objects::nonNull).distinct().limit(USAGE_CARDS).toList();
        Map<String, Double> used = new HashMap<>();
        if (uuids.isEmpty()) {
            return used;
        }
        // every field a minute: the activity of each minute is the suite's one rule over them (ActivityCurve)
        Map<String, Object> body = Map.of("from", Format.rfc3339(at.minus(USED_OVER)), "to", Format.rfc3339(at),
                "gpus", uuids, "fields", UsageField.ACTIVITY.stream().map(Enum::name).toList());
        Answer answer;
        try {
            answer = upstream.postJson(Backend.LEDGER, "/api/v1/usage/series", json.writeValueAsString(body), viewer.token()).join();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        page.call(answer.call());
        if (!answer.ok()) {
            page.message(answer.refusal());
            return used;
        }
        for (CardSeries card : answer.listOf(json, CardSeries.class)) {
            ActivityCurve activity = new ActivityCurve();
            card.points().stream().filter(p -> "DEVICE".equals(p.scope()))
                    .forEach(p -> activity.add(p.field(), p.minute(), p.mean()));
            activity.mean().ifPresent(mean -> used.put(card.gpuUuid(), mean));
        }
        if (used.isEmpty()) {
            page.message(Message.info("No card's activity reached the ledger in the five minutes before " + Format.rfc3339(at) + ".",
                    "Push dcgm-exporter scrapes to the collector's /api/v1/ingest/dcgm; ./gpumeter up --demo sends simulated ones."));
        }
        return used;
    }

    /** The instant asked, now when none; null (and the page says why) when it is not readable. */
    static Instant at(String text, Page page) {
        if (text == null || text.isBlank()) {
            return Instant.now().truncatedTo(ChronoUnit.SECONDS);
        }
        Optional<Instant> at = Format.instant(text);
        if (at.isEmpty()) {
            page.message(Message.error("That instant is not readable", "at must be a time such as 2026-11-30T12:00:00Z, got '" + text + "'.",
                    "Pick a time in the form above."));
            return null;
        }
        return at.get();
    }

    /** The share held on a card, for the Card page's pie: held shares by pod and what is free. */
    static BigDecimal held(List<Occupant> occupants) {
        return occupants.stream().map(Occupant::fraction).filter(Objects::nonNull).reduce(BigDecimal.ZERO, BigDecimal::add);
    }
}
