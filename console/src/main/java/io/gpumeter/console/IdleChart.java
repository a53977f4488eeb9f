package io.gpumeter.console;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Idle page's chart: every group's card-hours stacked by part, the allocated-but-not-busy part drawn as its causes
 * where the ledger gave them, so the bar still adds up to the group's time.
 */
final class IdleChart {

    private static final int NOT_BUSY = 1;

    private IdleChart() {
    }

    static Map<String, Object> option(List<IdleRows.Row> rows) {
        List<Object> series = new ArrayList<>();
        for (int p = 0; p < IdleRows.PARTS.size(); p++) {
            if (p == NOT_BUSY) {
                for (int c = 0; c < IdleRows.CAUSES.size(); c++) {
                    series.add(bar("not busy: " + IdleRows.CAUSES.get(c).label(), IdleRows.CAUSES.get(c).colour(),
                            causeData(rows, c)));
                }
                continue;
            }
            final int part = p;
            series.add(bar(IdleRows.PARTS.get(p).label(), IdleRows.PARTS.get(p).colour(),
                    rows.stream().map(r -> r.partHours().get(part).doubleValue()).toList()));
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 160, "right", 30, "top", 60, "bottom", 50));
        option.put("xAxis", Map.of("type", "value", "name", "card-hours", "nameLocation", "middle", "nameGap", 28));
        option.put("yAxis", Map.of("type", "category", "data", rows.stream().map(IdleRows.Row::group).toList(),
                "inverse", true));
        option.put("series", series);
        return option;
    }

    /** A cause's hours per row; a row the ledger gave no causes for is all unexplained. */
    private static List<Double> causeData(List<IdleRows.Row> rows, int cause) {
        boolean unexplained = cause == IdleRows.CAUSES.size() - 1;
        return rows.stream().map(r -> {
            if (r.causeHours().isEmpty()) {
                return unexplained ? r.partHours().get(NOT_BUSY).doubleValue() : 0.0;
            }
            BigDecimal hours = r.causeHours().get(cause);
            return hours.doubleValue();
        }).toList();
    }

    private static Map<String, Object> bar(String name, String colour, List<Double> data) {
        Map<String, Object> bar = new LinkedHashMap<>();
        bar.put("name", name);
        bar.put("type", "bar");
        bar.put("stack", "time");
        bar.put("color", colour);
        bar.put("data", data);
        return bar;
    }
}
