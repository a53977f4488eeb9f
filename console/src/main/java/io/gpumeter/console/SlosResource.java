package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.console.SloAnswers.State;
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
import java.util.List;

/**
 * Q5, the SLOs: each one's attainment and error budget as of the window's end (slo-service's states, one call), the
 * error budget left at instants across the window (its burn-down), and for a latency SLO on a service the curve of
 * the objective's percentile per minute against the threshold. A tenant's token reads the SLOs that select its
 * tenant, without service curves or burn-down (those merge every tenant's requests or are fleet reads).
 */
@Path("/slos")
@Produces(MediaType.TEXT_HTML)
public class SlosResource {

    /** Instants of the burn-down, the window's end included. */
    static final int BURN_POINTS = 7;
    /** SLOs drawn in the burn-down, at most, so that its lines stay legible. */
    static final int BURN_SLOS = 10;

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template slos;

    public SlosResource(Session session, Upstream upstream, ObjectMapper json, @Location("slos.html") Template slos) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.slos = slos;
    }

    /**
     * One SLO's standing as the table shows it, with the id of its latency chart when it has one.
     *
     * @param status null when slo-service could not evaluate it
     */
    @TemplateData
    public record Row(SloAnswers.Slo slo, SloAnswers.Status status, boolean breached, String chart) {

        public String selector() {
            return slo.selector() == null ? "" : slo.selector().text();
        }

        public String state() {
            return status == null || status.state() == null ? "" : status.state();
        }

        public BigDecimal attainment() {
            return status == null ? null : status.attainment();
        }

        /** Good events of all, e.g. {@code 9850 / 10000}. */
        public String events() {
            return status == null ? "0 / 0" : status.goodEvents() + " / " + status.totalEvents();
        }

        public BigDecimal budgetLeft() {
            return status == null || status.errorBudget() == null ? null : status.errorBudget().remaining();
        }

        /** How many burn-rate alerts fire, empty for none. */
        public String firing() {
            long firing = status == null ? 0 : status.firing();
            return firing == 0 ? "" : Long.toString(firing);
        }

        public String objective() {
            SloAnswers.Objective o = slo.objective();
            return o == null ? "" : "p" + Format.plain(o.percentile()) + " ≤ " + Format.plain(o.thresholdMs()) + " ms per "
                    + (o.per() == null ? "" : o.per().toLowerCase(java.util.Locale.ROOT));
        }
    }

    @GET
    @Blocking
    public TemplateInstance slos(@CookieParam(Session.COOKIE) String cookie, @QueryParam("to") String toText,
                                 @QueryParam("window") String windowText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("SLOs", "slos", viewer);
        Span span = Span.parse(toText, windowText, page);
        List<Row> rows = new ArrayList<>();
        if (span.readable()) {
            // Every SLO's state and, for the fleet's burn-down, its budget left across the window: one read.
            Answer answer = upstream.getJson(Backend.SLO, "/api/v1/slo-states?" + span.query()
                    + (viewer.fleet() ? "&budgetPoints=" + BURN_POINTS : ""), viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                List<State> states = answer.listOf(json, State.class);
                for (int n = 0; n < states.size(); n++) {
                    rows.add(row(states.get(n), n, span, page));
                }
                if (rows.isEmpty()) {
                    page.message(Message.info(viewer.tenant() != null ? "No SLO selects " + viewer.tenant() + "." : "No SLO is defined.",
                            "An operator defines one with POST /api/v1/slos (a service's or a tenant's latency or availability)."));
                } else {
                    page.charts.add(Chart.of("attainment-chart", "Attainment against the target", SloCharts.attainment(rows), json));
                    if (viewer.fleet()) {
                        page.charts.add(Chart.of("burn-chart", "Error budget left across the window",
                                SloCharts.burnDown(states.subList(0, Math.min(BURN_SLOS, states.size()))), json));
                        if (rows.size() > BURN_SLOS) {
                            page.message(Message.info("The burn-down draws the first " + BURN_SLOS + " of " + rows.size() + " SLOs.",
                                    "The table has them all; each SLO's status over time is GET /api/v1/slos/{name}/status?at=."));
                        }
                    }
                }
            }
        }
        return slos.data("page", page).data("rows", rows)
                .data("attainmentHeight", Math.max(page.chart("burn-chart") != null ? 280 : 160, rows.size() * 40 + 80))
                .data("span", span).data("windows", Span.windows());
    }

    private Row row(State s, int n, Span span, Page page) {
        SloAnswers.Slo slo = s.slo();
        SloAnswers.Status status = s.status();
        // slo-service judges the attainment against the target; the page only colours its verdict
        boolean breached = status != null && Boolean.FALSE.equals(status.meetsTarget());
        String chart = null;
        if (s.latency() != null && s.latency().minutes() != null && !s.latency().minutes().isEmpty()) {
            chart = "slo-" + n + "-chart";
            page.charts.add(Chart.of(chart, slo.name() + ": the percentile per minute against the objective",
                    SloCharts.latency(s.latency(), slo.objective(), span), json));
        }
        if (s.problem() != null) {
            // stored before services belonged to a namespace, and its service's name is now reported by several
            page.message(Message.error("SLO " + slo.name() + " has no status", s.problem().detail(),
                    "Replace it (PUT /api/v1/slos/" + slo.name() + ") with the namespace of the service it means."));
        }
        return new Row(slo, status, breached, chart);
    }
}
