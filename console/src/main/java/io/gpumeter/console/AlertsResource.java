package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.console.AlertAnswers.Action;
import io.gpumeter.console.AlertAnswers.Alert;
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

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The alerts alert-service raised: those firing, or with {@code state=all} also those resolved since an instant
 * (default a day ago); per alert name in the picture, one line each in the table. Fleet-wide: tenant tokens are
 * refused by alert-service.
 */
@Path("/alerts")
@Produces(MediaType.TEXT_HTML)
public class AlertsResource {

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template alerts;

    public AlertsResource(Session session, Upstream upstream, ObjectMapper json, @Location("alerts.html") Template alerts) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.alerts = alerts;
    }

    @GET
    @Blocking
    public TemplateInstance alerts(@CookieParam(Session.COOKIE) String cookie, @QueryParam("state") String stateText,
                                   @QueryParam("since") String sinceText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Alerts", "alerts", viewer);
        String state = "all".equals(stateText) ? "all" : "firing";
        Instant since = null;
        if (sinceText != null && !sinceText.isBlank()) {
            Optional<Instant> parsed = Format.instant(sinceText);
            if (parsed.isEmpty()) {
                page.message(Message.error("That instant is not readable", "since must be a time such as 2026-11-30T12:00:00Z, got '"
                        + sinceText + "'.", "Pick a time in the form above."));
            } else {
                since = parsed.get();
            }
        } else {
            since = Instant.now().minus(1, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MINUTES);
        }
        List<Alert> rows = List.of();
        List<Action> actions = List.of();
        if (since != null) {
            var alertsCall = upstream.getJson(Backend.ALERT, "/api/v1/alerts?state=" + state + "&since="
                    + Format.query(Format.rfc3339(since)), viewer.token());
            var actionsCall = upstream.getJson(Backend.ALERT, "/api/v1/actions?from=" + Format.query(Format.rfc3339(since))
                    + "&limit=200", viewer.token());
            Answer answer = alertsCall.join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                rows = answer.listOf(json, Alert.class);
                if (rows.isEmpty()) {
                    page.message(Message.info("firing".equals(state) ? "No alert is firing." : "No alert since " + Format.rfc3339(since) + ".",
                            "firing".equals(state) ? "Show resolved ones too with the form above." : "Pick an earlier instant above."));
                } else {
                    page.charts.add(Chart.of("alerts-chart", "Alerts per name", chart(rows), json));
                }
                Answer done = actionsCall.join();
                page.call(done.call());
                if (!done.ok()) {
                    page.message(done.refusal());
                } else {
                    actions = done.listOf(json, Action.class);
                }
            }
        }
        Instant shown = since != null ? since : Instant.now().minus(1, ChronoUnit.DAYS);
        return alerts.data("page", page).data("rows", rows).data("actions", actions).data("state", state).data("since", Format.rfc3339(shown))
                .data("sinceMinute", Format.minute(shown));
    }

    /** Per alert name, its episodes firing and resolved, stacked. */
    private static ChartOption chart(List<Alert> rows) {
        Map<String, int[]> counts = new TreeMap<>();
        for (Alert a : rows) {
            counts.computeIfAbsent(a.alertname() == null ? "" : a.alertname(), n -> new int[2])[a.firing() ? 0 : 1]++;
        }
        List<String> names = List.copyOf(counts.keySet());
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.SHADOW).legend().grid(200, 30, 40, 30)
                .countsAcross().lanesDown(names, 0);
        chart.bars("firing", names.stream().map(n -> counts.get(n)[0]).toList()).stack("n").width(28).colour(Palette.RED);
        chart.bars("resolved", names.stream().map(n -> counts.get(n)[1]).toList()).stack("n").width(28).colour(Palette.MUTED_BLUE);
        return chart;
    }
}
