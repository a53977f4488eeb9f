package io.gpumeter.console;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
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

    /** One minute of one field of the card, a MIG instance ({@code scopeKey} its instance) or a container. */
    @RegisterForReflection
    record Point(String scope, String scopeKey, String field, String minute, BigDecimal mean) {
    }

    static String path(String uuid, Instant at) {
        return "/api/v1/gpus/" + Format.segment(uuid) + "/usage?from=" + Format.query(Format.rfc3339(at.minus(SPAN)))
                + "&to=" + Format.query(Format.rfc3339(at.plusSeconds(60)));
    }

    /** The chart, or null when the answer holds no point to draw. */
    static ChartOption chart(List<Point> points, Instant at) {
        Map<String, List<List<Object>>> lines = new TreeMap<>();
        for (Point p : points) {
            String name = name(p);
            if (name != null && p.mean() != null) {
                lines.computeIfAbsent(name, n -> new ArrayList<>()).add(List.of(p.minute(), Math.round(p.mean().doubleValue() * 1000) / 1000.0));
            }
        }
        if (lines.isEmpty()) {
            return null;
        }
        ChartOption chart = ChartOption.chart().tooltip(ChartOption.Tooltip.AXIS).set("legend", Map.of("bottom", 0, "type", "scroll"))
                .grid(50, 20, 36, 60).timeAcross(Format.rfc3339(at.minus(SPAN)), Format.rfc3339(at.plusSeconds(60)))
                .valuesUp("share of time", 0, 1);
        lines.forEach((name, data) -> chart.lines(name, data).set("lineStyle", Map.of("width", name.startsWith("card ") ? 2 : 1)));
        return chart;
    }

    /** The curve a point belongs to; null for a field the chart does not draw. */
    private static String name(Point p) {
        if ("DEVICE".equals(p.scope()) && DEVICE_FIELDS.contains(p.field())) {
            return "card " + p.field();
        }
        if ("MIG_INSTANCE".equals(p.scope()) && "SM_ACTIVE".equals(p.field())) {
            return "MIG " + p.scopeKey() + " SM_ACTIVE";
        }
        if ("CONTAINER".equals(p.scope()) && "VGPU_CORE_UTIL".equals(p.field())) {
            // the collector stores HAMi's percentage of the card's cores as a share 0..1, as the others
            return "container " + p.scopeKey() + " cores";
        }
        return null;
    }
}
