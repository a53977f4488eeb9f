package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A month's hours and energy per group from the ledger beside their cost, energy cost and CO2e from billing's monthly
 * report, and their charts.
 */
final class HoursRows {

    private HoursRows() {
    }

    /**
     * One group's month (a tenant, team or project); {@code energyKWh} is what its units drew (ledger),
     * {@code energyCost} and {@code co2eKg} billing's figures for it, null where billing's cards give none.
     */
    @TemplateData
    public record Row(String tenant, BigDecimal allocated, BigDecimal used, BigDecimal idle, String coverage,
                      String confidence, BigDecimal allocatedCost, BigDecimal usedCost, BigDecimal idleCost, boolean priced,
                      BigDecimal energyKWh, BigDecimal energyCost, BigDecimal co2eKg) {
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

        public String energyText() {
            return Format.number(energyKWh);
        }

        public String energyCostText() {
            return priced ? Format.number(energyCost) : "";
        }

        public String co2eText() {
            return priced ? Format.number(co2eKg) : "";
        }
    }

    /** @param cost billing's report per group, or null when billing did not answer (the cost cells stay empty) */
    static List<Row> rows(JsonNode hours, MonthlyCost cost, String dimension) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode h : hours) {
            String tenant = Format.text(h.path("group"), dimension);
            if (tenant == null) {
                tenant = Format.text(h, "key");
            }
            MonthlyCost.Figures c = cost == null ? MonthlyCost.Figures.NONE
                    : cost.byGroup.getOrDefault(tenant, MonthlyCost.Figures.NONE);
            rows.add(new Row(tenant, Format.decimal(h, "allocatedGpuHours"), Format.decimal(h, "usedGpuHours"),
                    Format.decimal(h, "idleGpuHours"), Format.percent(Format.decimal(h, "usageCoverage")),
                    Format.text(h, "usageConfidence"), c.allocated(), c.used(), c.idle(), cost != null,
                    Format.decimal(h, "energyKWh"), c.energyCost(), c.co2eKg()));
        }
        rows.sort((a, b) -> b.allocated().compareTo(a.allocated()));
        return rows;
    }

    /** The rows summed: the month's table foot. */
    static Row total(List<Row> rows) {
        Row sum = new Row("all", BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, "", "", BigDecimal.ZERO,
                BigDecimal.ZERO, BigDecimal.ZERO, false, BigDecimal.ZERO, null, null);
        for (Row r : rows) {
            sum = new Row("all", sum.allocated.add(r.allocated), sum.used.add(r.used), sum.idle.add(r.idle), "", "",
                    sum.allocatedCost.add(r.allocatedCost), sum.usedCost.add(r.usedCost), sum.idleCost.add(r.idleCost),
                    sum.priced || r.priced, sum.energyKWh.add(r.energyKWh), MonthlyCost.sum(sum.energyCost, r.energyCost),
                    MonthlyCost.sum(sum.co2eKg, r.co2eKg));
        }
        return sum;
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
                Map.of("name", "used", "type", "bar", "barMaxWidth", 90, "stack", "allocated", "color", Palette.BLUE,
                        "data", rows.stream().map(r -> r.used().doubleValue()).toList()),
                Map.of("name", "idle", "type", "bar", "barMaxWidth", 90, "stack", "allocated", "color", Palette.ORANGE,
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
                Map.of("name", "used cost", "type", "bar", "barMaxWidth", 90, "stack", "cost", "color", Palette.GREEN,
                        "data", rows.stream().map(r -> r.usedCost().doubleValue()).toList()),
                Map.of("name", "idle cost", "type", "bar", "barMaxWidth", 90, "stack", "cost", "color", Palette.PALE_GREEN,
                        "data", rows.stream().map(r -> r.idleCost().doubleValue()).toList())));
        return option;
    }
}
