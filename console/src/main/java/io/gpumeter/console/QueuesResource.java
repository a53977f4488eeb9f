package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.console.QueueAnswers.Pending;
import io.gpumeter.console.QueueAnswers.Wait;
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
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Q6, queues over a window of days grouped one way: how long work waited (the ledger's percentiles), what waits now
 * with its place in its queues, one object's scheduling decisions on a timeline, and the Volcano Jobs that finished.
 * The waits are fleet-wide: tenant tokens are refused by the ledger.
 */
@Path("/queues")
@Produces(MediaType.TEXT_HTML)
public class QueuesResource {

    static final List<String> GROUPS = List.of("clusterQueue", "localQueue", "tenant", "volcanoQueue", "scheduler");

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template queues;

    public QueuesResource(Session session, Upstream upstream, ObjectMapper json, @Location("queues.html") Template queues) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.queues = queues;
    }

    /** A waiting object as the page lists it: its decisions' link and its triage's. */
    @TemplateData
    public record PendingRow(Pending p, String link, String triage) {
    }

    @GET
    @Blocking
    public TemplateInstance queues(@CookieParam(Session.COOKIE) String cookie, @QueryParam("from") String from,
                                   @QueryParam("to") String to, @QueryParam("groupBy") String groupBy,
                                   @QueryParam("pod") String pod, @QueryParam("workload") String workload,
                                   @QueryParam("podGroup") String podGroup, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Queues", "queues", viewer);
        Days days = Days.parse(from, to, page);
        String by = WindowGroups.of(groupBy, GROUPS, page);
        List<Wait> waits = List.of();
        List<PendingRow> pending = new ArrayList<>();
        QueueDecisions.View decisions = null;
        boolean pendingRead = false;
        VolcanoJobs.Section volcano = null;
        if (days.readable() && by != null) {
            var volcanoCall = upstream.getJson(Backend.LEDGER, VolcanoJobs.path(days), viewer.token());
            String chosenKind = given(pod) ? "pod" : given(workload) ? "workload" : given(podGroup) ? "podGroup" : null;
            String chosen = chosenKind == null ? null : (given(pod) ? pod : given(workload) ? workload : podGroup).strip();
            var pendingCall = upstream.getJson(Backend.LEDGER, "/api/v1/queue-wait/pending?at=" + Format.query(Format.rfc3339(days.end())),
                    viewer.token());
            var decisionCall = chosen == null ? null : upstream.getJson(Backend.LEDGER, "/api/v1/scheduling-decisions?"
                    + decisionQuery(chosenKind, chosen), viewer.token());
            Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/queue-wait?" + days.query() + "&groupBy=" + by, viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                waits = answer.listOf(json, Wait.class);
                chart(waits, by, days, page);
                Answer waiting = pendingCall.join();
                page.call(waiting.call());
                if (!waiting.ok()) {
                    page.message(waiting.refusal());
                } else {
                    pendingRead = true;
                    Instant asOf = triageInstant(days);
                    for (Pending p : waiting.listOf(json, Pending.class)) {
                        String link = "/queues?from=" + days.from() + "&to=" + days.to() + "&groupBy=" + by + "&" + p.kind() + "="
                                + Format.query(p.object());
                        pending.add(new PendingRow(p, link, p.name() == null || p.namespace() == null ? null
                                : TriageSubject.link(p.kind(), p.namespace(), p.name(), p.cluster(), asOf)));
                    }
                }
                if (decisionCall != null) {
                    decisions = decisions(decisionCall.join(), chosenKind, chosen, days, page);
                }
            }
            // a tenant reads its own namespaces' jobs here, though the queues' waits are the fleet's
            Answer jobs = volcanoCall.join();
            page.call(jobs.call());
            if (jobs.ok()) {
                volcano = VolcanoJobs.of(jobs.listOf(json, VolcanoJobs.Queue.class));
            } else if (answer.ok()) {
                page.message(jobs.refusal());
            }
        }
        return queues.data("page", page).data("waits", waits).data("pending", pending).data("pendingRead", pendingRead)
                .data("decisions", decisions).data("volcano", volcano).data("volcanoJobsPerQueue", VolcanoJobs.JOBS_PER_QUEUE)
                .data("action", "/queues").data("days", days).data("groupBy", by == null ? GROUPS.get(0) : by)
                .data("groupings", GROUPS).data("chartLabel", "Queues per " + by);
    }

    private void chart(List<Wait> waits, String by, Days days, Page page) {
        if (waits.isEmpty()) {
            page.message(Message.info("Nothing waited in a queue between " + days.from() + " and " + days.to() + ".",
                    "Pick another window or grouping above; waits are known once the collector sees Kueue, Volcano or pending pods."));
            return;
        }
        List<Wait> drawn = charted(waits);
        ChartOption bars = WindowGroups.bars(drawn.stream().map(Wait::group).toList(), "minutes");
        bars.bars("p50", drawn.stream().map(w -> Wait.minutes(w.p50Seconds())).toList());
        bars.bars("p95", drawn.stream().map(w -> Wait.minutes(w.p95Seconds())).toList());
        bars.bars("p99", drawn.stream().map(w -> Wait.minutes(w.p99Seconds())).toList()).colour(Palette.RED);
        String title = drawn.size() == waits.size() ? "Queue wait percentiles per " + by
                : "Queue wait percentiles: the " + drawn.size() + " of " + waits.size() + " per " + by
                  + " with the longest p99 (every one in the table)";
        page.charts.add(Chart.of("window-chart", title, bars, json));
    }

    /** Most bars a chart of waits draws: past this their labels overlap; the table lists every group. */
    static final int CHARTED_GROUPS = 20;

    /** The groups the chart draws: all of them, or the ones with the longest p99 wait, longest first. */
    static List<Wait> charted(List<Wait> waits) {
        if (waits.size() <= CHARTED_GROUPS) {
            return waits;
        }
        return waits.stream().sorted(java.util.Comparator.comparing((Wait w) -> w.p99Seconds() == null ? BigDecimal.ZERO
                        : w.p99Seconds()).reversed().thenComparing(Wait::group)).limit(CHARTED_GROUPS).toList();
    }

    private QueueDecisions.View decisions(Answer d, String kind, String object, Days days, Page page) {
        page.call(d.call());
        if (!d.ok()) {
            page.message(d.refusal());
            return null;
        }
        int slash = object.indexOf('/');
        String triage = slash <= 0 ? null
                : TriageSubject.link(kind, object.substring(0, slash), object.substring(slash + 1), null, triageInstant(days));
        QueueDecisions.Drawn drawn = QueueDecisions.of(d.as(json, QueueAnswers.Decisions.class), kind, object, triage);
        if (drawn.timeline() != null) {
            page.charts.add(Chart.of("decisions-chart", object + ": its scheduling decisions over time", drawn.timeline(), json));
        }
        return drawn.view();
    }

    /** What waits is triaged at the instant the list was read: now for a window reaching into today. */
    private static Instant triageInstant(Days days) {
        return days.to().isAfter(LocalDate.now(ZoneOffset.UTC)) ? null : days.end();
    }

    private static boolean given(String value) {
        return value != null && !value.isBlank();
    }

    private static String decisionQuery(String kind, String object) {
        int slash = object.indexOf('/');
        return slash > 0 ? "namespace=" + Format.query(object.substring(0, slash)) + "&" + kind + "=" + Format.query(object.substring(slash + 1))
                : kind + "=" + Format.query(object);
    }
}
