package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static io.gpumeter.billing.domain.CostCalculator.HOURS_SCALE;
import static io.gpumeter.billing.domain.CostCalculator.MONEY_SCALE;
import static io.gpumeter.billing.domain.CostCalculator.RATE_SCALE;
import static io.gpumeter.billing.domain.CostCalculator.ROUNDING;

/**
 * How a period's usage lines add up against what the fleet could supply: fleet capacity cost = Σ usage lines'
 * allocated cost + unallocated capacity cost, to the cent, as printed. With {@link Share#PROPORTIONAL} each usage
 * line also bears a share of a positive unallocated cost in proportion to its allocated cost, rounded on its own
 * (half-even), so a line's share does not depend on which other lines a view shows; what rounding leaves stays
 * on the unallocated line. Adjustment lines belong to earlier months and stay outside the identity.
 */
public record Reconciliation(Share share, String currency, BigDecimal capacityGpuHours, BigDecimal capacityCost,
                             BigDecimal allocatedGpuHours, BigDecimal allocatedCost, BigDecimal unallocatedGpuHours,
                             BigDecimal unallocatedCost, BigDecimal sharedCost, String capacityModels,
                             String rateCardVersions) {

    /** The group cell of the unallocated line. */
    public static final String UNALLOCATED = "(unallocated capacity)";

    /**
     * @param stretches      the period's stretches, whose cards price the capacity
     * @param capacity       card-hours per stretch and model
     * @param fleetUsageRows every usage line of the period (no tenant filter), as printed
     */
    public static Reconciliation of(Share share, String currency, List<RateCardTimeline.Stretch> stretches,
                                    List<CapacityLine> capacity, List<ReportRow> fleetUsageRows) {
        BigDecimal hours = BigDecimal.ZERO;
        BigDecimal cost = BigDecimal.ZERO;
        Map<String, String> models = new TreeMap<>();
        Set<Integer> used = new java.util.TreeSet<>();
        for (CapacityLine line : capacity) {
            RateCard card = stretches.get(line.stretch()).card();
            hours = hours.add(line.cardHours());
            cost = cost.add(line.cardHours().multiply(card.rateFor(line.model())));
            models.merge(ModelName.normalise(line.model()), ModelName.display(line.model()),
                    (a, b) -> a.compareTo(b) <= 0 ? a : b);
            used.add(line.stretch());
        }
        Set<String> versions = new LinkedHashSet<>();
        used.forEach(i -> versions.add(stretches.get(i).card().version()));
        BigDecimal capacityHours = hours.setScale(HOURS_SCALE, ROUNDING);
        BigDecimal capacityCost = cost.setScale(MONEY_SCALE, ROUNDING);
        BigDecimal allocatedHours = BigDecimal.ZERO.setScale(HOURS_SCALE);
        BigDecimal allocatedCost = BigDecimal.ZERO.setScale(MONEY_SCALE);
        for (ReportRow row : fleetUsageRows) {
            allocatedHours = allocatedHours.add(row.allocatedGpuHours());
            allocatedCost = allocatedCost.add(row.allocatedCost());
        }
        BigDecimal unallocatedCost = capacityCost.subtract(allocatedCost);
        Reconciliation r = new Reconciliation(share, currency, capacityHours, capacityCost, allocatedHours,
                allocatedCost, capacityHours.subtract(allocatedHours), unallocatedCost,
                BigDecimal.ZERO.setScale(MONEY_SCALE),
                models.values().stream().sorted().collect(Collectors.joining(";")), String.join(";", versions));
        BigDecimal shared = BigDecimal.ZERO.setScale(MONEY_SCALE);
        for (ReportRow row : fleetUsageRows) {
            shared = shared.add(r.shareOf(row));
        }
        return new Reconciliation(share, currency, capacityHours, capacityCost, allocatedHours, allocatedCost,
                r.unallocatedGpuHours(), unallocatedCost, shared, r.capacityModels(), r.rateCardVersions());
    }

    /** The part of the unallocated cost a line bears: zero unless shared, for a usage line, with a cost to share. */
    public BigDecimal shareOf(ReportRow row) {
        if (share != Share.PROPORTIONAL || !row.isUsage() || unallocatedCost.signum() <= 0
                || allocatedCost.signum() <= 0) {
            return BigDecimal.ZERO.setScale(MONEY_SCALE);
        }
        return unallocatedCost.multiply(row.allocatedCost()).divide(allocatedCost, MONEY_SCALE, ROUNDING);
    }

    /** The unallocated cost no line bears: all of it unless shared, else what rounding left. */
    public BigDecimal unsharedCost() {
        return unallocatedCost.subtract(sharedCost);
    }

    /**
     * The rows with their shares, then (for a view of the whole fleet) the unallocated line, with {@code idleEnergy},
     * what the fleet's cards drew while no unit held them.
     */
    public List<ReportRow> apply(List<ReportRow> rows, CostCalculator.Terms terms, boolean wholeFleet,
                                 Energy idleEnergy) {
        List<ReportRow> out = new ArrayList<>(rows.size() + 1);
        for (ReportRow row : rows) {
            out.add(row.withShare(shareOf(row)));
        }
        if (wholeFleet) {
            out.add(unallocatedRow(terms, idleEnergy));
        }
        return out;
    }

    /**
     * The unallocated line: card-hours and cost no usage line holds, priced at the capacity's effective rate;
     * all of it idle. Its share column is minus what the usage lines bear, so its total is what stays unshared. Its
     * energy is the cards' idle energy, as its hours are the capacity no grant held.
     */
    ReportRow unallocatedRow(CostCalculator.Terms terms, Energy idleEnergy) {
        BigDecimal rate = unallocatedGpuHours.signum() == 0 ? BigDecimal.ZERO
                : unallocatedCost.divide(unallocatedGpuHours, RATE_SCALE, ROUNDING);
        return new ReportRow(terms.period().startText(), terms.period().endText(), UNALLOCATED, capacityModels,
                unallocatedGpuHours, rate.setScale(RATE_SCALE, ROUNDING), currency, unallocatedCost,
                rateCardVersions, terms.normalization().policy(), terms.normalization().version(),
                BigDecimal.ZERO.setScale(HOURS_SCALE), unallocatedGpuHours, BigDecimal.ZERO.setScale(MONEY_SCALE),
                unallocatedCost, idleEnergy).asUnallocated().withShare(sharedCost.negate());
    }

    /** The identity in words, e.g. "usage 69.39 + unallocated 105.61 = fleet capacity 175.00 USD". */
    public String statement() {
        return "usage " + allocatedCost.toPlainString() + " + unallocated " + unallocatedCost.toPlainString()
                + " = fleet capacity " + capacityCost.toPlainString() + " " + currency + " ("
                + capacityGpuHours.toPlainString() + " card-hours, " + allocatedGpuHours.toPlainString()
                + " allocated); " + share.label() + " sharing: " + sharedCost.toPlainString() + " borne by usage lines, "
                + unsharedCost().toPlainString() + " unshared";
    }

    /** Whether the identity holds as printed (it does by construction; stated so a reader need not trust that). */
    public boolean reconciles() {
        return allocatedCost.add(unallocatedCost).compareTo(capacityCost) == 0;
    }
}
