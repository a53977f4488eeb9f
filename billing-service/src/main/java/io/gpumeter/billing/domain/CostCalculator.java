package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * Turns exact GPU-hours per group and model into priced report rows; rounds only the printed figures.
 */
public final class CostCalculator {

    public static final int HOURS_SCALE = 6;
    public static final int RATE_SCALE = 6;
    public static final int MONEY_SCALE = 2;
    public static final RoundingMode ROUNDING = RoundingMode.HALF_EVEN;

    private CostCalculator() {
    }

    /** Everything a row prints besides the group's own figures. */
    public record Terms(BillingPeriod period, GroupBy groupBy, RateCard rateCard, String currency,
                        Normalization normalization) {
    }

    public static MonthlyReport monthly(Terms terms, List<UsageLine> usage) {
        // TreeMaps make the row order and the model order independent of the ledger's answer order.
        Map<String, Map<String, ModelHours>> byGroup = new TreeMap<>();
        for (UsageLine line : usage) {
            byGroup.computeIfAbsent(line.group(), g -> new TreeMap<>())
                    .merge(ModelName.normalise(line.model()),
                            new ModelHours(ModelName.display(line.model()), line.hours()), ModelHours::plus);
        }
        List<ReportRow> rows = new ArrayList<>(byGroup.size());
        byGroup.forEach((group, models) -> rows.add(row(terms, group, models.values())));
        return new MonthlyReport(terms.period(), terms.groupBy(), rows);
    }

    private static ReportRow row(Terms terms, String group, Collection<ModelHours> models) {
        BigDecimal hours = BigDecimal.ZERO;
        BigDecimal cost = BigDecimal.ZERO;
        for (ModelHours m : models) {
            hours = hours.add(m.hours());
            cost = cost.add(m.hours().multiply(terms.rateCard().rateFor(m.display())));
        }
        BigDecimal rate;
        if (models.size() == 1) {
            rate = terms.rateCard().rateFor(models.iterator().next().display());
        } else if (hours.signum() == 0) {
            rate = BigDecimal.ZERO;
        } else {
            // The hours-weighted mean of the models' rates, from the unrounded cost.
            rate = cost.divide(hours, RATE_SCALE, ROUNDING);
        }
        String gpuModels = models.stream().map(ModelHours::display).sorted().collect(Collectors.joining(";"));
        return new ReportRow(terms.period().startText(), terms.period().endText(), group, gpuModels,
                hours.setScale(HOURS_SCALE, ROUNDING), rate.setScale(RATE_SCALE, ROUNDING), terms.currency(),
                cost.setScale(MONEY_SCALE, ROUNDING), terms.rateCard().version(),
                terms.normalization().policy(), terms.normalization().version());
    }

    /** Hours of one model within a group; of several spellings of one model, the smallest is printed. */
    private record ModelHours(String display, BigDecimal hours) {
        ModelHours plus(ModelHours other) {
            String name = display.compareTo(other.display) <= 0 ? display : other.display;
            return new ModelHours(name, hours.add(other.hours));
        }
    }
}
