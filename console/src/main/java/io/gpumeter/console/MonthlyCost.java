package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

/**
 * Billing's monthly report (format=json) summed per group: the allocated, used and idle cost, and the energy cost
 * and CO2e where billing's rate cards priced the group's energy (null when no line of the group had a figure).
 */
final class MonthlyCost {

    /** One group's figures over all its lines (usage and any adjustments). */
    record Figures(BigDecimal allocated, BigDecimal used, BigDecimal idle, BigDecimal energyCost, BigDecimal co2eKg) {

        static final Figures NONE = new Figures(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, null);

        Figures plus(Figures o) {
            return new Figures(allocated.add(o.allocated), used.add(o.used), idle.add(o.idle), sum(energyCost, o.energyCost),
                    sum(co2eKg, o.co2eKg));
        }
    }

    final Map<String, Figures> byGroup = new TreeMap<>();
    final String currency;

    MonthlyCost(JsonNode report, String dimension) {
        String firstCurrency = "";
        for (JsonNode line : report) {
            String group = Format.text(line, dimension);
            byGroup.merge(group == null ? "" : group, new Figures(Format.decimal(line, "allocated_cost"),
                    Format.decimal(line, "used_cost_showback"), Format.decimal(line, "idle_cost_showback"),
                    Format.decimalOrNull(line, "energy_cost"), Format.decimalOrNull(line, "co2e_kg")), Figures::plus);
            if (firstCurrency.isEmpty() && Format.text(line, "currency") != null) {
                firstCurrency = Format.text(line, "currency");
            }
        }
        currency = firstCurrency;
    }

    /** A sum where null is "no figure": null only when both are. */
    static BigDecimal sum(BigDecimal a, BigDecimal b) {
        return a == null ? b : b == null ? a : a.add(b);
    }
}
