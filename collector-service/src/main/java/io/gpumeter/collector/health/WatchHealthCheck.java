package io.gpumeter.collector.health;

import io.gpumeter.collector.service.FactBuffer;
import io.gpumeter.collector.service.LiveWatch;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Reports the live watch. It stays UP when the cluster is unreachable: replay and every other source still work,
 * so the state (disabled, starting, watching, degraded) is data, not a failure.
 */
@Readiness
public class WatchHealthCheck implements HealthCheck {

    private final LiveWatch watch;
    private final FactBuffer buffer;

    public WatchHealthCheck(LiveWatch watch, FactBuffer buffer) {
        this.watch = watch;
        this.buffer = buffer;
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponseBuilder response = HealthCheckResponse.named("kubernetes-watch").up()
                .withData("state", watch.state().name().toLowerCase(java.util.Locale.ROOT))
                .withData("bufferedFacts", buffer.size());
        if (watch.problem() != null) {
            response.withData("problem", watch.problem());
        }
        return response.build();
    }
}
