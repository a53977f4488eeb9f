package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Turns exact allocated and used GPU-hours and energy per group and model into priced report rows; a period that
 * spans a price change arrives as several pieces, each with its own rate card, whose energy terms price the kWh of
 * each cluster. Rounds only the printed figures.
 */
public final class CostCalculator {

    public static final int HOURS_SCALE = 6;
    public static final int RATE_SCALE = 6;
    public static final int MONEY_SCALE = 2;
    public static final RoundingMode ROUNDING = RoundingMode.HALF_EVEN;

    private CostCalculator() {
    }

    /** Everything a row prints besides the group's own figures and the rate cards. */
    public record Terms(BillingPeriod period, GroupBy groupBy, String currency, Normalization normalization) {
    }

    /** The usage of one stretch of the period during which one rate card was in force. */
    public record Piece(RateCard rateCard, List<UsageLine> usage) {
    }

    public static CostReport price(Terms terms, RateCard rateCard, List<UsageLine> usage) {
        return price(terms, List.of(new Piece(rateCard, usage)));
    }

    /** @param pieces in time order; a group's rate-card versions print in that order */
    public static CostReport price(Terms terms, List<Piece> pieces) {
        return price(terms, pieces, false);
    }

    /**
     * @param pieces  in time order; a group's rate-card versions print in that order
     * @param byModel one row per group and GPU model (sorted by group, then model) instead of one per group
     */
    public static CostReport price(Terms terms, List<Piece> pieces, boolean byModel) {
        // TreeMaps make the row order and the model order independent of the ledger's answer order.
        Map<RowKey, Group> byGroup = new TreeMap<>();
        for (int i = 0; i < pieces.size(); i++) {
            RateCard card = pieces.get(i).rateCard();
            for (UsageLine line : pieces.get(i).usage()) {
                RowKey key = new RowKey(line.group(), byModel ? ModelName.normalise(line.model()) : "");
                byGroup.computeIfAbsent(key, g -> new Group()).add(i, card, line);
            }
        }
        List<ReportRow> rows = new ArrayList<>(byGroup.size());
        byGroup.forEach((key, sums) -> rows.add(sums.row(terms, key.group(), pieces)));
        return new CostReport(terms.period(), terms.groupBy(), rows);
    }

    /** A row's identity: its group, and its model's key when rows are per model (else ""). */
    private record RowKey(String group, String model) implements Comparable<RowKey> {
        @Override
        public int compareTo(RowKey o) {
            int byGroup = group.compareTo(o.group);
            return byGroup != 0 ? byGroup : model.compareTo(o.model);
        }
    }

    /** Exact running sums of one group. */
    private static final class Group {
        private BigDecimal hours = BigDecimal.ZERO;
        private BigDecimal cost = BigDecimal.ZERO;
        private BigDecimal used = BigDecimal.ZERO;
        private BigDecimal usedCost = BigDecimal.ZERO;
        /** Each line's energy priced with its card's terms for its cluster. */
        private final EnergySum energy = new EnergySum();
        /** Normalised model -> printed spelling; of several spellings of one model, the smallest is printed. */
        private final Map<String, String> models = new TreeMap<>();
        private final Set<Integer> pieces = new TreeSet<>();
        /** Each (piece, model) priced, with its rate: one entry means the row has one plain rate. */
        private final Map<String, BigDecimal> rates = new TreeMap<>();

        void add(int piece, RateCard card, UsageLine line) {
            String key = ModelName.normalise(line.model());
            String display = ModelName.display(line.model());
            models.merge(key, display, (a, b) -> a.compareTo(b) <= 0 ? a : b);
            BigDecimal rate = card.rateFor(display);
            rates.put(piece + "/" + key, rate);
            pieces.add(piece);
            hours = hours.add(line.hours());
            cost = cost.add(line.hours().multiply(rate));
            used = used.add(line.usedHours());
            usedCost = usedCost.add(line.usedHours().multiply(rate));
            energy.add(line.energyKWh(), card.energyFor(line.cluster()));
        }

        ReportRow row(Terms terms, String group, List<Piece> all) {
            BigDecimal rate;
            if (rates.size() == 1) {
                rate = rates.values().iterator().next();
            } else if (hours.signum() == 0) {
                rate = BigDecimal.ZERO;
            } else {
                // The hours-weighted mean of the rates, from the unrounded cost.
                rate = cost.divide(hours, RATE_SCALE, ROUNDING);
            }
            String gpuModels = models.values().stream().sorted().collect(Collectors.joining(";"));
            String versions = pieces.stream().map(i -> all.get(i).rateCard().version()).distinct()
                    .collect(Collectors.joining(";"));
            BigDecimal printedHours = hours.setScale(HOURS_SCALE, ROUNDING);
            BigDecimal printedCost = cost.setScale(MONEY_SCALE, ROUNDING);
            BigDecimal printedUsed = used.setScale(HOURS_SCALE, ROUNDING);
            BigDecimal printedUsedCost = usedCost.setScale(MONEY_SCALE, ROUNDING);
            // Idle is the printed remainder, so used + idle equals the allocated figures on every row to the digit.
            return new ReportRow(terms.period().startText(), terms.period().endText(), group, gpuModels,
                    printedHours, rate.setScale(RATE_SCALE, ROUNDING), terms.currency(), printedCost, versions,
                    terms.normalization().policy(), terms.normalization().version(),
                    printedUsed, printedHours.subtract(printedUsed), printedUsedCost,
                    printedCost.subtract(printedUsedCost), energy.printed());
        }
    }
}
