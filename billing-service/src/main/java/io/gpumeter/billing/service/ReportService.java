package io.gpumeter.billing.service;

import io.gpumeter.billing.client.GpuHours;
import io.gpumeter.billing.client.LedgerClient;
import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CostCalculator;
import io.gpumeter.billing.domain.CostReport;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.Normalization;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.domain.UsageLine;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

/**
 * Prices a month or an ISO week of the ledger's allocated and used GPU-hours with the rate cards in force,
 * asking the ledger once per stretch between price changes.
 */
@ApplicationScoped
public class ReportService {

    private static final Logger LOG = Logger.getLogger(ReportService.class);

    private final LedgerClient ledger;
    private final RateCardService rateCards;
    private final ZoneId zone;

    public ReportService(LedgerClient ledger, RateCardService rateCards, BillingConfig config) {
        this.ledger = ledger;
        this.rateCards = rateCards;
        this.zone = config.zone();
    }

    /**
     * The cost report of {@code month}, one row per value of {@code groupBy}, limited to {@code scope}.
     *
     * @throws ApiProblem 503 when ledger-service cannot be reached or gives an unusable answer
     */
    public CostReport monthly(YearMonth month, GroupBy groupBy, ReportScope scope) {
        return report(BillingPeriod.of(month, zone), groupBy, scope);
    }

    /** The cost report of the ISO week that begins on {@code monday}; otherwise as {@link #monthly}. */
    public CostReport weekly(LocalDate monday, GroupBy groupBy, ReportScope scope) {
        return report(BillingPeriod.ofWeek(monday, zone), groupBy, scope);
    }

    private CostReport report(BillingPeriod period, GroupBy groupBy, ReportScope scope) {
        List<RateCardTimeline.Stretch> stretches = rateCards.timeline()
                .split(period.startInstant(), period.endInstant());
        List<CostCalculator.Piece> pieces = new ArrayList<>(stretches.size());
        Normalization normalization;
        try {
            for (RateCardTimeline.Stretch stretch : stretches) {
                pieces.add(new CostCalculator.Piece(stretch.card(), usage(
                        ledger.gpuHours(stretch.start(), stretch.end(), scope.ledgerGroupBy(groupBy)),
                        groupBy, scope)));
            }
            normalization = ledger.normalization()
                    .map(n -> new Normalization(n.policy(), n.version()))
                    .orElse(Normalization.UNKNOWN);
        } catch (RuntimeException e) {
            // Timeouts, refused connections, 5xx, an open breaker and unreadable bodies all mean the same to a
            // caller: no trustworthy GPU-hours right now, so no bill.
            LOG.warnf("ledger-service failed while building the %s report by %s: %s", period.label(),
                    groupBy.dimension(), e);
            throw ApiProblem.unavailable("ledger-service, the source of GPU-hours, is unavailable; retry later.");
        }
        CostReport priced = CostCalculator.price(
                new CostCalculator.Terms(period, groupBy, rateCards.currency(), normalization), pieces);
        return new CostReport(priced.period(), priced.groupBy(), scope, priced.rows());
    }

    private static List<UsageLine> usage(List<GpuHours> aggregates, GroupBy groupBy, ReportScope scope) {
        List<UsageLine> lines = new ArrayList<>(aggregates.size());
        for (GpuHours a : aggregates) {
            if (a == null || a.allocatedGpuHours() == null) {
                throw new IllegalStateException("ledger-service returned an aggregate without allocatedGpuHours");
            }
            if (!scope.admits(a.dimension("tenant"))) {
                continue;
            }
            String group = a.dimension(groupBy.dimension());
            lines.add(new UsageLine(group, a.dimension("model"), a.allocatedGpuHours(), a.usedGpuHours()));
        }
        return lines;
    }
}
