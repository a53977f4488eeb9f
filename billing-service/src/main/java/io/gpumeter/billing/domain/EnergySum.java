package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.util.List;

import static io.gpumeter.billing.domain.CostCalculator.MONEY_SCALE;
import static io.gpumeter.billing.domain.CostCalculator.ROUNDING;

/**
 * Exact running sums of one line's energy, each part priced with the terms of its card and cluster; only the sums
 * are rounded, as cost is. kWh no card priced count in the kWh and in no cost; a line none of whose kWh were
 * priced prints no cost at all, rather than a cost of zero.
 */
public final class EnergySum {

    private BigDecimal kWh = BigDecimal.ZERO;
    private BigDecimal cost = BigDecimal.ZERO;
    private BigDecimal grams = BigDecimal.ZERO;
    private boolean priced;
    private boolean counted;

    public void add(BigDecimal energyKWh, EnergyTerms terms) {
        BigDecimal e = energyKWh == null ? BigDecimal.ZERO : energyKWh;
        kWh = kWh.add(e);
        if (terms.pricePerKWh() != null) {
            cost = cost.add(e.multiply(terms.pricePerKWh()));
            priced = true;
        }
        if (terms.gramsCo2ePerKWh() != null) {
            grams = grams.add(e.multiply(terms.gramsCo2ePerKWh()));
            counted = true;
        }
    }

    public Energy printed() {
        return new Energy(kWh.setScale(Energy.KWH_SCALE, ROUNDING), priced ? cost.setScale(MONEY_SCALE, ROUNDING) : null,
                counted ? grams.movePointLeft(3).setScale(Energy.CO2E_SCALE, ROUNDING) : null);
    }

    /** The cards' idle energy of a period, each stretch's kWh priced with that stretch's card for its cluster. */
    public static Energy idle(List<RateCardTimeline.Stretch> stretches, List<IdleEnergy> idle) {
        EnergySum sum = new EnergySum();
        for (IdleEnergy part : idle) {
            sum.add(part.kWh(), stretches.get(part.stretch()).card().energyFor(part.cluster()));
        }
        return sum.printed();
    }
}
