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
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * Q4, jitter: slo-service's jitter events in a window (a page of them at a time), and one event with its evidence —
 * the service's latency curve against the limit, the same-card neighbours' arrivals and resource curves and the host's
 * and the card's pressures ({@link JitterPressures}) on the same time axis, and the suspects ranked — beside the
 * service's interference factor by neighbour count. Fleet-wide:
 * tenant tokens are refused by slo-service.
 */
@Path("/jitter")
@Produces(MediaType.TEXT_HTML)
public class JitterResource {

    static final int PAGE = 20;
    /** How far before an event its nodes' changes are read, as the ledger's correlation looks back. */
    static final Duration LOOK_BACK = Duration.ofDays(1);
    /** The most changes read per node, newest first, and the most the event's table lists. */
    static final int CHANGES_READ = 100;
    static final int CHANGES_SHOWN = 20;
    /** The longest window slo-service's interference factor spans. */
    static final Duration INTERFERENCE_MAX = Duration.ofDays(1);
    private static final List<String> COLORS = List.of("#f0a13a", "#8a5ab0", "#3c8d5a", "#c2504a", "#4a9fb0", "#b07a4a");

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template jitter;

    public JitterResource(Session session, Upstream upstream, ObjectMapper json, @Location("jitter.html") Template jitter) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.jitter = jitter;
    }

    /** An event in the list. */
    @TemplateData
    public record Row(long id, String link, String service, String slo, String sli, String start, String end, int badMinutes,
                      String peak, String limit, String suspect, boolean chosen, String triage) {
    }

    /** A ranked suspect and why. */
    @TemplateData
    public record Suspect(int rank, String key, String score, String arrivedBefore, String ramp, String rises, String reasons) {
    }

    /** A neighbour count's interference factor. */
    @TemplateData
    public record Bucket(String bucket, long podMinutes, String p99, String ifLatency, String ifThroughput) {
    }

    /** The chosen event. */
    @TemplateData
    public record Event(long id, String service, String slo, String sli, String start, String end, int badMinutes, String peak,
                        String limit, List<String> neighbours, List<Suspect> suspects, List<String> gaps, List<NearChange> changes,
                        boolean changesRead, String triage) {

        public int arrivalsHeight() {
            return 60 + 36 * neighbours.size();
        }
    }

    @GET
    @Blocking
    public TemplateInstance jitter(@CookieParam(Session.COOKIE) String cookie, @QueryParam("to") String toText,
                                   @QueryParam("window") String windowText, @QueryParam("offset") String offsetText,
                                   @QueryParam("event") String eventText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Jitter", "jitter", viewer);
        Span span = Span.parse(toText, windowText == null || windowText.isBlank() ? "24h" : windowText, page);
        int offset = whole(offsetText, "offset", page);
        Long chosen = eventText == null || eventText.isBlank() ? null : (long) whole(eventText, "event", page);
        List<Row> rows = new ArrayList<>();
        List<Bucket> buckets = new ArrayList<>();
        List<Bucket> kinds = new ArrayList<>();
        Event event = null;
        boolean more = false;
        String base = "/jitter?window=" + span.window() + "&to=" + Format.query(span.rfc3339To());
        if (span.readable() && !page.refused()) {
            Answer list = upstream.getJson(Backend.SLO, "/api/v1/jitter-events?" + span.query() + "&limit=" + (PAGE + 1)
                    + "&offset=" + offset, viewer.token()).join();
            page.call(list.call());
            if (!list.ok()) {
                page.message(list.refusal());
            } else {
                List<JsonNode> events = new ArrayList<>();
                list.json().forEach(events::add);
                more = events.size() > PAGE;
                if (more) {
                    events = events.subList(0, PAGE);
                }
                if (chosen == null && !events.isEmpty()) {
                    chosen = events.get(0).path("id").asLong();
                }
                for (JsonNode e : events) {
                    long id = e.path("id").asLong();
                    String top = Format.text(e, "topSuspect");
                    BigDecimal score = Format.decimalOrNull(e, "topSuspectScore");
                    rows.add(new Row(id, base + "&offset=" + offset + "&event=" + id, service(e), Format.text(e, "slo"),
                            Format.text(e, "sli"), Format.text(e, "start"), Format.text(e, "end"), e.path("badMinutes").asInt(),
                            ms(Format.decimalOrNull(e, "peakP99Ms")), ms(Format.decimalOrNull(e, "limitMs")),
                            top == null ? "" : top + (score != null ? " (" + score.setScale(2, java.math.RoundingMode.HALF_EVEN) + ")" : ""),
                            chosen != null && id == chosen, TriageLinks.ofJitterEvent(e)));
                }
                if (events.isEmpty()) {
                    page.message(Message.info(offset > 0 ? "No more jitter events in this window." : "No jitter event between "
                                    + Format.rfc3339(span.from()) + " and " + span.rfc3339To() + ".",
                            "Pick a longer or earlier window above; slo-service records an event when a latency SLO's p99 stays over its limit for minutes on end."));
                }
                if (chosen != null) {
                    event = event(chosen, span, viewer, page, buckets, kinds);
                }
            }
        }
        return jitter.data("page", page).data("rows", rows).data("event", event).data("buckets", buckets).data("kinds", kinds).data("span", span)
                .data("windows", Span.windows()).data("previous", offset > 0 ? base + "&offset=" + Math.max(0, offset - PAGE) : null)
                .data("next", more ? base + "&offset=" + (offset + PAGE) : null).data("first", offset + 1).data("last", offset + rows.size());
    }

    private Event event(long id, Span span, Viewer viewer, Page page, List<Bucket> buckets, List<Bucket> kinds) {
        Answer answer = upstream.getJson(Backend.SLO, "/api/v1/jitter-events/" + id, viewer.token()).join();
        page.call(answer.call());
        if (!answer.ok()) {
            page.message(answer.refusal());
            return null;
        }
        JsonNode e = answer.json();
        String service = Format.text(e, "service");
        String namespace = Format.text(e, "namespace");
        Instant ifTo = span.to();
        Instant ifFrom = span.length().compareTo(INTERFERENCE_MAX) > 0 ? ifTo.minus(INTERFERENCE_MAX) : span.from();
        // the event's service in its namespace: the same name in another namespace is another tenant's service
        CompletableFuture<Answer> interference = service == null ? null : upstream.getJson(Backend.SLO, "/api/v1/interference?service="
                + Format.query(service) + (namespace == null ? "" : "&namespace=" + Format.query(namespace)) + "&from=" + Format.query(Format.rfc3339(ifFrom)) + "&to=" + Format.query(Format.rfc3339(ifTo))
                + "&sli=" + Optional.ofNullable(Format.text(e, "sli")).orElse("TTFT"), viewer.token());
        String from = Format.text(e, "curveFrom");
        String to = Format.text(e, "curveTo");
        List<String> neighbours = new ArrayList<>();
        for (JsonNode n : e.path("neighbours")) {
            neighbours.add(Format.text(n, "namespace") + "/" + Format.text(n, "pod"));
        }
        List<BookChange> changes = changes(e, viewer, page);
        Instant spanFrom = Format.instant(Optional.ofNullable(from).orElse(Format.text(e, "start"))).orElse(Instant.EPOCH);
        Instant spanTo = Format.instant(Optional.ofNullable(to).orElse(Format.text(e, "end"))).orElse(Instant.EPOCH);
        Map<String, Object> latency = latencyChart(e, from, to);
        ChangeMarks.add(latency, changes == null ? List.of() : changes, spanFrom, spanTo);
        page.charts.add(Chart.of("jitter-latency", "The service's latency around the event", latency, json));
        if (!neighbours.isEmpty()) {
            Map<String, Object> arrivals = arrivalsChart(e, from, to, neighbours);
            // its lanes run top down, so a line's end is on the time axis: no labels there
            ChangeMarks.add(arrivals, changes == null ? List.of() : changes, spanFrom, spanTo, false);
            page.charts.add(Chart.of("jitter-arrivals", "The same-card neighbours' arrivals", arrivals, json));
            Map<String, Object> resources = resourcesChart(e, from, to);
            if (resources != null) {
                ChangeMarks.add(resources, changes == null ? List.of() : changes, spanFrom, spanTo);
                page.charts.add(Chart.of("jitter-resources", "The neighbours' activity on the shared cards", resources, json));
            }
        }
        Map<String, Object> pressures = JitterPressures.chart(e, timeAxis(from, to));
        if (pressures != null) {
            ChangeMarks.add(pressures, changes == null ? List.of() : changes, spanFrom, spanTo);
            page.charts.add(Chart.of("jitter-pressures", "The host's and the card's pressures on the service", pressures, json));
        }
        List<Suspect> suspects = new ArrayList<>();
        for (JsonNode s : e.path("suspects")) {
            List<String> rises = new ArrayList<>();
            for (JsonNode r : s.path("rises")) {
                rises.add(Format.text(r, "field") + " " + round(r.path("before").asDouble()) + " → " + round(r.path("recent").asDouble()));
            }
            List<String> reasons = new ArrayList<>();
            s.path("reasons").forEach(r -> reasons.add(r.asText()));
            JsonNode before = s.get("arrivedMinutesBefore");
            suspects.add(new Suspect(s.path("rank").asInt(), Format.text(s, "key"), round(s.path("score").asDouble()),
                    before == null || before.isNull() ? "" : round(before.asDouble()) + " min", round(s.path("ramp").asDouble()),
                    String.join("; ", rises), String.join("; ", reasons)));
        }
        List<String> gaps = new ArrayList<>();
        e.path("gaps").forEach(g -> gaps.add(g.asText()));
        gaps.addAll(JitterPressures.unmeasured(e));
        if (interference != null) {
            Answer a = interference.join();
            page.call(a.call());
            if (!a.ok()) {
                page.message(a.refusal());
            } else {
                List<String> names = new ArrayList<>();
                List<Double> factors = new ArrayList<>();
                for (JsonNode b : a.json().path("byNeighbours")) {
                    BigDecimal factor = Format.decimalOrNull(b, "ifLatency");
                    buckets.add(bucket(b));
                    names.add(label(Format.text(b, "bucket")));
                    factors.add(factor == null ? null : factor.doubleValue());
                }
                for (JsonNode b : a.json().path("byKind")) {
                    kinds.add(bucket(b));
                }
                if (!buckets.isEmpty()) {
                    page.charts.add(Chart.of("interference-chart", "Interference factor by neighbour count", interferenceChart(names, factors), json));
                }
            }
        }
        return new Event(e.path("id").asLong(), service(e), Format.text(e, "slo"), Format.text(e, "sli"), Format.text(e, "start"),
                Format.text(e, "end"), e.path("badMinutes").asInt(), ms(Format.decimalOrNull(e, "peakP99Ms")),
                ms(Format.decimalOrNull(e, "limitMs")), neighbours, suspects, gaps,
                changes == null ? List.of() : NearChange.of(changes, Format.instant(Format.text(e, "start")).orElse(spanFrom), spanFrom,
                        spanTo, CHANGES_SHOWN), changes != null, TriageLinks.ofJitterEvent(e));
    }

    /**
     * The changes of the nodes the event's service ran on, and their clusters' cluster-wide ones, over the day before
     * the event up to the end of its curves, in one bulk read; the nodes' cluster from the service's occupants at the
     * event's start (the event names nodes, not clusters). Null when a read was refused (the page says why).
     */
    private List<BookChange> changes(JsonNode e, Viewer viewer, Page page) {
        List<String> nodes = new ArrayList<>();
        for (JsonNode p : e.path("pods")) {
            for (JsonNode g : p.path("gpus")) {
                String node = Format.text(g, "node");
                if (node != null && !nodes.contains(node)) {
                    nodes.add(node);
                }
            }
        }
        String start = Format.text(e, "start");
        Optional<Instant> startAt = start == null ? Optional.empty() : Format.instant(start);
        if (nodes.isEmpty() || startAt.isEmpty()) {
            return List.of();
        }
        String namespace = Format.text(e, "namespace");
        Answer occupants = upstream.getJson(Backend.LEDGER, "/api/v1/fleet/occupants?at=" + Format.query(start)
                + (namespace != null ? "&namespace=" + Format.query(namespace) : "&node=" + Format.query(nodes.get(0))), viewer.token()).join();
        page.call(occupants.call());
        if (!occupants.ok()) {
            page.message(occupants.refusal());
            return null;
        }
        Map<String, String> clusterOf = new LinkedHashMap<>();
        for (JsonNode o : occupants.json()) {
            String node = Format.text(o, "node");
            String cluster = Format.text(o, "cluster");
            if (node != null && cluster != null && nodes.contains(node)) {
                clusterOf.putIfAbsent(node, cluster);
            }
        }
        Instant end = Format.instant(Optional.ofNullable(Format.text(e, "curveTo")).orElse(Optional.ofNullable(Format.text(e, "end"))
                .orElse(start))).orElse(startAt.get()).plusSeconds(60);
        List<ChangeReads.Scope> scopes = new ArrayList<>();
        clusterOf.forEach((node, cluster) -> scopes.add(new ChangeReads.Scope(cluster, node, startAt.get().minus(LOOK_BACK), end,
                CHANGES_READ, true)));
        return ChangeReads.bulk(upstream, json, viewer, page, scopes);
    }

    /** A service as it is known, "namespace/name" (just the name for an event stored before namespaces counted). */
    static String service(JsonNode event) {
        String service = Format.text(event, "service");
        String namespace = Format.text(event, "namespace");
        return namespace == null || service == null ? service : namespace + "/" + service;
    }

    /** One bucket of the interference factor, by neighbour count or by neighbour kind. */
    private static Bucket bucket(JsonNode b) {
        BigDecimal factor = Format.decimalOrNull(b, "ifLatency");
        BigDecimal throughput = Format.decimalOrNull(b, "ifThroughput");
        return new Bucket(Format.text(b, "bucket"), b.path("podMinutes").asLong(), ms(Format.decimalOrNull(b, "p99Ms")),
                factor == null ? "" : factor.setScale(2, java.math.RoundingMode.HALF_EVEN).toPlainString(),
                throughput == null ? "" : throughput.setScale(2, java.math.RoundingMode.HALF_EVEN).toPlainString());
    }

    private static String label(String bucket) {
        return "0".equals(bucket) ? "dedicated" : bucket + " neighbour" + ("1".equals(bucket) ? "" : "s");
    }

    private static Map<String, Object> timeAxis(String from, String to) {
        Map<String, Object> axis = new LinkedHashMap<>();
        axis.put("type", "time");
        if (from != null) {
            axis.put("min", from);
        }
        if (to != null) {
            axis.put("max", to);
        }
        return axis;
    }

    private static Map<String, Object> latencyChart(JsonNode e, String from, String to) {
        List<Map<String, Object>> series = new ArrayList<>();
        for (String[] p : List.of(new String[]{"p50Ms", "p50", "#9fc0e3"}, new String[]{"p95Ms", "p95", "#5b8fc7"}, new String[]{"p99Ms", "p99", "#2f6fb0"})) {
            List<List<Object>> points = new ArrayList<>();
            for (JsonNode m : e.path("latency")) {
                JsonNode v = m.get(p[0]);
                if (v != null && !v.isNull()) {
                    points.add(List.of(Format.text(m, "minute"), v.asDouble()));
                }
            }
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", p[1]);
            s.put("type", "line");
            s.put("showSymbol", false);
            s.put("color", p[2]);
            s.put("data", points);
            series.add(s);
        }
        Map<String, Object> p99 = series.get(2);
        p99.put("markLine", Map.of("symbol", "none", "silent", true, "lineStyle", Map.of("color", "#c2504a", "type", "dashed"),
                "label", Map.of("formatter", "limit " + ms(Format.decimalOrNull(e, "limitMs"))),
                "data", List.of(Map.of("yAxis", Format.decimal(e, "limitMs").doubleValue()))));
        p99.put("markArea", Map.of("silent", true, "itemStyle", Map.of("color", "rgba(194,80,74,0.12)"),
                "data", List.of(List.of(Map.of("xAxis", Format.text(e, "start")), Map.of("xAxis", Format.text(e, "end"))))));
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis"));
        option.put("legend", Map.of("top", 0, "type", "scroll"));
        option.put("grid", Map.of("left", 270, "right", 110, "top", 56, "bottom", 30));
        option.put("xAxis", timeAxis(from, to));
        option.put("yAxis", Map.of("type", "value", "name", "ms"));
        option.put("series", series);
        return option;
    }

    /** Each neighbour's time on the shared cards as a band on its own row, the event shaded. */
    private static Map<String, Object> arrivalsChart(JsonNode e, String from, String to, List<String> names) {
        List<Map<String, Object>> series = new ArrayList<>();
        int i = 0;
        for (JsonNode n : e.path("neighbours")) {
            String name = names.get(i);
            String since = Optional.ofNullable(Format.text(n, "since")).orElse(Optional.ofNullable(from).orElse(Format.text(e, "start")));
            String until = Optional.ofNullable(Format.text(n, "until")).orElse(Optional.ofNullable(to).orElse(Format.text(e, "end")));
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", name);
            s.put("type", "line");
            s.put("color", COLORS.get(i % COLORS.size()));
            s.put("lineStyle", Map.of("width", 10));
            s.put("symbol", "circle");
            s.put("symbolSize", 10);
            s.put("data", List.of(List.of(since, name), List.of(until, name)));
            if (i == 0) {
                s.put("markArea", Map.of("silent", true, "itemStyle", Map.of("color", "rgba(194,80,74,0.12)"),
                        "data", List.of(List.of(Map.of("xAxis", Format.text(e, "start")), Map.of("xAxis", Format.text(e, "end"))))));
            }
            series.add(s);
            i++;
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "item"));
        option.put("grid", Map.of("left", 270, "right", 110, "top", 10, "bottom", 30));
        option.put("xAxis", timeAxis(from, to));
        option.put("yAxis", Map.of("type", "category", "data", names, "inverse", true,
                "axisLabel", Map.of("width", 260, "overflow", "truncate")));
        option.put("series", series);
        return option;
    }

    /** Each neighbour's activity in percent, minute by minute by the suite's one rule ({@link ActivityCurve}). */
    private static Map<String, Object> resourcesChart(JsonNode e, String from, String to) {
        List<Map<String, Object>> series = new ArrayList<>();
        int i = 0;
        for (JsonNode n : e.path("neighbours")) {
            String name = Format.text(n, "namespace") + "/" + Format.text(n, "pod");
            ActivityCurve activity = new ActivityCurve();
            n.path("curves").fields().forEachRemaining(curve -> curve.getValue().path("points").forEach(p ->
                    activity.add(curve.getKey(), Format.text(p, "minute"), p.path("mean").asDouble())));
            List<List<Object>> points = activity.points().stream()
                    .<List<Object>>map(p -> List.of(p.minute(), p.percent())).toList();
            if (!points.isEmpty()) {
                Map<String, Object> s = new LinkedHashMap<>();
                s.put("name", name + " " + activity.fields());
                s.put("type", "line");
                s.put("showSymbol", false);
                s.put("color", COLORS.get(i % COLORS.size()));
                s.put("data", points);
                series.add(s);
            }
            i++;
        }
        if (series.isEmpty()) {
            return null;
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis"));
        option.put("legend", Map.of("top", 0, "type", "scroll"));
        option.put("grid", Map.of("left", 270, "right", 110, "top", 56, "bottom", 30));
        option.put("xAxis", timeAxis(from, to));
        option.put("yAxis", Map.of("type", "value", "name", "% active", "max", 100));
        option.put("series", series);
        return option;
    }

    private static Map<String, Object> interferenceChart(List<String> names, List<Double> factors) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("grid", Map.of("left", 60, "right", 100, "top", 30, "bottom", 30));
        option.put("xAxis", Map.of("type", "category", "data", names));
        option.put("yAxis", Map.of("type", "value", "name", "p99 ÷ dedicated p99"));
        Map<String, Object> series = new LinkedHashMap<>();
        series.put("name", "IF latency");
        series.put("type", "bar");
        series.put("barMaxWidth", 50);
        series.put("color", "#8a5ab0");
        series.put("data", factors);
        series.put("markLine", Map.of("symbol", "none", "silent", true, "lineStyle", Map.of("color", "#5b6b7c", "type", "dashed"),
                "label", Map.of("formatter", "as dedicated"), "data", List.of(Map.of("yAxis", 1))));
        option.put("series", List.of(series));
        return option;
    }

    private static int whole(String text, String field, Page page) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        page.message(Message.error("That " + field + " is not readable", field + " must be a whole number from 0, got '" + text + "'.",
                "Follow a link on this page instead."));
        return 0;
    }

    private static String ms(BigDecimal value) {
        return value == null ? "" : value.setScale(0, java.math.RoundingMode.HALF_EVEN).toPlainString() + " ms";
    }

    private static String round(double value) {
        return BigDecimal.valueOf(value).setScale(2, java.math.RoundingMode.HALF_EVEN).toPlainString();
    }
}
