package io.gpumeter.alert.client;

import io.gpumeter.common.client.Answers;
import io.gpumeter.alert.client.LedgerRestClient.IncidentView;
import io.gpumeter.alert.client.LedgerRestClient.UsageRequest;
import io.gpumeter.alert.client.LedgerRestClient.ViolationView;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.Source;
import io.gpumeter.alert.domain.ViolationEpisode;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Calls ledger-service with a timeout, retries and a circuit breaker. A 404 is an answer, handled inside the
 * breaker: "nothing recorded" for the ledger's books, "source not available" for endpoints it may not have yet.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class LedgerClient {

    /** The most cards the ledger's usage read takes at once. */
    static final int MAX_CARDS = 500;

    private final LedgerRestClient ledger;

    public LedgerClient(@RestClient LedgerRestClient ledger) {
        this.ledger = ledger;
    }

    /** Nodes that held a GPU allocation in [from, to). */
    public Uni<List<String>> gpuNodes(Instant from, Instant to) {
        return ledger.gpuHours(from.toString(), to.toString(), "node")
                .map(rows -> rows == null ? List.<String>of() : rows.stream()
                        .map(r -> r.group() == null ? r.key() : r.group().getOrDefault("node", r.key()))
                        .filter(Objects::nonNull).filter(n -> !n.isBlank()).distinct().sorted().toList())
                .onFailure(Answers::notFound).recoverWithItem(List.of());
    }

    /** Every unit held anywhere at an instant: all nodes' occupants in one read. */
    public Uni<List<OccupantView>> fleetOccupants(Instant at) {
        return ledger.fleetOccupants(at.toString()).map(LedgerClient::orEmpty)
                .onFailure(Answers::notFound).recoverWithItem(List.of());
    }

    /** Whether the ledger knows the node: its occupants read answers 404 for a node it never saw. */
    public Uni<Boolean> knowsNode(String node, Instant at) {
        return ledger.nodeOccupants(node, at.toString()).map(rows -> true)
                .onFailure(Answers::notFound).recoverWithItem(false);
    }

    /** Whether the ledger knows the card: its occupants read answers 404 for a UUID in neither inventory nor books. */
    public Uni<Boolean> knowsGpu(String uuid, Instant at) {
        return ledger.gpuOccupants(uuid, at.toString()).map(rows -> true)
                .onFailure(Answers::notFound).recoverWithItem(false);
    }

    /**
     * Every usage series of each card, per minute, over [from, to), by card; a card without any is missing. One read
     * per {@value #MAX_CARDS} cards, the most the ledger takes at once.
     */
    public Uni<Map<String, List<UsagePointView>>> usage(Collection<String> gpuUuids, Instant from, Instant to) {
        List<String> cards = List.copyOf(gpuUuids);
        List<List<String>> chunks = new ArrayList<>();
        for (int i = 0; i < cards.size(); i += MAX_CARDS) {
            chunks.add(cards.subList(i, Math.min(cards.size(), i + MAX_CARDS)));
        }
        return Multi.createFrom().iterable(chunks)
                .onItem().transformToUniAndConcatenate(chunk -> ledger.usage(
                        new UsageRequest(from.toString(), to.toString(), chunk)).map(LedgerClient::orEmpty)
                        .onFailure(Answers::notFound).recoverWithItem(List.of()))
                .collect().in(HashMap<String, List<UsagePointView>>::new, (out, answers) -> answers
                        .forEach(c -> out.put(c.gpuUuid(), c.points() == null ? List.of() : c.points())))
                .map(Map::copyOf);
    }

    public Uni<Source<List<ViolationEpisode>>> violations(Instant from, Instant to) {
        return ledger.violations(from.toString(), to.toString())
                .map(rows -> Source.available(orEmpty(rows).stream().map(LedgerClient::episode).toList()))
                .onFailure(Answers::notFound).recoverWithItem(Source.absent("ledger has no /api/v1/violations"));
    }

    /** Failure incidents (OOM, Xid, GPU lost, GPU health) that started in [from, to); absent while the ledger has no such endpoint. */
    public Uni<Source<List<Incident>>> incidents(Instant from, Instant to) {
        return ledger.incidents(from.toString(), to.toString())
                .map(rows -> Source.available(orEmpty(rows).stream().map(LedgerClient::incident).toList()))
                .onFailure(Answers::notFound).recoverWithItem(Source.absent("ledger has no /api/v1/failures/incidents"));
    }

    /** Failure incidents still open, whatever their start; absent while the ledger has no such endpoint. */
    public Uni<Source<List<Incident>>> openIncidents() {
        return ledger.openIncidents(true)
                .map(rows -> Source.available(orEmpty(rows).stream().map(LedgerClient::incident).toList()))
                .onFailure(Answers::notFound).recoverWithItem(Source.absent("ledger has no /api/v1/failures/incidents"));
    }

    private static ViolationEpisode episode(ViolationView v) {
        return new ViolationEpisode(v.kind(), v.resource(), v.gpuUuid(), v.namespace(), v.pod(), v.start(), v.end(),
                v.peakRatio());
    }

    private static Incident incident(IncidentView i) {
        return new Incident(i.cause(), i.rootCauseClass(), i.node(), i.gpuUuid(), i.namespace(), i.pod(), i.startedAt(),
                i.open(), i.evidence(), i.id());
    }

    private static <T> List<T> orEmpty(List<T> rows) {
        return rows == null ? List.of() : rows;
    }
}
