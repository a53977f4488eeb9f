package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The failures that started in a window on its time axis, one lane per cause, each at its start and coloured by how
 * it ended (open, recovered, ended unrecovered), from the ledger's {@code GET /api/v1/failures/incidents?from=&to=}.
 */
final class FailureTimeline {

    /** The most incidents drawn: the first page of the window's list. */
    static final int MOST = 1_000;
    /** The most changes read per node the failures happened on. */
    static final int CHANGES_PER_NODE = 200;

    private FailureTimeline() {
    }

    /** The chart's option, its lanes, and how many change marks it carries. */
    @TemplateData
    public record Drawn(Map<String, Object> option, int lanes, int marked) {

        public int height() {
            return Math.max(250, 150 + 30 * lanes);
        }

        Drawn marked(int lines) {
            return new Drawn(option, lanes, lines);
        }
    }

    static Drawn of(JsonNode incidents, Instant from, Instant to) {
        TreeSet<String> causes = new TreeSet<>();
        Map<String, List<Map<String, Object>>> byState = new LinkedHashMap<>();
        for (String state : List.of("open", "recovered", "ended unrecovered")) {
            byState.put(state, new ArrayList<>());
        }
        for (JsonNode i : incidents) {
            String started = Format.text(i, "startedAt");
            if (started == null) {
                continue;
            }
            String cause = Optional.ofNullable(Format.text(i, "cause")).orElse("(unknown)");
            causes.add(cause);
            boolean open = i.path("open").asBoolean(false);
            String recovered = Format.text(i, "recoveredAt");
            String state = open ? "open" : recovered != null ? "recovered" : "ended unrecovered";
            BigDecimal repair = Format.decimalOrNull(i, "repairSeconds");
            String where = String.join(" · ", Stream.of(Format.text(i, "node"), Format.text(i, "gpuUuid"),
                    i.hasNonNull("pod") ? Format.text(i, "namespace") + "/" + Format.text(i, "pod") : null)
                    .filter(Objects::nonNull).toList());
            Map<String, Object> point = new LinkedHashMap<>();
            point.put("value", List.of(started, cause));
            point.put("name", started + " " + cause + (where.isEmpty() ? "" : " on " + where) + ": " + state
                    + (repair != null ? " after " + Format.duration(repair) : ""));
            byState.get(state).add(point);
        }
        Map<String, String> colours = Map.of("open", "#c2504a", "recovered", "#3c8d5a", "ended unrecovered", "#8a97a6");
        List<Object> series = new ArrayList<>();
        byState.forEach((state, points) -> {
            Map<String, Object> s = new LinkedHashMap<>();
            s.put("name", state);
            s.put("type", "scatter");
            s.put("symbolSize", 12);
            s.put("color", colours.get(state));
            s.put("data", points);
            series.add(s);
        });
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "item", "formatter", "{b}"));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 160, "right", 40, "top", 40, "bottom", 70));
        // failures and the changes before them are minutes apart in a window of days: zoom in to tell them apart
        option.put("dataZoom", List.of(Map.of("type", "inside", "xAxisIndex", 0),
                Map.of("type", "slider", "xAxisIndex", 0, "height", 18, "bottom", 12)));
        option.put("xAxis", Map.of("type", "time", "min", Format.rfc3339(from), "max", Format.rfc3339(to)));
        option.put("yAxis", Map.of("type", "category", "data", List.copyOf(causes), "inverse", true,
                "axisLabel", Map.of("width", 150, "overflow", "truncate")));
        option.put("series", series);
        return new Drawn(option, causes.size(), 0);
    }
}
