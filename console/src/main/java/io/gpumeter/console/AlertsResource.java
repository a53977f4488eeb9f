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

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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

    /** One episode of an alert. */
    @TemplateData
    public record Row(String alertname, String severity, String state, String startsAt, String endsAt, String subject,
                      String summary, String runbook) {
    }

    /** One runbook action alert-service took (or, dry-run, would have taken) on an alert, and its undo. */
    @TemplateData
    public record Action(String alertname, String action, String mode, String target, String result, String detail,
                         String at, String undo) {

        public boolean enforced() {
            return "enforce".equals(mode);
        }
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
        List<Row> rows = new ArrayList<>();
        List<Action> actions = new ArrayList<>();
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
                Map<String, int[]> counts = new TreeMap<>();
                for (JsonNode e : answer.json()) {
                    String name = Format.text(e, "alertname");
                    String st = Optional.ofNullable(Format.text(e, "state")).orElse("");
                    JsonNode labels = e.path("labels");
                    List<String> subject = new ArrayList<>();
                    for (String key : List.of("tenant", "node", "gpu_uuid", "namespace", "pod", "service", "slo", "cluster_queue")) {
                        if (labels.hasNonNull(key)) {
                            subject.add(key + "=" + labels.get(key).asText());
                        }
                    }
                    rows.add(new Row(name, Format.text(e, "severity"), st, Format.text(e, "startsAt"),
                            Optional.ofNullable(Format.text(e, "endsAt")).orElse(""), String.join(", ", subject),
                            Optional.ofNullable(Format.text(e.path("annotations"), "summary")).orElse(""),
                            web(Format.text(e.path("annotations"), "runbook_url"))));
                    int[] c = counts.computeIfAbsent(name == null ? "" : name, n -> new int[2]);
                    c[st.equalsIgnoreCase("firing") ? 0 : 1]++;
                }
                if (rows.isEmpty()) {
                    page.message(Message.info("firing".equals(state) ? "No alert is firing." : "No alert since " + Format.rfc3339(since) + ".",
                            "firing".equals(state) ? "Show resolved ones too with the form above." : "Pick an earlier instant above."));
                } else {
                    page.charts.add(Chart.of("alerts-chart", "Alerts per name", chart(counts), json));
                }
                Answer done = actionsCall.join();
                page.call(done.call());
                if (!done.ok()) {
                    page.message(done.refusal());
                } else {
                    for (JsonNode a : done.json()) {
                        String undo = Format.text(a, "undoResult");
                        actions.add(new Action(Format.text(a, "alertname"), Format.text(a, "action"), Format.text(a, "mode"),
                                Optional.ofNullable(Format.text(a, "target")).orElse(""), Format.text(a, "result"),
                                Optional.ofNullable(Format.text(a, "detail")).orElse(""), Format.text(a, "at"),
                                undo == null ? "" : undo + Optional.ofNullable(Format.text(a, "undoneAt")).map(t -> " at " + t).orElse("")));
                    }
                }
            }
        }
        Instant shown = since != null ? since : Instant.now().minus(1, ChronoUnit.DAYS);
        return alerts.data("page", page).data("rows", rows).data("actions", actions).data("state", state).data("since", Format.rfc3339(shown))
                .data("sinceMinute", Format.minute(shown));
    }

    /** A link the page may offer: http(s) only. */
    private static String web(String url) {
        return url != null && (url.startsWith("http://") || url.startsWith("https://")) ? url : null;
    }

    private static Map<String, Object> chart(Map<String, int[]> counts) {
        List<String> names = new ArrayList<>(counts.keySet());
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 200, "right", 30, "top", 40, "bottom", 30));
        option.put("xAxis", Map.of("type", "value", "minInterval", 1));
        option.put("yAxis", Map.of("type", "category", "data", names, "inverse", true));
        option.put("series", List.of(
                Map.of("name", "firing", "type", "bar", "stack", "n", "barMaxWidth", 28, "color", Palette.RED,
                        "data", names.stream().map(n -> counts.get(n)[0]).toList()),
                Map.of("name", "resolved", "type", "bar", "stack", "n", "barMaxWidth", 28, "color", Palette.MUTED_BLUE,
                        "data", names.stream().map(n -> counts.get(n)[1]).toList())));
        return option;
    }
}
