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
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Q6 and Q8, fleet-wide figures over a window of days grouped one way: how long work waited in the queues, and how
 * often what failed and how fast it recovered. Tenant tokens are refused by the ledger.
 */
@Path("/")
@Produces(MediaType.TEXT_HTML)
public class WindowPages {

    private static final List<String> QUEUE_GROUPS = List.of("clusterQueue", "localQueue", "tenant", "volcanoQueue", "scheduler");
    private static final List<String> FAILURE_GROUPS = List.of("cause", "rootCause", "node", "tenant");

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template table;

    public WindowPages(Session session, Upstream upstream, ObjectMapper json, @Location("window.html") Template table) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.table = table;
    }

    /** A row of a page's table: its group and the cells after it. */
    @TemplateData
    public record Row(String group, List<String> cells) {
    }

    /** An open incident and the evidence it was opened on. */
    @TemplateData
    public record Incident(String cause, String rootCause, String where, String startedAt, String age, int occurrences,
                           String evidence, String triage, String review) {
    }

    /** What waits in a queue now: an object, its queues, why it waits, and where it stands. */
    @TemplateData
    public record Pending(String kind, String object, String link, String queue, String state, String waitingSince, String age,
                          String reason, String cq, String lq, String priority, int rejections, String triage) {
    }

    /** One step of an object's way through the schedulers. */
    @TemplateData
    public record Step(String at, String step, String status, String reason, String message) {
    }

    /** An object's scheduling decisions as the page shows them. */
    @TemplateData
    public record Decisions(String kind, String object, String state, String queue, String reason, List<Step> steps, int lanes,
                            String triage) {

        public int chartHeight() {
            return Math.max(160, 70 + 40 * lanes);
        }
    }

    @GET
    @Path("queues")
    @Blocking
    public TemplateInstance queues(@CookieParam(Session.COOKIE) String cookie, @QueryParam("from") String from,
                                   @QueryParam("to") String to, @QueryParam("groupBy") String groupBy,
                                   @QueryParam("pod") String pod, @QueryParam("workload") String workload,
                                   @QueryParam("podGroup") String podGroup, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Queues", "queues", viewer);
        Days days = Days.parse(from, to, page);
        String by = groupBy(groupBy, QUEUE_GROUPS, page);
        List<Row> rows = new ArrayList<>();
        List<Pending> pending = new ArrayList<>();
        Decisions decisions = null;
        boolean pendingRead = false;
        VolcanoJobs.Section volcano = null;
        if (days.readable() && by != null) {
            var volcanoCall = upstream.getJson(Backend.LEDGER, VolcanoJobs.path(days), viewer.token());
            String chosenKind = pod != null && !pod.isBlank() ? "pod" : workload != null && !workload.isBlank() ? "workload"
                    : podGroup != null && !podGroup.isBlank() ? "podGroup" : null;
            String chosen = chosenKind == null ? null : (pod != null && !pod.isBlank() ? pod : workload != null && !workload.isBlank() ? workload : podGroup).strip();
            var pendingCall = upstream.getJson(Backend.LEDGER, "/api/v1/queue-wait/pending?at=" + Format.query(Format.rfc3339(days.end())),
                    viewer.token());
            var decisionCall = chosen == null ? null : upstream.getJson(Backend.LEDGER, "/api/v1/scheduling-decisions?" + decisionQuery(chosenKind, chosen),
                    viewer.token());
            Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/queue-wait?" + days.query() + "&groupBy=" + by, viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                List<String> keys = new ArrayList<>();
                List<Double> p50 = new ArrayList<>();
                List<Double> p95 = new ArrayList<>();
                List<Double> p99 = new ArrayList<>();
                for (JsonNode r : answer.json()) {
                    String key = Format.text(r, "key");
                    keys.add(key == null ? "(none)" : key);
                    rows.add(new Row(key == null ? "(none)" : key, List.of(r.path("count").asText(),
                            Format.duration(Format.decimalOrNull(r, "p50Seconds")), Format.duration(Format.decimalOrNull(r, "p95Seconds")),
                            Format.duration(Format.decimalOrNull(r, "p99Seconds")), Format.duration(Format.decimalOrNull(r, "maxSeconds")))));
                    p50.add(minutes(r, "p50Seconds"));
                    p95.add(minutes(r, "p95Seconds"));
                    p99.add(minutes(r, "p99Seconds"));
                }
                if (rows.isEmpty()) {
                    page.message(Message.info("Nothing waited in a queue between " + days.from() + " and " + days.to() + ".",
                            "Pick another window or grouping above; waits are known once the collector sees Kueue, Volcano or pending pods."));
                } else {
                    page.charts.add(Chart.of("window-chart", "Queue wait percentiles per " + by, bars(keys, "minutes",
                            List.of(series("p50", p50, "#2f6fb0"), series("p95", p95, "#f0a13a"), series("p99", p99, "#c2504a"))), json));
                }
                Answer waiting = pendingCall.join();
                page.call(waiting.call());
                if (!waiting.ok()) {
                    page.message(waiting.refusal());
                } else {
                    pendingRead = true;
                    java.time.Instant asOf = triageInstant(days);
                    for (JsonNode p : waiting.json()) {
                        String kind = TriageLinks.kindOf(p);
                        String object = Format.text(p, "namespace") + "/" + Format.text(p, "name");
                        String link = "/queues?from=" + days.from() + "&to=" + days.to() + "&groupBy=" + by + "&" + kind + "=" + Format.query(object);
                        pending.add(new Pending(kind, object, link, queueOf(p), Optional.ofNullable(Format.text(p, "state")).orElse(""),
                                Optional.ofNullable(Format.text(p, "waitingSince")).orElse(""), Format.duration(Format.decimalOrNull(p, "ageSeconds")),
                                Optional.ofNullable(Format.text(p, "reasonClass")).orElse(Optional.ofNullable(Format.text(p, "reason")).orElse("")),
                                Optional.ofNullable(Format.text(p, "positionInClusterQueue")).orElse(""),
                                Optional.ofNullable(Format.text(p, "positionInLocalQueue")).orElse(""),
                                Optional.ofNullable(Format.text(p, "priority")).orElse(""), p.path("rejections").asInt(),
                                TriageLinks.ofPending(p, asOf)));
                    }
                }
                if (decisionCall != null) {
                    Answer d = decisionCall.join();
                    page.call(d.call());
                    if (!d.ok()) {
                        page.message(d.refusal());
                    } else {
                        decisions = decisions(d.json(), chosenKind, chosen, page, TriageLinks.ofObject(chosenKind, chosen, triageInstant(days)));
                    }
                }
            }
            // a tenant reads its own namespaces' jobs here, though the queues' waits are the fleet's
            Answer jobs = volcanoCall.join();
            page.call(jobs.call());
            if (jobs.ok()) {
                volcano = VolcanoJobs.of(jobs.json());
            } else if (answer.ok()) {
                page.message(jobs.refusal());
            }
        }
        return table.data("page", page).data("incidents", List.of()).data("incidentsRead", false).data("pending", pending)
                .data("timeline", null).data("changesLink", null)
                .data("pendingRead", pendingRead).data("decisions", decisions).data("volcano", volcano)
                .data("volcanoJobsPerQueue", VolcanoJobs.JOBS_PER_QUEUE)
                .data("action", "/queues").data("days", days).data("groupBy", by == null ? QUEUE_GROUPS.get(0) : by)
                .data("groups", QUEUE_GROUPS).data("rows", rows)
                .data("headers", List.of("Waits", "p50", "p95", "p99", "Longest"))
                .data("caption", "How long work waited before it was admitted or scheduled: percentiles of the waits that ended in the window.");
    }

    @GET
    @Path("failures")
    @Blocking
    public TemplateInstance failures(@CookieParam(Session.COOKIE) String cookie, @QueryParam("from") String from,
                                     @QueryParam("to") String to, @QueryParam("groupBy") String groupBy, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Failures", "failures", viewer);
        Days days = Days.parse(from, to, page);
        String by = groupBy(groupBy, FAILURE_GROUPS, page);
        List<Row> rows = new ArrayList<>();
        List<Incident> incidents = new ArrayList<>();
        boolean incidentsRead = false;
        FailureTimeline.Drawn timeline = null;
        if (days.readable() && by != null) {
            var openCall = upstream.getJson(Backend.LEDGER, "/api/v1/failures/incidents?open=true&limit=100", viewer.token());
            var inWindowCall = upstream.getJson(Backend.LEDGER, "/api/v1/failures/incidents?" + days.query() + "&limit="
                    + FailureTimeline.MOST, viewer.token());
            Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/failures?" + days.query() + "&groupBy=" + by, viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                List<String> keys = new ArrayList<>();
                List<Double> recovered = new ArrayList<>();
                List<Double> open = new ArrayList<>();
                List<Double> other = new ArrayList<>();
                for (JsonNode r : answer.json()) {
                    String key = Format.text(r, "key");
                    int count = r.path("count").asInt();
                    int rec = r.path("recovered").asInt();
                    int opened = r.path("open").asInt();
                    keys.add(key);
                    recovered.add((double) rec);
                    open.add((double) opened);
                    other.add((double) Math.max(0, count - rec - opened));
                    BigDecimal rate = Format.decimalOrNull(r, "ratePer1000GpuHours");
                    rows.add(new Row(key, List.of(Integer.toString(count), Integer.toString(rec), Integer.toString(opened),
                            rate == null ? "" : Format.number(rate), Format.duration(Format.decimalOrNull(r, "mttrP50Seconds")),
                            Format.duration(Format.decimalOrNull(r, "mttrMeanSeconds")),
                            r.hasNonNull("rootCauseClass") ? r.get("rootCauseClass").asText() : "")));
                }
                if (rows.isEmpty()) {
                    page.message(Message.info("Nothing failed between " + days.from() + " and " + days.to() + ".",
                            "Pick another window above; failures come from pod, node and GPU (Xid, DCGM health) signals."));
                } else {
                    page.charts.add(Chart.of("window-chart", "Failures per " + by, bars(keys, "failures",
                            List.of(stacked("recovered", recovered, "#3c8d5a"), stacked("open", open, "#c2504a"),
                                    stacked("ended unrecovered", other, "#c9cfd6"))), json));
                }
                Answer inWindow = inWindowCall.join();
                page.call(inWindow.call());
                if (!inWindow.ok()) {
                    page.message(inWindow.refusal());
                } else if (inWindow.json().size() > 0) {
                    timeline = failureTimeline(inWindow.json(), days, viewer, page);
                }
                Answer incidentAnswer = openCall.join();
                page.call(incidentAnswer.call());
                if (!incidentAnswer.ok()) {
                    page.message(incidentAnswer.refusal());
                } else {
                    incidentsRead = true;
                    java.time.Instant now = java.time.Instant.now();
                    for (JsonNode i : incidentAnswer.json()) {
                        List<String> where = new ArrayList<>();
                        for (String f : List.of("cluster", "node", "gpuUuid", "gpuPci")) {
                            if (i.hasNonNull(f) && !i.get(f).asText().isBlank()) {
                                where.add(i.get(f).asText());
                            }
                        }
                        if (i.hasNonNull("pod")) {
                            where.add(Format.text(i, "namespace") + "/" + Format.text(i, "pod"));
                        }
                        String started = Format.text(i, "startedAt");
                        String age = started == null ? "" : Format.instant(started).map(t -> Format.duration(
                                BigDecimal.valueOf(Math.max(0, java.time.Duration.between(t, now).toSeconds())))).orElse("");
                        incidents.add(new Incident(Format.text(i, "cause"), Format.text(i, "rootCauseClass"), String.join(" · ", where),
                                started, age, i.path("occurrences").asInt(), Format.text(i, "evidence"), TriageLinks.ofIncident(i),
                                TriageLinks.reviewOf(i)));
                    }
                }
            }
        }
        return table.data("page", page).data("incidents", incidents).data("incidentsRead", incidentsRead)
                .data("pending", List.of()).data("pendingRead", false).data("decisions", null).data("volcano", null)
                .data("volcanoJobsPerQueue", VolcanoJobs.JOBS_PER_QUEUE)
                .data("timeline", timeline).data("changesLink", days.readable() ? "/changes?from=" + days.from() + "&to=" + days.to() : null)
                .data("action", "/failures").data("days", days).data("groupBy", by == null ? FAILURE_GROUPS.get(0) : by)
                .data("groups", FAILURE_GROUPS).data("rows", rows)
                .data("headers", List.of("Failures", "Recovered", "Open", "per 1,000 GPU-h", "MTTR p50", "MTTR mean", "Root cause"))
                .data("caption", "Failures that started in the window, and the time to recover of those that did.");
    }

    /**
     * The window's failures on a time axis, one lane per cause, with the changes of the nodes they happened on (and
     * their clusters' cluster-wide ones) marked, from one bulk read of the change book.
     */
    private FailureTimeline.Drawn failureTimeline(JsonNode inWindow, Days days, Viewer viewer, Page page) {
        List<ChangeReads.Scope> scopes = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (JsonNode i : inWindow) {
            String cluster = Format.text(i, "cluster");
            String node = Format.text(i, "node");
            if (cluster != null && node != null && seen.add(cluster + "/" + node)) {
                scopes.add(new ChangeReads.Scope(cluster, node, days.start(), days.end(), FailureTimeline.CHANGES_PER_NODE, false));
            }
        }
        List<BookChange> changes = ChangeReads.bulk(upstream, json, viewer, page, scopes);
        FailureTimeline.Drawn drawn = FailureTimeline.of(inWindow, days.start(), days.end());
        int marked = changes == null ? 0 : ChangeMarks.add(drawn.option(), changes, days.start(), days.end());
        page.charts.add(Chart.of("failures-timeline", "Failures in time" + (marked > 0 ? ", with the changes of their nodes" : ""),
                drawn.option(), json));
        return drawn.marked(marked);
    }

    /** What waits is triaged at the instant the list was read: now for a window reaching into today. */
    private static java.time.Instant triageInstant(Days days) {
        return days.to().isAfter(java.time.LocalDate.now(java.time.ZoneOffset.UTC)) ? null : days.end();
    }

    private static String decisionQuery(String kind, String object) {
        int slash = object.indexOf('/');
        return slash > 0 ? "namespace=" + Format.query(object.substring(0, slash)) + "&" + kind + "=" + Format.query(object.substring(slash + 1))
                : kind + "=" + Format.query(object);
    }

    private static String queueOf(JsonNode p) {
        List<String> q = new ArrayList<>();
        for (String f : List.of("clusterQueue", "localQueue", "volcanoQueue")) {
            if (p.hasNonNull(f)) {
                q.add(p.get(f).asText());
            }
        }
        if (q.isEmpty() && p.hasNonNull("scheduler")) {
            q.add(p.get("scheduler").asText());
        }
        return String.join(" · ", q);
    }

    /** The trail as a table and as a timeline: one row per step kind, a mark per entry, the waits as bands. */
    private Decisions decisions(JsonNode d, String kind, String object, Page page, String triage) {
        List<Step> steps = new ArrayList<>();
        List<String> lanes = new ArrayList<>();
        List<Map<String, Object>> marks = new ArrayList<>();
        for (JsonNode t : d.path("trail")) {
            String step = Optional.ofNullable(Format.text(t, "step")).orElse("");
            String status = Optional.ofNullable(Format.text(t, "status")).orElse("");
            String reason = Optional.ofNullable(Format.text(t, "reason")).orElse("");
            steps.add(new Step(Format.text(t, "at"), step, status, reason, Optional.ofNullable(Format.text(t, "message")).orElse("")));
            if (!lanes.contains(step)) {
                lanes.add(step);
            }
            boolean refused = t.hasNonNull("reasonClass");
            marks.add(Map.of("value", List.of(Format.text(t, "at"), step), "name", (status + " " + reason).strip(),
                    "itemStyle", Map.of("color", refused ? "#c2504a" : "#2f6fb0")));
        }
        List<List<Object>> waits = new ArrayList<>();
        for (JsonNode w : d.path("waits")) {
            String end = Optional.ofNullable(Format.text(w, "admittedAt")).orElse(Format.text(w, "reservedAt"));
            if (Format.text(w, "waitFrom") != null && end != null) {
                waits.add(List.of(Map.of("xAxis", Format.text(w, "waitFrom")), Map.of("xAxis", end)));
            }
        }
        if (!steps.isEmpty()) {
            Map<String, Object> series = new LinkedHashMap<>();
            series.put("name", "steps");
            series.put("type", "scatter");
            series.put("symbolSize", 12);
            series.put("data", marks);
            series.put("markArea", Map.of("silent", true, "itemStyle", Map.of("color", "rgba(240,161,58,0.15)"),
                    "label", Map.of("show", true, "formatter", "waiting", "color", "#8a5a12"), "data", waits));
            Map<String, Object> option = new LinkedHashMap<>();
            option.put("tooltip", Map.of("trigger", "item"));
            option.put("grid", Map.of("left", 140, "right", 30, "top", 20, "bottom", 40));
            option.put("xAxis", Map.of("type", "time"));
            option.put("yAxis", Map.of("type", "category", "data", lanes, "inverse", true));
            option.put("series", List.of(series));
            page.charts.add(Chart.of("decisions-chart", object + ": its scheduling decisions over time", option, json));
        }
        JsonNode q = d.path("queue");
        String queue = q.isObject() ? queueOf(q) : "";
        return new Decisions(kind, object, Optional.ofNullable(Format.text(d, "state")).orElse(""), queue,
                Optional.ofNullable(Format.text(d, "reason")).orElse(""), steps, lanes.size(), triage);
    }

    private static String groupBy(String text, List<String> allowed, Page page) {
        if (text == null || text.isBlank()) {
            return allowed.get(0);
        }
        if (!allowed.contains(text.strip())) {
            page.message(Message.error("That grouping is not offered", "groupBy must be one of " + String.join(", ", allowed)
                    + ", got '" + text + "'.", "Pick one in the form above."));
            return null;
        }
        return text.strip();
    }

    private static double minutes(JsonNode row, String field) {
        BigDecimal seconds = Format.decimalOrNull(row, field);
        return seconds == null ? 0 : seconds.divide(BigDecimal.valueOf(60), 2, RoundingMode.HALF_EVEN).doubleValue();
    }

    private static Map<String, Object> series(String name, List<Double> data, String color) {
        return Map.of("name", name, "type", "bar", "barMaxWidth", 40, "color", color, "data", data);
    }

    private static Map<String, Object> stacked(String name, List<Double> data, String color) {
        return Map.of("name", name, "type", "bar", "stack", "n", "barMaxWidth", 60, "color", color, "data", data);
    }

    private static Map<String, Object> bars(List<String> keys, String unit, List<Map<String, Object>> series) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 40, "bottom", 60));
        option.put("xAxis", Map.of("type", "category", "data", keys, "axisLabel", Map.of("interval", 0, "rotate", keys.size() > 6 ? 30 : 0)));
        option.put("yAxis", Map.of("type", "value", "name", unit));
        option.put("series", series);
        return option;
    }
}
