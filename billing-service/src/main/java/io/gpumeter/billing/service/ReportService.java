package io.gpumeter.billing.service;

import io.gpumeter.billing.client.GpuHours;
import io.gpumeter.billing.client.LedgerClient;
import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.CostCalculator;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.MonthlyReport;
import io.gpumeter.billing.domain.Normalization;
import io.gpumeter.billing.domain.RateCard;
import io.gpumeter.billing.domain.UsageLine;
import io.gpumeter.common.problem.ApiProblem;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.YearMonth;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Currency;
import java.util.List;

/**
 * Prices a month of the ledger's allocated GPU-hours with the configured rate card.
 */
@Startup // builds the rate card at boot, so a contradictory card stops the service instead of a bill
@ApplicationScoped
public class ReportService {

    private static final Logger LOG = Logger.getLogger(ReportService.class);

    private final LedgerClient ledger;
    private final RateCard rateCard;
    private final String currency;
    private final ZoneId zone;

    public ReportService(LedgerClient ledger, BillingConfig config) {
        this.ledger = ledger;
        this.rateCard = new RateCard(config.rateCard().version(), config.rateCard().defaultRate(),
                config.rateCard().models());
        this.currency = Currency.getInstance(config.currency().strip()).getCurrencyCode();
        this.zone = config.zone();
    }

    /**
     * The allocated-cost report of {@code month}, one row per value of {@code groupBy}.
     *
     * @throws ApiProblem 503 when ledger-service cannot be reached or gives an unusable answer
     */
    public MonthlyReport monthly(YearMonth month, GroupBy groupBy) {
        BillingPeriod period = BillingPeriod.of(month, zone);
        List<UsageLine> usage;
        Normalization normalization;
        try {
            usage = usage(ledger.gpuHours(period.startInstant(), period.endInstant(), groupBy.dimension()),
                    groupBy);
            normalization = ledger.normalization()
                    .map(n -> new Normalization(n.policy(), n.version()))
                    .orElse(Normalization.UNKNOWN);
        } catch (RuntimeException e) {
            // Timeouts, refused connections, 5xx, an open breaker and unreadable bodies all mean the same to a
            // caller: no trustworthy GPU-hours right now, so no bill.
            LOG.warnf("ledger-service failed while building the %s report by %s: %s", month, groupBy.dimension(), e);
            throw ApiProblem.unavailable("ledger-service, the source of GPU-hours, is unavailable; retry later.");
        }
        return CostCalculator.monthly(
                new CostCalculator.Terms(period, groupBy, rateCard, currency, normalization), usage);
    }

    private static List<UsageLine> usage(List<GpuHours> aggregates, GroupBy groupBy) {
        List<UsageLine> lines = new ArrayList<>(aggregates.size());
        for (GpuHours a : aggregates) {
            if (a == null || a.allocatedGpuHours() == null) {
                throw new IllegalStateException("ledger-service returned an aggregate without allocatedGpuHours");
            }
            String group = a.dimension(groupBy.dimension());
            lines.add(new UsageLine(group, a.dimension("model"), a.allocatedGpuHours()));
        }
        return lines;
    }
}
