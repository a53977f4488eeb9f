package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.UsageField;
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

import io.gpumeter.console.FleetParts.Card;
import io.gpumeter.console.FleetParts.Node;
import io.gpumeter.console.FleetParts.Occupant;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Q1, the fleet at an instant: every node, every card on it and who held each card. The nodes and their card counts
 * come from the ledger's capacity over the minute before the instant, the occupants from one read of the fleet's Q1 answer at that instant.
 */
@Path("/fleet")
@Produces(MediaType.TEXT_HTML)
public class FleetResource {

    /** How far back the Card page lists its node's changes, and the most it reads. */
    static final java.time.Duration CHANGES_LOOK_BACK = java.time.Duration.ofDays(1);
    static final int CHANGES_READ = 200;

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template fleet;
    private final Template card;

    public FleetResource(Session session, Upstream upstream, ObjectMapper json, @Location("fleet.html") Template fleet,
                         @Location("card.html") Template card) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.fleet = fleet;
        this.card = card;
    }

    @GET
    @Blocking
    public TemplateInstance fleet(@CookieParam(Session.COOKIE) String cookie, @QueryParam("at") String atText,
                                  @QueryParam("colour") String colour, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Fleet", "fleet", viewer);
        Instant at = at(atText, page);
        List<Node> nodes = List.of();
        if (at != null) {
            nodes = nodes(viewer, at, page);
        }
        if (!page.refused() && nodes.isEmpty() && at != null) {
            page.message(Message.info("No GPU node was known at " + Format.rfc3339(at) + ".",
                    "Choose a later instant, or feed the collector (./gpumeter up --demo runs a simulated fleet)."));
        }
        boolean byUse = "used".equals(colour);
        if (!nodes.isEmpty()) {
            Map<String, Double> used = byUse ? used(viewer, at, nodes, page) : null;
            page.charts.add(Chart.of("fleet-chart", byUse ? "Cards per node, coloured by their SM activity"
                    : "Cards per node, coloured by the share held", FleetHeatmap.of(nodes, used), json));
        }
        Instant shown = at != null ? at : Instant.now().truncatedTo(ChronoUnit.SECONDS);
        return fleet.data("page", page).data("nodes", nodes).data("byUse", byUse).data("at", Format.rfc3339(shown)).data("atMinute", Format.minute(shown))
                .data("chartHeight", nodes.size() * 56 + 110)
                .data("cards", nodes.stream().mapToInt(Node::cardCount).sum())
                .data("occupied", nodes.stream().mapToInt(Node::occupied).sum());
    }

    /**
     * Each named card's mean activity over the five minutes before the instant, minute by minute by the suite's one
     * rule ({@link ActivityCurve}), from one usage read of the set per activity field (the ledger takes at most 500
     * cards a read); a card without any is absent.
     */
    private Map<String, Double> used(Viewer viewer, Instant at, List<Node> nodes, Page page) {
        List<String> uuids = nodes.stream().flatMap(n -> n.cards().stream()).map(Card::uuid)
                .filter(java.util.Objects::nonNull).distinct().limit(500).toList();
        Map<String, Double> used = new HashMap<>();
        if (uuids.isEmpty()) {
            return used;
        }
        List<CompletableFuture<Answer>> reads = new ArrayList<>();
        for (UsageField field : UsageField.ACTIVITY) {
            Map<String, Object> body = Map.of("from", Format.rfc3339(at.minusSeconds(300)), "to", Format.rfc3339(at),
                    "field", field.name(), "gpus", uuids);
            try {
                reads.add(upstream.postJson(Backend.LEDGER, "/api/v1/usage/series", json.writeValueAsString(body), viewer.token()));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        Map<String, ActivityCurve> activity = new HashMap<>();
        for (CompletableFuture<Answer> read : reads) {
            Answer answer = read.join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
                return used;
            }
            for (JsonNode card : answer.json()) {
                ActivityCurve curve = activity.computeIfAbsent(Format.text(card, "gpuUuid"), uuid -> new ActivityCurve());
                for (JsonNode p : card.path("points")) {
                    if ("DEVICE".equals(Format.text(p, "scope"))) {
                        curve.add(Format.text(p, "field"), Format.text(p, "minute"), p.path("mean").asDouble());
                    }
                }
            }
        }
        activity.forEach((uuid, curve) -> curve.mean().ifPresent(mean -> used.put(uuid, mean)));
        if (used.isEmpty()) {
            page.message(Message.info("No card's activity reached the ledger in the five minutes before " + Format.rfc3339(at) + ".",
                    "Push dcgm-exporter scrapes to the collector's /api/v1/ingest/dcgm; ./gpumeter up --demo sends simulated ones."));
        }
        return used;
    }

    /** Who held one card at the instant. */
    @GET
    @Path("/card")
    @Blocking
    public TemplateInstance card(@CookieParam(Session.COOKIE) String cookie, @QueryParam("uuid") String uuid,
                                 @QueryParam("at") String atText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Card " + (uuid == null ? "" : uuid), "fleet", viewer);
        Instant at = at(atText, page);
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
                occupants = FleetParts.occupants(answer.json());
                node = answer.json().size() > 0 ? Format.text(answer.json().get(0), "node") : null;
                if (occupants.isEmpty()) {
                    page.message(Message.info("Nobody held this card at " + Format.rfc3339(at) + ".",
                            "Choose another instant above, or go back to the fleet."));
                } else {
                    page.charts.add(Chart.of("card-chart", "Shares of the card by pod", pie(occupants), json));
                }
                String cluster = answer.json().size() > 0 ? Format.text(answer.json().get(0), "cluster") : null;
                if (viewer.fleet() && node != null && cluster != null) {
                    // the node's changes over the last day, the two hours drawn among them; a tenant reads no change book
                    changes = ChangeReads.bulk(upstream, json, viewer, page, List.of(new ChangeReads.Scope(cluster, node,
                            at.minus(CHANGES_LOOK_BACK), at.plusSeconds(60), CHANGES_READ, true)));
                }
            }
            Answer curves = usage.join();
            page.call(curves.call());
            if (!curves.ok()) {
                page.message(curves.refusal());
            } else {
                Map<String, Object> option = CardUsage.chart(curves.json(), at);
                if (option == null) {
                    page.message(Message.info("No usage of this card reached the ledger in the two hours up to " + Format.rfc3339(at) + ".",
                            "Push dcgm-exporter scrapes to the collector's /api/v1/ingest/dcgm (and the HAMi monitor's to /api/v1/ingest/hami-monitor); ./gpumeter up --demo sends simulated ones."));
                } else {
                    if (changes != null) {
                        ChangeMarks.add(option, changes, at.minus(CardUsage.SPAN), at.plusSeconds(60));
                    }
                    page.charts.add(Chart.of("usage-chart", "The card's activity over two hours", option, json));
                }
            }
        }
        Instant shown = at != null ? at : Instant.now().truncatedTo(ChronoUnit.SECONDS);
        BigDecimal held = occupants.stream().map(Occupant::fraction).reduce(BigDecimal.ZERO, BigDecimal::add);
        List<NearChange> near = changes == null || at == null ? List.of()
                : NearChange.of(changes, at, at.minus(CardUsage.SPAN), at.plusSeconds(60), CHANGES_READ);
        return card.data("page", page).data("uuid", uuid == null ? "" : uuid).data("node", node).data("occupants", occupants)
                .data("changes", near).data("changesRead", changes != null)
                .data("held", Format.number(held)).data("at", Format.rfc3339(shown)).data("atMinute", Format.minute(shown));
    }

    private static Instant at(String text, Page page) {
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

    private List<Node> nodes(Viewer viewer, Instant at, Page page) {
        String q = "/api/v1/capacity?from=" + Format.query(Format.rfc3339(at.minusSeconds(60))) + "&to="
                + Format.query(Format.rfc3339(at)) + "&groupBy=cluster,node";
        Answer capacity = upstream.getJson(Backend.LEDGER, q, viewer.token()).join();
        page.call(capacity.call());
        if (!capacity.ok()) {
            page.message(capacity.refusal());
            return List.of();
        }
        record Known(String cluster, String node, int cards) {
        }
        List<Known> known = new ArrayList<>();
        for (JsonNode row : capacity.json()) {
            JsonNode group = row.path("group");
            // card-hours over one minute, times 60: the cards the node had
            int cards = Format.decimal(row, "cardHours").multiply(BigDecimal.valueOf(60)).setScale(0, RoundingMode.HALF_UP).intValue();
            known.add(new Known(Format.text(group, "cluster"), Format.text(group, "node"), cards));
        }
        known.sort(Comparator.comparing((Known k) -> k.cluster() == null ? "" : k.cluster()).thenComparing(k -> k.node() == null ? "" : k.node()));
        String instant = Format.query(Format.rfc3339(at));
        // Every node's occupants in one read of the fleet, grouped here by node.
        Answer fleetOccupants = upstream.getJson(Backend.LEDGER, "/api/v1/fleet/occupants?at=" + instant, viewer.token()).join();
        page.call(fleetOccupants.call());
        if (!fleetOccupants.ok()) {
            page.message(fleetOccupants.refusal());
            return List.of();
        }
        Map<String, List<JsonNode>> rowsByNode = new HashMap<>();
        for (JsonNode row : fleetOccupants.json()) {
            rowsByNode.computeIfAbsent(Format.text(row, "cluster") + "/" + Format.text(row, "node"), n -> new ArrayList<>()).add(row);
        }
        // A node held before the inventory knew it (the collector started later, or the instant is older than the
        // inventory's history) is still drawn, with the cards its occupants held.
        for (List<JsonNode> rows : rowsByNode.values()) {
            String cluster = Format.text(rows.get(0), "cluster");
            String node = Format.text(rows.get(0), "node");
            if (node != null && known.stream().noneMatch(k -> java.util.Objects.equals(k.cluster(), cluster) && node.equals(k.node()))) {
                known.add(new Known(cluster, node, 0));
            }
        }
        known.sort(Comparator.comparing((Known k) -> k.cluster() == null ? "" : k.cluster()).thenComparing(k -> k.node() == null ? "" : k.node()));
        List<Node> nodes = new ArrayList<>();
        for (Known k : known) {
            Map<String, List<Occupant>> byCard = new LinkedHashMap<>();
            List<Occupant> unnamed = new ArrayList<>();
            for (JsonNode row : rowsByNode.getOrDefault(k.cluster() + "/" + k.node(), List.of())) {
                String uuid = Format.text(row, "gpuUuid");
                if (uuid == null || uuid.isBlank()) {
                    unnamed.add(FleetParts.occupant(row));
                } else {
                    byCard.computeIfAbsent(uuid, u -> new ArrayList<>()).add(FleetParts.occupant(row));
                }
            }
            List<Card> cards = new ArrayList<>();
            byCard.keySet().stream().sorted().forEach(uuid -> {
                List<Occupant> occ = byCard.get(uuid);
                BigDecimal held = occ.stream().map(Occupant::fraction).reduce(BigDecimal.ZERO, BigDecimal::add);
                cards.add(new Card(uuid, "/fleet/card?uuid=" + Format.query(uuid) + "&at=" + instant, occ, held));
            });
            BigDecimal unnamedHeld = unnamed.stream().map(Occupant::fraction).reduce(BigDecimal.ZERO, BigDecimal::add);
            int unnamedCards = unnamedHeld.setScale(0, RoundingMode.CEILING).intValue();
            int occupied = cards.size() + unnamedCards;
            int count = Math.max(k.cards(), occupied);
            // the units on cards not named fill their cards evenly in the picture
            for (int u = 0; u < unnamedCards; u++) {
                cards.add(new Card(null, null, unnamed, unnamedHeld.divide(BigDecimal.valueOf(unnamedCards), 6, RoundingMode.HALF_EVEN)));
            }
            for (int free = occupied; free < count; free++) {
                cards.add(new Card(null, null, List.of(), BigDecimal.ZERO));
            }
            BigDecimal held = cards.stream().filter(c -> c.uuid() != null).map(Card::held).reduce(unnamedHeld, BigDecimal::add);
            nodes.add(new Node(k.cluster(), k.node(), count, cards, unnamed, unnamedCards, occupied, Format.number(held)));
        }
        return nodes;
    }

    private static Map<String, Object> pie(List<Occupant> occupants) {
        List<Object> data = new ArrayList<>();
        BigDecimal held = BigDecimal.ZERO;
        for (Occupant o : occupants) {
            data.add(Map.of("name", o.namespace() + "/" + o.pod(), "value", o.fraction().doubleValue()));
            held = held.add(o.fraction());
        }
        if (held.compareTo(BigDecimal.ONE) < 0) {
            data.add(Map.of("name", "free", "value", BigDecimal.ONE.subtract(held).doubleValue(),
                    "itemStyle", Map.of("color", "#e3e8ef")));
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "item", "formatter", "{b}: {c} of the card"));
        option.put("legend", Map.of("bottom", 0, "type", "scroll"));
        option.put("series", List.of(Map.of("type", "pie", "radius", List.of("38%", "62%"), "center", List.of("50%", "45%"), "data", data,
                "label", Map.of("formatter", "{d} %"), "color", List.of("#2f6fb0", "#f0a13a", "#3c8d5a", "#8e5fb0", "#c2504a", "#4aa3a8"))));
        return option;
    }
}
