package io.gpumeter.console;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Billing's monthly report (format=json) per group: a group's lines (its usage and any adjustments to it) folded into
 * its allocated, used and idle cost, and the energy cost and CO2e where billing's rate cards priced the group's
 * energy (null when no line of the group had a figure).
 */
final class MonthlyCost {

    /** One group's figures over all its lines. */
    record Figures(BigDecimal allocated, BigDecimal used, BigDecimal idle, BigDecimal energyCost, BigDecimal co2eKg) {

        static final Figures NONE = new Figures(BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO, null, null);

        Figures plus(Figures o) {
            return new Figures(allocated.add(o.allocated), used.add(o.used), idle.add(o.idle), sum(energyCost, o.energyCost),
                    sum(co2eKg, o.co2eKg));
        }
    }

    private final Map<String, Figures> byGroup = new TreeMap<>();
    final String currency;

    MonthlyCost(List<BillingAnswers.MonthlyLine> report) {
        String firstCurrency = "";
        for (BillingAnswers.MonthlyLine line : report) {
            byGroup.merge(line.group() == null ? "" : line.group(), new Figures(zero(line.allocatedCost()), zero(line.usedCost()),
                    zero(line.idleCost()), line.energyCost(), line.co2eKg()), Figures::plus);
            if (firstCurrency.isEmpty() && line.currency() != null) {
                firstCurrency = line.currency();
            }
        }
        currency = firstCurrency;
    }

    Figures of(String group) {
        return byGroup.getOrDefault(group, Figures.NONE);
    }

    /** A sum where null is "no figure": null only when both are. */
    static BigDecimal sum(BigDecimal a, BigDecimal b) {
        return a == null ? b : b == null ? a : a.add(b);
    }

    private static BigDecimal zero(BigDecimal value) {
        return value == null ? BigDecimal.ZERO : value;
    }
}
