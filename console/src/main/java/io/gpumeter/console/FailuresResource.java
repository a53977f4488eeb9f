package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.console.FailureAnswers.Group;
import io.gpumeter.console.FailureAnswers.Incident;
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
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Q8, failures over a window of days grouped one way: how often what failed and how fast it recovered, the window's
 * failures in time beside the changes of their nodes, and every open incident, a page at a time. Fleet-wide: tenant
 * tokens are refused by the ledger.
 */
@Path("/failures")
@Produces(MediaType.TEXT_HTML)
public class FailuresResource {

    static final List<String> GROUPS = List.of("cause", "rootCause", "node", "tenant");
    /** The open incidents one page lists; the rest are a link away. */
    static final int INCIDENTS_PER_PAGE = 100;

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template failures;

    public FailuresResource(Session session, Upstream upstream, ObjectMapper json, @Location("failures.html") Template failures) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.failures = failures;
    }

    /** An open incident as the page lists it: how long it has been open, its triage and its review. */
    @TemplateData
    public record IncidentRow(Incident i, String age, String triage, String review) {
    }

    /** A page of the open incidents: which, of how many, and the links to the pages beside it. */
    @TemplateData
    public record IncidentPage(List<IncidentRow> rows, int first, int last, Long total, String previous, String next) {
    }

    @GET
    @Blocking
    public TemplateInstance failures(@CookieParam(Session.COOKIE) String cookie, @QueryParam("from") String from,
                                     @QueryParam("to") String to, @QueryParam("groupBy") String groupBy,
                                     @QueryParam("incidents") String incidentsText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Failures", "failures", viewer);
        Days days = Days.parse(from, to, page);
        String by = WindowGroups.of(groupBy, GROUPS, page);
        int offset = Offsets.of(incidentsText, "incidents", page);
        List<Group> groups = List.of();
        IncidentPage incidents = null;
        FailureTimeline.Drawn timeline = null;
        if (days.readable() && by != null && !page.refused()) {
            var openCall = upstream.getJson(Backend.LEDGER, "/api/v1/failures/incidents?open=true&limit=" + INCIDENTS_PER_PAGE
                    + (offset > 0 ? "&offset=" + offset : ""), viewer.token());
            var inWindowCall = upstream.getJson(Backend.LEDGER, "/api/v1/failures/incidents?" + days.query() + "&limit="
                    + FailureTimeline.MOST, viewer.token());
            Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/failures?" + days.query() + "&groupBy=" + by, viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                groups = answer.listOf(json, Group.class);
                chart(groups, by, days, page);
                Answer inWindow = inWindowCall.join();
                page.call(inWindow.call());
                if (!inWindow.ok()) {
                    page.message(inWindow.refusal());
                } else {
                    timeline = timeline(inWindow.listOf(json, Incident.class), inWindow.total(), days, viewer, page);
                }
                incidents = incidents(openCall.join(), offset, "/failures?from=" + days.from() + "&to=" + days.to() + "&groupBy=" + by, page);
            }
        }
        return failures.data("page", page).data("groups", groups).data("incidents", incidents).data("timeline", timeline)
                .data("changesLink", days.readable() ? "/changes?from=" + days.from() + "&to=" + days.to() : null)
                .data("action", "/failures").data("days", days).data("groupBy", by == null ? GROUPS.get(0) : by)
                .data("groupings", GROUPS).data("chartLabel", "Failures per " + by)
                .data("timelineLabel", "Failures in time" + (timeline != null && timeline.marked() > 0 ? ", with the changes of their nodes" : ""));
    }

    private void chart(List<Group> groups, String by, Days days, Page page) {
        if (groups.isEmpty()) {
            page.message(Message.info("Nothing failed between " + days.from() + " and " + days.to() + ".",
                    "Pick another window above; failures come from pod, node and GPU (Xid, DCGM health) signals."));
            return;
        }
        ChartOption bars = WindowGroups.bars(groups.stream().map(Group::key).toList(), "failures");
        bars.bars("recovered", groups.stream().map(g -> (double) g.recovered()).toList()).stack("n").width(60).colour(Palette.GREEN);
        bars.bars("open", groups.stream().map(g -> (double) g.open()).toList()).stack("n").width(60).colour(Palette.RED);
        bars.bars("ended unrecovered", groups.stream().map(g -> (double) g.unrecovered()).toList()).stack("n").width(60)
                .colour(Palette.GREY);
        page.charts.add(Chart.of("window-chart", "Failures per " + by, bars, json));
    }

    /** One page of the open incidents, with links to the pages before and after it. */
    private IncidentPage incidents(Answer answer, int offset, String here, Page page) {
        page.call(answer.call());
        if (!answer.ok()) {
            page.message(answer.refusal());
            return null;
        }
        Instant now = Instant.now();
        List<IncidentRow> rows = new ArrayList<>();
        for (Incident i : answer.listOf(json, Incident.class)) {
            String age = i.startedAt() == null ? "" : Format.instant(i.startedAt()).map(t -> Format.duration(
                    BigDecimal.valueOf(Math.max(0, Duration.between(t, now).toSeconds())))).orElse("");
            rows.add(new IncidentRow(i, age, TriageLinks.ofIncident(i), TriageLinks.reviewOf(i)));
        }
        // without a count from the ledger, a full page may have more after it
        boolean more = answer.total() != null ? offset + rows.size() < answer.total() : rows.size() == INCIDENTS_PER_PAGE;
        return new IncidentPage(rows, offset + 1, offset + rows.size(), answer.total(),
                offset > 0 ? here + "&incidents=" + Math.max(0, offset - INCIDENTS_PER_PAGE) + "#incidents" : null,
                more ? here + "&incidents=" + (offset + rows.size()) + "#incidents" : null);
    }

    /**
     * The window's failures on a time axis, one lane per cause, with the changes of the nodes they happened on (and
     * their clusters' cluster-wide ones) marked, from one bulk read of the change book.
     */
    /** The failures that started in the window on a time axis, with their nodes' changes; null when none did. */
    private FailureTimeline.Drawn timeline(List<Incident> incidents, Long total, Days days, Viewer viewer, Page page) {
        if (incidents.isEmpty()) {
            return null;
        }
        if (total != null && total > incidents.size()) {
            page.message(Message.info("The timeline draws the first " + incidents.size() + " of the " + total
                    + " failures that started in the window.", "Pick a shorter window above to see them all in time."));
        }
        List<ChangeReads.Scope> scopes = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (Incident i : incidents) {
            if (i.cluster() != null && i.node() != null && seen.add(i.cluster() + "/" + i.node())) {
                scopes.add(new ChangeReads.Scope(i.cluster(), i.node(), days.start(), days.end(), FailureTimeline.CHANGES_PER_NODE, false));
            }
        }
        List<BookChange> changes = ChangeReads.bulk(upstream, json, viewer, page, scopes);
        FailureTimeline.Drawn drawn = FailureTimeline.of(incidents, days.start(), days.end());
        int marked = changes == null ? 0 : ChangeMarks.add(drawn.option(), changes, days.start(), days.end());
        page.charts.add(Chart.of("failures-timeline", "Failures in time" + (marked > 0 ? ", with the changes of their nodes" : ""),
                drawn.option(), json));
        return drawn.marked(marked);
    }
}
