package io.gpumeter.slo.client;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.domain.TimeWindow;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Reads the host series of a set of pods and nodes of one cluster from the ledger, with a timeout, retries and a
 * circuit breaker: one call for the set (split only past the ledger's {@value #MAX_NAMES} of each). A ledger that does
 * not offer the read (404) answers nothing, which reads as no host data, not as a failing ledger.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class HostClient {

    /** The most pods, and the most nodes, one host read names. */
    static final int MAX_NAMES = 500;

    private final HostRestClient ledger;

    public HostClient(@RestClient HostRestClient ledger) {
        this.ledger = ledger;
    }

    public Uni<HostSeries> series(String cluster, Collection<String> podKeys, Collection<String> nodes,
                                  TimeWindow window) {
        List<String> pods = List.copyOf(podKeys);
        List<String> names = List.copyOf(nodes);
        if (pods.isEmpty() && names.isEmpty()) {
            return Uni.createFrom().item(HostSeries.EMPTY);
        }
        List<HostRestClient.SeriesRequest> calls = new ArrayList<>();
        for (int i = 0; i < Math.max(pods.size(), names.size()); i += MAX_NAMES) {
            calls.add(new HostRestClient.SeriesRequest(cluster, window.start().toString(), window.end().toString(),
                    slice(pods, i), slice(names, i)));
        }
        return Multi.createFrom().iterable(calls)
                .onItem().transformToUniAndConcatenate(r -> ledger.series(r)
                        .onFailure(Answers::notFound).recoverWithItem(HostSeries.EMPTY))
                .collect().in(() -> new HostSeries[]{HostSeries.EMPTY}, (acc, s) -> acc[0] = merge(acc[0], s))
                .map(acc -> acc[0]);
    }

    private static List<String> slice(List<String> items, int from) {
        return from >= items.size() ? List.of() : items.subList(from, Math.min(items.size(), from + MAX_NAMES));
    }

    private static HostSeries merge(HostSeries a, HostSeries b) {
        List<HostSeries.ContainerPoint> containers = new ArrayList<>(a.containers());
        containers.addAll(b == null ? List.of() : b.containers());
        List<HostSeries.NodePoint> nodes = new ArrayList<>(a.nodes());
        nodes.addAll(b == null ? List.of() : b.nodes());
        return new HostSeries(containers, nodes);
    }
}
