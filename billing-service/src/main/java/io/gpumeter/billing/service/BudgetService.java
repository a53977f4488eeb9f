package io.gpumeter.billing.service;

import io.gpumeter.billing.domain.BillingPeriod;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.repository.BudgetRepository;
import io.gpumeter.billing.repository.StoredBudget;
import io.gpumeter.common.problem.ApiProblem;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.YearMonth;
import java.util.List;
import java.util.function.Supplier;

/**
 * Tenants' standing monthly budgets and the forecast of a month's cost against them.
 */
@ApplicationScoped
public class BudgetService {

    /** How the forecast is made, printed with it. */
    public static final String METHOD = "linear run-rate: month-to-date allocated cost x month length / elapsed time";

    private final BudgetRepository repository;
    private final RateCardService rateCards;
    private final CostToDate costs;

    private final Clock clock;

    public BudgetService(BudgetRepository repository, RateCardService rateCards, CostToDate costs, Clock clock) {
        this.clock = clock;
        this.repository = repository;
        this.rateCards = rateCards;
        this.costs = costs;
    }

    /** A stored budget, and whether this call created it. */
    public record Saved(StoredBudget budget, boolean created) {
    }

    /**
     * A month's forecast for one tenant.
     *
     * @param elapsedFraction share of the month elapsed at {@code asOf} (1 once the month is over or closed)
     * @param overrunAmount   how far the forecast exceeds the budget, 0.00 when it does not
     */
    public record Forecast(String tenant, String month, String currency, BigDecimal budget, String asOf,
                           BigDecimal spentToDate, BigDecimal elapsedFraction, BigDecimal forecast, boolean overrun,
                           BigDecimal overrunAmount, BigDecimal remaining, boolean closed, String method) {
    }

    /**
     * Creates or replaces a tenant's budget.
     *
     * @throws ApiProblem 400 for a negative amount, more than 2 decimals, or another currency
     */
    @WithTransaction
    public Uni<Saved> put(String tenant, @Valid @NotNull BudgetRequest request) {
        String currency = request.currency() == null ? rateCards.currency() : request.currency().strip();
        if (!rateCards.currency().equals(currency)) {
            throw ApiProblem.badRequest("currency", "currency must be " + rateCards.currency()
                    + ", the currency this service bills in, got '" + request.currency() + "'");
        }
        return repository.findById(tenant).chain(found -> {
            StoredBudget budget = found != null ? found : new StoredBudget();
            budget.tenant = tenant;
            budget.monthlyAmount = request.monthlyAmount().setScale(2, RoundingMode.UNNECESSARY);
            budget.currency = currency;
            budget.updatedAt = clock.instant();
            return repository.persist(budget).map(b -> new Saved(b, found == null));
        });
    }

    public Uni<List<StoredBudget>> list() {
        return repository.listByTenant();
    }

    /** The budget, or null. */
    public Uni<StoredBudget> get(String tenant) {
        return repository.byTenant(tenant);
    }

    @WithTransaction
    public Uni<Boolean> delete(String tenant) {
        return repository.deleteById(tenant);
    }

    /**
     * The tenant's month-to-date allocated cost as of {@code asOf} and its linear projection to the month's end,
     * against the budget; blocks the calling worker thread.
     *
     * @throws ApiProblem 404 when the tenant has no budget, 503 when the ledger or the database fails
     */
    public Forecast forecast(String tenant, YearMonth month, Instant asOf) {
        StoredBudget budget = await(() -> repository.byTenant(tenant));
        if (budget == null) {
            throw ApiProblem.notFound("tenant", "tenant '" + tenant + "' has no budget");
        }
        CostToDate.MonthToDate soFar = costs.monthToDate(month, ReportScope.parse(tenant), asOf);
        return project(budget, month, soFar.period(), soFar.asOf(), soFar.cost(), soFar.closed());
    }

    /**
     * The forecast of every tenant that has a budget, by tenant, from one reading of the ledger; blocks the calling
     * worker thread.
     *
     * @throws ApiProblem 503 when the ledger or the database fails
     */
    public List<Forecast> forecasts(YearMonth month, Instant asOf) {
        List<StoredBudget> all = await(repository::listByTenant);
        if (all.isEmpty()) {
            return List.of();
        }
        CostToDate.TenantsToDate soFar = costs.tenantsToDate(month, ReportScope.ALL, asOf);
        BigDecimal nothing = BigDecimal.ZERO.setScale(2);
        return all.stream().map(b -> project(b, month, soFar.period(), soFar.asOf(),
                soFar.costs().getOrDefault(b.tenant, nothing), soFar.closed())).toList();
    }

    private static <T> T await(Supplier<Uni<T>> read) {
        try {
            return Await.result(read);
        } catch (RuntimeException e) {
            throw ApiProblem.unavailable("the budgets cannot be read from the billing database; retry later.");
        }
    }

    /** Projects month-to-date cost linearly to the month's end and sets it against the budget. */
    private static Forecast project(StoredBudget budget, YearMonth month, BillingPeriod period, Instant asOf,
                                    BigDecimal spent, boolean closed) {
        Duration length = period.duration();
        Duration elapsed = Duration.between(period.startInstant(), asOf);
        BigDecimal fraction;
        BigDecimal forecast;
        if (closed || elapsed.compareTo(length) >= 0) {
            fraction = BigDecimal.ONE;
            forecast = spent;
        } else if (elapsed.isZero()) {
            fraction = BigDecimal.ZERO;
            forecast = spent;
        } else {
            BigDecimal seconds = BigDecimal.valueOf(elapsed.getSeconds());
            BigDecimal total = BigDecimal.valueOf(length.getSeconds());
            fraction = seconds.divide(total, 6, RoundingMode.HALF_EVEN);
            forecast = spent.multiply(total).divide(seconds, 2, RoundingMode.HALF_EVEN);
        }
        BigDecimal over = forecast.subtract(budget.monthlyAmount);
        return new Forecast(budget.tenant, month.toString(), budget.currency, budget.monthlyAmount, asOf.toString(),
                spent, fraction.setScale(6, RoundingMode.HALF_EVEN), forecast, over.signum() > 0,
                over.signum() > 0 ? over : BigDecimal.ZERO.setScale(2), budget.monthlyAmount.subtract(spent),
                closed, METHOD);
    }
}
