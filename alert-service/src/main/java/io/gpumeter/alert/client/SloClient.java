package io.gpumeter.alert.client;

import io.gpumeter.common.client.Answers;
import io.gpumeter.alert.client.SloRestClient.AlertView;
import io.gpumeter.alert.client.SloRestClient.BurnWindow;
import io.gpumeter.alert.client.SloRestClient.LatencyView;
import io.gpumeter.alert.client.SloRestClient.SloView;
import io.gpumeter.alert.client.SloRestClient.StateView;
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
import java.util.Comparator;
import java.util.List;

/**
 * Reads SLO states from slo-service with a timeout, retries and a circuit breaker. While slo-service has no SLO API
 * (404) the source is absent, so the SLO rules stay inactive instead of firing.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class SloClient {

    /** The SRE workbook's page threshold over 1 h and 5 m. */
    static final double FAST_BURN = 14.4;

    private final SloRestClient slo;

    public SloClient(@RestClient SloRestClient slo) {
        this.slo = slo;
    }

    /** Every SLO's state, in one read of slo-service whatever the number of SLOs. */
    public Uni<Source<List<SloState>>> states(Instant from, Instant to) {
        return slo.states(from.toString(), to.toString())
                .map(list -> (list == null ? List.<StateView>of() : list).stream()
                        .filter(s -> s != null && s.slo() != null)
                        .map(s -> state(s.slo(), s.status(), s.latency())).toList())
                .map(Source::available)
                .onFailure(Answers::notFound).recoverWithItem(Source.absent("slo-service has no /api/v1/slo-states"));
    }

    static SloState state(SloView view, StatusView status, LatencyView latency) {
        boolean fast = false;
        Double rate = null;
        if (status != null && status.alerts() != null) {
            for (AlertView a : status.alerts()) {
                if (a.firing() && a.factor() != null && a.factor() >= FAST_BURN) {
                    fast = true;
                    rate = slower(a.longWindow(), a.shortWindow());
                }
            }
        }
        List<LatencyWindow> windows = latency == null || latency.minutes() == null ? List.of() : latency.minutes().stream()
                .filter(m -> m != null && m.minute() != null && m.latency() != null && m.latency().p99Ms() != null)
                .map(m -> new LatencyWindow(m.minute(), m.minute().plusSeconds(60), m.latency().p99Ms()))
                .sorted(Comparator.comparing(LatencyWindow::start)).toList();
        var selector = view.selector();
        return new SloState(view.name(), view.sli(), selector == null ? null : selector.service(),
                selector == null ? null : selector.namespace(), selector == null ? null : selector.tenant(),
                view.objective() == null ? null : view.objective().thresholdMs(), fast, rate, windows);
    }

    /** A multi-window alert burns at the slower of its two windows' rates. */
    private static Double slower(BurnWindow longWindow, BurnWindow shortWindow) {
        Double l = longWindow == null ? null : longWindow.burnRate();
        Double s = shortWindow == null ? null : shortWindow.burnRate();
        return l == null ? s : s == null ? l : Math.min(l, s);
    }
}
