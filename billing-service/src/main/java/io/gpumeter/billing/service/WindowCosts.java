package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.ReportRow;
import io.gpumeter.billing.domain.ReportScope;
import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/**
 * The cost of any window, priced as every report is (the rate cards in force over it, from the ledger as it is now):
 * what an acceptance run's window of a few hours cost, allocated (invoiced), used and idle (showback), per group and
 * GPU model, so that each line carries the one rate its model was priced at.
 */
@ApplicationScoped
public class WindowCosts {

    /** One group's cost on one GPU model over the window; used and idle add up to allocated. */
    @RegisterForReflection
    public record Line(String group, String gpuModel, String currency, BigDecimal rate, String rateCardVersion,
                       BigDecimal allocatedGpuHours, BigDecimal usedGpuHours, BigDecimal idleGpuHours,
                       BigDecimal allocatedCost, BigDecimal usedCost, BigDecimal idleCost) {
    }

    /** The window's lines, one per group and GPU model (as the ledger spells it), in group and model order. */
    @RegisterForReflection
    public record Costs(Instant from, Instant to, String groupBy, String currency, List<Line> lines) {
    }

    private final ReportPricing pricing;

    WindowCosts(ReportPricing pricing) {
        this.pricing = pricing;
    }

    /** @throws io.gpumeter.common.problem.ApiProblem 503 when the ledger cannot be read */
    public Costs of(Instant from, Instant to, GroupBy groupBy, ReportScope scope) {
        BillingPeriod period = new BillingPeriod(from + "/" + to, from.atZone(ZoneOffset.UTC), to.atZone(ZoneOffset.UTC));
        ReportPricing.Built built = pricing.live(period, groupBy, scope, true);
        List<Line> lines = built.rows().stream().filter(ReportRow::isUsage)
                .map(r -> new Line(r.group(), r.gpuModels(), r.currency(), r.rate(), r.rateCardVersion(),
                        r.allocatedGpuHours(), r.usedGpuHoursShowback(), r.idleGpuHoursShowback(), r.allocatedCost(),
                        r.usedCostShowback(), r.idleCostShowback()))
                .toList();
        return new Costs(from, to, groupBy.dimension(), built.terms().currency(), lines);
    }
}
