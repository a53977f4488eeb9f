package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.ReportRow;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.domain.TimeBucket;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A month's GPU-hours and cost per day or ISO week (or the month whole) and group, each bucket's hours priced with
 * the rate card of its model in force then, as the monthly report prices the month. From the ledger as it is now:
 * a closed month's invoice stays its monthly report.
 */
@ApplicationScoped
public class CostSeriesService {

    private final ReportPricing pricing;
    private final ZoneId zone;

    public CostSeriesService(ReportPricing pricing, BillingConfig config) {
        this.pricing = pricing;
        this.zone = config.zone();
    }

    /** One bucket: its label and its bounds as a report prints them. */
    public record Bucket(String label, String start, String end) {
    }

    /**
     * One group's hours and cost in one bucket; used and idle are showback and add up to allocated. The energy its
     * units drew, with its cost and CO2e where the rate cards give a price or an emission factor (else null).
     *
     * @param tenant the tenant the line belongs to, where known (the group by tenant, or the one tenant asked for)
     */
    public record Line(String bucket, String group, String tenant, BigDecimal allocatedGpuHours, BigDecimal usedGpuHours,
                       BigDecimal idleGpuHours, BigDecimal allocatedCost, BigDecimal usedCost, BigDecimal idleCost,
                       String rateCardVersion, BigDecimal energyKWh, BigDecimal energyCost, BigDecimal co2eKg) {
    }

    /** The month's buckets, every one even when empty, and the lines of those with hours. */
    public record Series(String month, String bucket, String groupBy, String timeZone, String currency,
                         List<Bucket> buckets, List<Line> lines) {
    }

    public Series series(YearMonth month, TimeBucket unit, GroupBy groupBy, ReportScope scope) {
        BillingPeriod period = BillingPeriod.of(month, zone);
        List<BillingPeriod> buckets = unit.of(period);
        Map<BillingPeriod, List<ReportRow>> rows = pricing.liveByBucket(period, unit, buckets, groupBy, scope);
        List<Bucket> shown = new ArrayList<>(buckets.size());
        List<Line> lines = new ArrayList<>();
        rows.forEach((bucket, bucketRows) -> {
            shown.add(new Bucket(bucket.label(), bucket.startText(), bucket.endText()));
            for (ReportRow r : bucketRows) {
                String tenant = groupBy == GroupBy.TENANT ? r.group() : scope.tenant();
                lines.add(new Line(bucket.label(), r.group(), tenant, r.allocatedGpuHours(), r.usedGpuHoursShowback(),
                        r.idleGpuHoursShowback(), r.allocatedCost(), r.usedCostShowback(), r.idleCostShowback(),
                        r.rateCardVersion(), r.energy().kWh(), r.energy().cost(), r.energy().co2eKg()));
            }
        });
        return new Series(month.toString(), unit.label(), groupBy.dimension(), TimeBucket.zoneName(zone), pricing.currency(), shown,
                lines);
    }
}
