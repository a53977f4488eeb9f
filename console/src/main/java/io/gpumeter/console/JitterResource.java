package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.console.JitterAnswers.Bucket;
import io.gpumeter.console.JitterAnswers.Event;
import io.gpumeter.console.JitterAnswers.Interference;
import io.gpumeter.console.JitterAnswers.Listed;
import io.gpumeter.console.JitterAnswers.Neighbour;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

/**
 * Q4, jitter: slo-service's jitter events in a window (a page of them at a time), and one event with its evidence —
 * the service's latency curve against the limit, the same-card neighbours' arrivals and resource curves and the host's
 * and the card's pressures ({@link JitterPressures}) on the same time axis, its nodes' changes ({@link JitterChanges})
 * and the suspects ranked — beside the service's interference factor by neighbour count over the window shown, or
 * the latest part of it slo-service reads, as its answer says. Fleet-wide: tenant tokens are refused by slo-service.
 */
@Path("/jitter")
@Produces(MediaType.TEXT_HTML)
public class JitterResource {

    static final int PAGE = 20;
    /** The most changes the event's table lists. */
    static final int CHANGES_SHOWN = 20;

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final JitterChanges changes;
    private final Template jitter;

    public JitterResource(Session session, Upstream upstream, ObjectMapper json, JitterChanges changes,
                          @Location("jitter.html") Template jitter) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.changes = changes;
        this.jitter = jitter;
    }

    /** An event in the list. */
    @TemplateData
    public record Row(long id, String link, Listed e, String suspect, boolean chosen) {
    }

    /** A ranked suspect and why, in the page's words. */
    @TemplateData
    public record Suspect(int rank, String key, String score, String arrivedBefore, String ramp, String rises, String reasons) {
    }

    /** The chosen event and what the page shows of it. */
    @TemplateData
    public record Chosen(Event e, List<String> neighbours, List<Suspect> suspects, List<String> gaps, List<NearChange> changes,
                         boolean changesRead) {

        public int arrivalsHeight() {
            return 60 + 36 * neighbours.size();
        }
    }

    /** The interference factor and the window slo-service read it over. */
    @TemplateData
    public record Factor(String from, String to, String maxWindow, boolean narrowed, List<Bucket> buckets, List<Bucket> kinds) {
    }

    @GET
    @Blocking
    public TemplateInstance jitter(@CookieParam(Session.COOKIE) String cookie, @QueryParam("to") String toText,
                                   @QueryParam("window") String windowText, @QueryParam("offset") String offsetText,
                                   @QueryParam("event") String eventText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Jitter", "jitter", viewer);
        Span span = Span.parse(toText, windowText == null || windowText.isBlank() ? "24h" : windowText, page);
        int offset = Offsets.of(offsetText, "offset", page);
        Long chosen = eventText == null || eventText.isBlank() ? null : (long) Offsets.of(eventText, "event", page);
        List<Row> rows = new ArrayList<>();
        Chosen event = null;
        Factor factor = null;
        boolean more = false;
        String base = "/jitter?window=" + span.window() + "&to=" + Format.query(span.rfc3339To());
        if (span.readable() && !page.refused()) {
            Answer list = upstream.getJson(Backend.SLO, "/api/v1/jitter-events?" + span.query() + "&limit=" + (PAGE + 1)
                    + "&offset=" + offset, viewer.token()).join();
            page.call(list.call());
            if (!list.ok()) {
                page.message(list.refusal());
            } else {
                List<Listed> events = list.listOf(json, Listed.class);
                more = events.size() > PAGE;
                events = more ? events.subList(0, PAGE) : events;
                if (chosen == null && !events.isEmpty()) {
                    chosen = events.get(0).id();
                }
                for (Listed e : events) {
                    String top = e.topSuspect() == null ? "" : e.topSuspect()
                            + (e.topSuspectScore() != null ? " (" + PageFormats.ratio(e.topSuspectScore()) + ")" : "");
                    rows.add(new Row(e.id(), base + "&offset=" + offset + "&event=" + e.id(), e, top, chosen != null && e.id() == chosen));
                }
                if (events.isEmpty()) {
                    page.message(Message.info(offset > 0 ? "No more jitter events in this window." : "No jitter event between "
                                    + Format.rfc3339(span.from()) + " and " + span.rfc3339To() + ".",
                            "Pick a longer or earlier window above; slo-service records an event when a latency SLO's p99 stays over its limit for minutes on end."));
                }
                if (chosen != null) {
                    Event e = event(chosen, viewer, page);
                    if (e != null) {
                        CompletableFuture<Answer> interference = interference(e, span, viewer);
                        event = chosen(e, viewer, page);
                        factor = interference == null ? null : factor(interference.join(), page);
                    }
                }
            }
        }
        return jitter.data("page", page).data("rows", rows).data("event", event).data("factor", factor).data("span", span)
                .data("windows", Span.windows()).data("previous", offset > 0 ? base + "&offset=" + Math.max(0, offset - PAGE) : null)
                .data("next", more ? base + "&offset=" + (offset + PAGE) : null).data("first", offset + 1).data("last", offset + rows.size());
    }

    private Event event(long id, Viewer viewer, Page page) {
        Answer answer = upstream.getJson(Backend.SLO, "/api/v1/jitter-events/" + id, viewer.token()).join();
        page.call(answer.call());
        if (!answer.ok()) {
            page.message(answer.refusal());
            return null;
        }
        return answer.as(json, Event.class);
    }

    /**
     * The event's service in its namespace (the same name in another namespace is another tenant's service) over the
     * window shown: slo-service reads at most its configured window, and with narrow=true its latest part of a longer
     * one, saying which it read.
     */
    private CompletableFuture<Answer> interference(Event e, Span span, Viewer viewer) {
        if (e.service() == null) {
            return null;
        }
        return upstream.getJson(Backend.SLO, "/api/v1/interference?service=" + Format.query(e.service())
                + (e.namespace() == null ? "" : "&namespace=" + Format.query(e.namespace())) + "&" + span.query()
                + "&sli=" + (e.sli() == null ? "TTFT" : Format.query(e.sli())) + "&narrow=true", viewer.token());
    }

    private Chosen chosen(Event e, Viewer viewer, Page page) {
        List<Neighbour> neighbours = e.neighbours() == null ? List.of() : e.neighbours();
        List<BookChange> near = changes.of(e, viewer, page);
        Instant spanFrom = Format.instant(e.from()).orElse(Instant.EPOCH);
        Instant spanTo = Format.instant(e.to()).orElse(Instant.EPOCH);
        List<BookChange> marked = near == null ? List.of() : near;
        page.charts.add(Chart.of("jitter-latency", "The service's latency around the event",
                ChangeMarks.added(JitterCharts.latency(e), marked, spanFrom, spanTo, true), json));
        if (!neighbours.isEmpty()) {
            // its lanes run top down, so a line's end is on the time axis: no labels there
            page.charts.add(Chart.of("jitter-arrivals", "The same-card neighbours' arrivals",
                    ChangeMarks.added(JitterCharts.arrivals(e, neighbours), marked, spanFrom, spanTo, false), json));
            ChartOption activity = JitterCharts.activity(e, neighbours);
            if (activity != null) {
                page.charts.add(Chart.of("jitter-resources", "The neighbours' activity on the shared cards",
                        ChangeMarks.added(activity, marked, spanFrom, spanTo, true), json));
            }
        }
        ChartOption pressures = JitterPressures.chart(e);
        if (pressures != null) {
            page.charts.add(Chart.of("jitter-pressures", "The host's and the card's pressures on the service",
                    ChangeMarks.added(pressures, marked, spanFrom, spanTo, true), json));
        }
        List<String> gaps = new ArrayList<>(e.gaps() == null ? List.of() : e.gaps());
        gaps.addAll(JitterPressures.unmeasured(e));
        Instant start = e.startAt() != null ? e.startAt() : spanFrom;
        return new Chosen(e, neighbours.stream().map(Neighbour::name).toList(), suspects(e), gaps,
                near == null ? List.of() : NearChange.of(near, start, spanFrom, spanTo, CHANGES_SHOWN), near != null);
    }

    private static List<Suspect> suspects(Event e) {
        List<Suspect> out = new ArrayList<>();
        for (JitterAnswers.Suspect s : e.suspects() == null ? List.<JitterAnswers.Suspect>of() : e.suspects()) {
            String rises = s.rises() == null ? "" : s.rises().stream()
                    .map(r -> r.field() + " " + round(r.before()) + " → " + round(r.recent())).collect(Collectors.joining("; "));
            out.add(new Suspect(s.rank(), s.key(), round(s.score()),
                    s.arrivedMinutesBefore() == null ? "" : round(s.arrivedMinutesBefore()) + " min", round(s.ramp()), rises,
                    s.reasons() == null ? "" : String.join("; ", s.reasons())));
        }
        return out;
    }

    private Factor factor(Answer a, Page page) {
        page.call(a.call());
        if (!a.ok()) {
            page.message(a.refusal());
            return null;
        }
        Interference f = a.as(json, Interference.class);
        List<Bucket> buckets = f.byNeighbours() == null ? List.of() : f.byNeighbours();
        if (!buckets.isEmpty()) {
            page.charts.add(Chart.of("interference-chart", "Interference factor by neighbour count", JitterCharts.interference(buckets), json));
        }
        return new Factor(f.from(), f.to(), f.maxWindow(), f.narrowed(), buckets, f.byKind() == null ? List.of() : f.byKind());
    }

    private static String round(double value) {
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
