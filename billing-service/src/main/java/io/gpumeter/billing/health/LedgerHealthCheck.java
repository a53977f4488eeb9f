package io.gpumeter.billing.health;

import io.gpumeter.billing.client.LedgerBreakers;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

import java.util.Locale;

/**
 * Reports ledger-service as billing sees it: {@code up} while every breaker of the ledger calls is closed,
 * {@code degraded} while one is open or half-open. Billing stays ready either way — rate cards and budgets need
 * no ledger — so the state is data, as the collector reports its watch.
 */
@Readiness
public class LedgerHealthCheck implements HealthCheck {

    private final LedgerBreakers breakers;

    public LedgerHealthCheck(LedgerBreakers breakers) {
        this.breakers = breakers;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("ledger").up()
                .withData("state", breakers.allClosed() ? "up" : "degraded");
        breakers.states().forEach((call, state) -> response.withData(call, state.name().toLowerCase(Locale.ROOT)));
        return response.build();
    }
}
