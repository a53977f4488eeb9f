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

import java.util.List;
import java.util.Locale;

/**
 * Q3, why the cards were not busy over a window: the ledger's split of every card's time into busy, allocated but
 * not busy, allocated but unmeasured, empty while work queued, and empty, and the allocated-but-not-busy time by the
 * host's cause (CPU saturated, I/O wait, network, unexplained); per tenant, node or pod. Fleet-wide: tenant tokens
 * are refused by the ledger.
 */
@Path("/idle")
@Produces(MediaType.TEXT_HTML)
public class IdleResource {

    private static final List<String> GROUPINGS = List.of("tenant", "node", "pod");

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template idle;

    public IdleResource(Session session, Upstream upstream, ObjectMapper json, @Location("idle.html") Template idle) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.idle = idle;
    }

    @GET
    @Blocking
    public TemplateInstance idle(@CookieParam(Session.COOKIE) String cookie, @QueryParam("from") String fromText,
                                 @QueryParam("to") String toText, @QueryParam("groupBy") String groupByText,
                                 @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Idle", "idle", viewer);
        Days days = Days.parse(fromText, toText, page);
        String groupBy = groupByText == null || groupByText.isBlank() ? "tenant" : groupByText.strip().toLowerCase(Locale.ROOT);
        if (!GROUPINGS.contains(groupBy)) {
            page.message(Message.error("That grouping is not offered", "groupBy must be tenant, node or pod, got '"
                    + groupByText + "'.", "Pick one in the form above."));
            groupBy = null;
        }
        List<IdleRows.Row> rows = List.of();
        IdleAnswer.Thresholds thresholds = null;
        if (days.readable() && groupBy != null) {
            Answer answer = upstream.getJson(Backend.LEDGER, "/api/v1/idle?" + days.query() + "&groupBy=" + groupBy,
                    viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                IdleAnswer idleAnswer = answer.as(json, IdleAnswer.class);
                rows = IdleRows.of(idleAnswer, groupBy);
                thresholds = idleAnswer.causeThresholds();
                if (rows.isEmpty()) {
                    page.message(Message.info("No card was known between " + days.from() + " and " + days.to() + ".",
                            "Pick another window above; the ledger splits the time of the cards the collector has seen."));
                } else {
                    page.charts.add(Chart.of("idle-chart", "Card-hours per " + groupBy + " by why they were not busy",
                            IdleChart.option(rows), json));
                }
            }
        }
        return idle.data("page", page).data("rows", rows).data("from", days.from().toString()).data("to", days.to().toString())
                .data("groupBy", groupBy == null ? "tenant" : groupBy)
                .data("parts", IdleRows.PARTS.stream().map(IdleRows.Part::label).toList())
                .data("causes", IdleRows.CAUSES)
                .data("thresholds", IdleThresholdsNote.of(thresholds))
                .data("chartHeight", Math.max(240, rows.size() * 34 + 150));
    }
}
