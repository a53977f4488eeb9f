package io.gpumeter.alert.client;

import io.gpumeter.alert.client.SloRestClient.BurnView;
import io.gpumeter.alert.client.SloRestClient.SloView;
import io.gpumeter.alert.client.SloRestClient.StatusView;
import io.gpumeter.alert.domain.LatencyWindow;
import io.gpumeter.alert.domain.SloState;
import io.gpumeter.alert.domain.Source;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Reads SLO states from slo-service with a timeout, retries and a circuit breaker. While slo-service has no SLO API
 * (404) the source is absent, so the SLO rules stay inactive instead of firing.
 */
@ApplicationScoped
public class SloClient {

    /** The SRE workbook's page threshold over 1 h and 5 m. */
    static final double FAST_BURN = 14.4;

    private final SloRestClient slo;

    public SloClient(@RestClient SloRestClient slo) {
        this.slo = slo;
    }

    @Timeout(value = 20, unit = ChronoUnit.SECONDS)
    @Retry(maxRetries = 2, delay = 200, jitter = 100)
    @CircuitBreaker(requestVolumeThreshold = 20, failureRatio = 0.5, delay = 10, delayUnit = ChronoUnit.SECONDS)
    public Uni<Source<List<SloState>>> states(Instant from, Instant to) {
        return slo.slos()
                .chain(list -> {
                    List<Uni<SloState>> each = new ArrayList<>();
                    for (SloView view : list == null ? List.<SloView>of() : list) {
                        each.add(slo.status(view.name(), from.toString(), to.toString())
                                .onFailure(Http::notFound).recoverWithNull()
                                .map(status -> state(view, status)));
                    }
                    return each.isEmpty() ? Uni.createFrom().item(List.<SloState>of())
                            : Uni.join().all(each).andFailFast();
                })
                .map(Source::available)
                .onFailure(Http::notFound).recoverWithItem(Source.absent("slo-service has no /api/v1/slos"));
    }

    static SloState state(SloView view, StatusView status) {
        boolean fast = false;
        Double rate = null;
        if (status != null && status.burnRates() != null) {
            for (BurnView b : status.burnRates()) {
                if (b.firing() && b.factor() != null && b.factor() >= FAST_BURN) {
                    fast = true;
                    rate = b.shortRate() == null ? b.longRate() : b.longRate() == null ? b.shortRate()
                            : Math.min(b.shortRate(), b.longRate());
                }
            }
        }
        List<LatencyWindow> windows = status == null || status.windows() == null ? List.of() : status.windows().stream()
                .filter(w -> w.start() != null && w.end() != null && w.p99Ms() != null)
                .map(w -> new LatencyWindow(w.start(), w.end(), w.p99Ms()))
                .sorted(Comparator.comparing(LatencyWindow::start)).toList();
        var selector = view.selector();
        return new SloState(view.name(), view.sli(), selector == null ? null : selector.service(),
                selector == null ? null : selector.namespace(), selector == null ? null : selector.tenant(),
                view.objective() == null ? null : view.objective().thresholdMs(), fast, rate,
                windows.stream().filter(Objects::nonNull).toList());
    }
}
