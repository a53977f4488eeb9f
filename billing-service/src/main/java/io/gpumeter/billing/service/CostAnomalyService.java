package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.CostNorm;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Judges every tenant's allocated cost on one local day against its trailing days (see {@link CostNorm}). The
 * latest judgement is kept for a while: alert-service asks every minute, and a day's cost rarely moves.
 */
// Built at start-up, so that a bad anomaly setting stops the service with the property's name.
@Startup
@ApplicationScoped
public class CostAnomalyService {

    /** How the anomaly is defined, printed with every answer. */
    static final String METHOD = "a day's allocated cost above the mean + sigmas x sample standard deviation of the "
            + "tenant's trailing days (days without grants count as 0) and at least minimumCost";

    /** Every tenant with a cost on {@code day}, judged. */
    public record Report(String day, String from, String to, String currency, int trailingDays, BigDecimal sigmas,
                         BigDecimal minimumCost, String method, List<CostNorm.Judgement> tenants) {
    }

    private record Cached(LocalDate day, Instant at, Report report) {
    }

    private final CostToDate costs;
    private final RateCardService rateCards;
    private final CostNorm norm;
    private final Duration cacheFor;
    private volatile Cached cached;

    public CostAnomalyService(CostToDate costs, RateCardService rateCards, BillingConfig config) {
        this.costs = costs;
        this.rateCards = rateCards;
        BillingConfig.Anomaly a = config.anomaly();
        try {
            this.norm = new CostNorm(a.trailingDays(), a.sigmas(), a.minimumCost());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("gpumeter.billing.anomaly: " + e.getMessage(), e);
        }
        this.cacheFor = a.cacheFor();
    }

    /** The local day before the one {@code at} falls in: the latest whole day. */
    public LocalDate lastWholeDay(Instant at) {
        return at.atZone(costs.zone()).toLocalDate().minusDays(1);
    }

    /**
     * @throws io.gpumeter.common.problem.ApiProblem 503 when ledger-service fails
     */
    public Report judge(LocalDate day, Instant now) {
        Cached c = cached;
        if (c != null && c.day().equals(day) && Duration.between(c.at(), now).compareTo(cacheFor) < 0) {
            return c.report();
        }
        List<Map<String, BigDecimal>> trailing = new ArrayList<>();
        for (int i = norm.trailingDays(); i >= 1; i--) {
            trailing.add(costs.dailyCostByTenant(day.minusDays(i)));
        }
        Map<String, BigDecimal> today = costs.dailyCostByTenant(day);
        BigDecimal zero = BigDecimal.ZERO.setScale(2);
        List<CostNorm.Judgement> judged = new ArrayList<>();
        today.forEach((tenant, cost) -> {
            if (cost.signum() > 0) {
                judged.add(norm.judge(tenant, cost, trailing.stream().map(m -> m.getOrDefault(tenant, zero)).toList()));
            }
        });
        Report report = new Report(day.toString(), day.atStartOfDay(costs.zone()).toOffsetDateTime().toString(),
                day.plusDays(1).atStartOfDay(costs.zone()).toOffsetDateTime().toString(), rateCards.currency(),
                norm.trailingDays(), norm.sigmas(), norm.minimumCost(), METHOD, judged);
        cached = new Cached(day, now, report);
        return report;
    }
}
