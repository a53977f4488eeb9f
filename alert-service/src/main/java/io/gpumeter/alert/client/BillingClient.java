package io.gpumeter.alert.client;

import io.gpumeter.common.client.Answers;
import io.gpumeter.alert.client.BillingRestClient.AnomaliesView;
import io.gpumeter.alert.client.BillingRestClient.ForecastView;
import io.gpumeter.alert.client.BillingRestClient.JudgementView;
import io.gpumeter.alert.domain.BudgetForecast;
import io.gpumeter.alert.domain.CostAnomaly;
import io.gpumeter.alert.domain.Source;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * Reads budgets and cost anomalies from billing-service with a timeout, retries and a circuit breaker. A 404 (a
 * billing-service without these reads) makes the source absent, inside the breaker, so the cost rules stay inactive.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class BillingClient {

    private final BillingRestClient billing;

    public BillingClient(@RestClient BillingRestClient billing) {
        this.billing = billing;
    }

    /** This month's forecast of every tenant that has a budget, as of {@code at}. */
    public Uni<Source<List<BudgetForecast>>> budgetForecasts(Instant at) {
        return billing.budgetForecasts(at.toString())
                .map(rows -> Source.available(rows == null ? List.<BudgetForecast>of() : rows.stream()
                        .filter(Objects::nonNull).map(BillingClient::forecast).toList()))
                .onFailure(Answers::notFound).recoverWithItem(Source.absent("billing-service has no /api/v1/budget-forecasts"));
    }

    /** Every tenant's cost on the latest whole day before {@code at}, judged against its trailing days. */
    public Uni<Source<List<CostAnomaly>>> costAnomalies(Instant at) {
        return billing.costAnomalies(at.toString())
                .map(view -> Source.available(anomalies(view)))
                .onFailure(Answers::notFound).recoverWithItem(Source.absent("billing-service has no /api/v1/cost-anomalies"));
    }

    private static BudgetForecast forecast(ForecastView f) {
        return new BudgetForecast(f.tenant(), f.month(), f.currency(), f.budget(), f.spentToDate(), f.elapsedFraction(),
                f.forecast());
    }

    static List<CostAnomaly> anomalies(AnomaliesView view) {
        if (view == null || view.tenants() == null) {
            return List.of();
        }
        return view.tenants().stream().filter(Objects::nonNull)
                .map((JudgementView j) -> new CostAnomaly(j.tenant(), view.day(), view.currency(), j.cost(),
                        j.trailingMean(), j.threshold(), j.anomalous()))
                .toList();
    }
}
