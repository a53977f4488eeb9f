package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A month's hours per group from the ledger beside their cost from billing's monthly report, and their charts. */
final class HoursRows {

    private HoursRows() {
    }

    /** One group's month (a tenant, team or project). */
    @TemplateData
    public record Row(String tenant, BigDecimal allocated, BigDecimal used, BigDecimal idle, String coverage,
                      String confidence, BigDecimal allocatedCost, BigDecimal usedCost, BigDecimal idleCost, boolean priced) {
        public String allocatedText() {
            return Format.number(allocated);
        }

        public String usedText() {
            return Format.number(used);
        }

        public String idleText() {
            return Format.number(idle);
        }

        public String allocatedCostText() {
            return priced ? Format.number(allocatedCost) : "";
        }

        public String usedCostText() {
            return priced ? Format.number(usedCost) : "";
        }

        public String idleCostText() {
            return priced ? Format.number(idleCost) : "";
        }
    }

    static List<Row> rows(JsonNode hours, Map<String, BigDecimal[]> cost, String dimension) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode h : hours) {
            String tenant = Format.text(h.path("group"), dimension);
            if (tenant == null) {
                tenant = Format.text(h, "key");
            }
            BigDecimal[] c = cost == null ? null : cost.get(tenant);
            rows.add(new Row(tenant, Format.decimal(h, "allocatedGpuHours"), Format.decimal(h, "usedGpuHours"),
                    Format.decimal(h, "idleGpuHours"), Format.percent(Format.decimal(h, "usageCoverage")),
                    Format.text(h, "usageConfidence"),
                    c == null ? BigDecimal.ZERO : c[0], c == null ? BigDecimal.ZERO : c[1], c == null ? BigDecimal.ZERO : c[2],
                    cost != null));
        }
        rows.sort((a, b) -> b.allocated().compareTo(a.allocated()));
        return rows;
    }

    static Map<String, Object> hoursChart(List<Row> rows) {
        List<String> tenants = rows.stream().map(Row::tenant).toList();
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 36, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", tenants, "axisLabel", Map.of("interval", 0)));
        option.put("yAxis", Map.of("type", "value", "name", "GPU-hours"));
        option.put("series", List.of(
                Map.of("name", "used", "type", "bar", "barMaxWidth", 90, "stack", "allocated", "color", "#2f6fb0",
                        "data", rows.stream().map(r -> r.used().doubleValue()).toList()),
                Map.of("name", "idle", "type", "bar", "barMaxWidth", 90, "stack", "allocated", "color", "#f0a13a",
                        "data", rows.stream().map(r -> r.idle().doubleValue()).toList())));
        return option;
    }

    static Map<String, Object> costChart(List<Row> rows, String currency) {
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("trigger", "axis", "axisPointer", Map.of("type", "shadow")));
        option.put("legend", Map.of("top", 0));
        option.put("grid", Map.of("left", 60, "right", 20, "top", 36, "bottom", 40));
        option.put("xAxis", Map.of("type", "category", "data", rows.stream().map(Row::tenant).toList(), "axisLabel", Map.of("interval", 0)));
        option.put("yAxis", Map.of("type", "value", "name", currency));
        option.put("series", List.of(
                Map.of("name", "used cost", "type", "bar", "barMaxWidth", 90, "stack", "cost", "color", "#3c8d5a",
                        "data", rows.stream().map(r -> r.usedCost().doubleValue()).toList()),
                Map.of("name", "idle cost", "type", "bar", "barMaxWidth", 90, "stack", "cost", "color", "#c9d6cf",
                        "data", rows.stream().map(r -> r.idleCost().doubleValue()).toList())));
        return option;
    }
}
