package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A card's usage curves over the two hours up to the instant shown: the card's own activity ratios per minute
 * (dcgm-exporter's SM, graphics engine and memory bandwidth activity), and each MIG instance's or HAMi container's
 * own activity beside them, from the ledger's {@code GET /api/v1/gpus/{uuid}/usage}.
 */
final class CardUsage {

    static final Duration SPAN = Duration.ofHours(2);
    /** The card's fields drawn, each a share of time 0..1, as dcgm-exporter reports them. */
    private static final List<String> DEVICE_FIELDS = List.of("SM_ACTIVE", "GR_ENGINE_ACTIVE", "DRAM_ACTIVE");

    private CardUsage() {
    }

    static String path(String uuid, Instant at) {
        return "/api/v1/gpus/" + Format.segment(uuid) + "/usage?from=" + Format.query(Format.rfc3339(at.minus(SPAN)))
                + "&to=" + Format.query(Format.rfc3339(at.plusSeconds(60)));
    }

    /** The chart's option, or null when the answer holds no point to draw. */
    static Map<String, Object> chart(JsonNode points, Instant at) {
        Map<String, List<List<Object>>> lines = new TreeMap<>();
        for (JsonNode p : points) {
            String scope = Format.text(p, "scope");
            String field = Format.text(p, "field");
            String name;
            double value = p.path("mean").asDouble();
            if ("DEVICE".equals(scope) && DEVICE_FIELDS.contains(field)) {
                name = "card " + field;
            } else if ("MIG_INSTANCE".equals(scope) && "SM_ACTIVE".equals(field)) {
                name = "MIG " + Format.text(p, "scopeKey") + " SM_ACTIVE";
            } else if ("CONTAINER".equals(scope) && "VGPU_CORE_UTIL".equals(field)) {
                // the collector stores HAMi's percentage of the card's cores as a share 0..1, as the others
                name = "container " + Format.text(p, "scopeKey") + " cores";
            } else {
                continue;
            }
            lines.computeIfAbsent(name, n -> new ArrayList<>()).add(List.of(Format.text(p, "minute"), Math.round(value * 1000) / 1000.0));
        }
        if (lines.isEmpty()) {
            return null;
        }
        List<Object> series = new ArrayList<>();
        lines.forEach((name, data) -> series.add(Map.of("name", name, "type", "line", "showSymbol", false, "data", data,
                "lineStyle", Map.of("width", name.startsWith("card ") ? 2 : 1))));
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis"));
        option.put("legend", Map.of("bottom", 0, "type", "scroll"));
        option.put("grid", Map.of("left", 50, "right", 20, "top", 36, "bottom", 60));
        option.put("xAxis", Map.of("type", "time", "min", Format.rfc3339(at.minus(SPAN)), "max", Format.rfc3339(at.plusSeconds(60))));
        option.put("yAxis", Map.of("type", "value", "min", 0, "max", 1, "name", "share of time"));
        option.put("series", series);
        return option;
    }
}
