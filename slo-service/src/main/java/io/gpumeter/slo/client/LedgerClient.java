package io.gpumeter.slo.client;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.client.Answers;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Problem;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.LedgerRestClient.CardHoldingsRequest;
import io.gpumeter.slo.client.LedgerRestClient.HoldingsRequest;
import io.gpumeter.slo.client.LedgerRestClient.PodRef;
import io.gpumeter.slo.client.LedgerRestClient.UsageRequest;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.faulttolerance.CircuitBreaker;
import org.eclipse.microprofile.faulttolerance.Retry;
import org.eclipse.microprofile.faulttolerance.Timeout;
import org.eclipse.microprofile.rest.client.inject.RestClient;

import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Calls ledger-service with a timeout, retries and a circuit breaker. A 404 is handled inside the breaker: an
 * unknown card or pod is an answer ("nothing held"), not a failing ledger. Pods and cards are read as sets, one
 * call per set (split only past the ledger's bound on a set), never one call per pod or card.
 */
@ApplicationScoped
@Timeout
@Retry
@CircuitBreaker
public class LedgerClient {

    /** The most pods the ledger's holdings read takes at once. */
    static final int MAX_PODS = 2000;
    /** The most cards the ledger's usage and card holdings reads take at once. */
    static final int MAX_CARDS = 500;
    /** The most scopes the ledger's bulk read of the change book takes at once. */
    static final int MAX_SCOPES = 1000;

    private final LedgerRestClient ledger;

    public LedgerClient(@RestClient LedgerRestClient ledger) {
        this.ledger = ledger;
    }

    /**
     * The fleet's supply per GPU model over a window, days split at {@code zone}'s midnights; null when the ledger
     * does not offer the read (404, inside the breaker: a ledger without it is not a failing ledger).
     */
    public Uni<Supply> supply(TimeWindow window, ZoneId zone, String cluster) {
        return ledger.supply(window.start().toString(), window.end().toString(), zone.getId(), cluster)
                .onFailure(Answers::notFound).recoverWithNull();
    }

    /** The fleet's demand per model, workload class, request shape and service over a window, with its peaks (as above). */
    public Uni<Demand> demand(TimeWindow window, ZoneId zone, String cluster) {
        return ledger.demand(window.start().toString(), window.end().toString(), zone.getId(), cluster)
                .onFailure(Answers::notFound).recoverWithNull();
    }

    /**
     * The units each pod ("namespace/pod") held during the window, each with the part of the window it was held;
     * a pod that held nothing is missing from the answer.
     */
    public Uni<Map<String, List<PodHoldings.Holding>>> holdings(Collection<String> podKeys, TimeWindow window) {
        return inChunks(List.copyOf(podKeys), MAX_PODS, chunk -> ledger.holdings(new HoldingsRequest(
                        window.start().toString(), window.end().toString(), chunk.stream().map(LedgerClient::podRef).toList()))
                .map(LedgerClient::orEmpty)
                .onFailure(Answers::notFound).recoverWithItem(List.of()))
                .map(answers -> {
                    Map<String, List<PodHoldings.Holding>> out = new HashMap<>();
                    answers.forEach(p -> out.put(p.podKey(), p.units() == null ? List.of() : p.units()));
                    return out;
                });
    }

    /**
     * The units held on each card during the window, each with the part of the window it was held; a card nobody
     * held is missing from the answer.
     */
    public Uni<Map<String, List<PodHoldings.Holding>>> cardHoldings(Collection<String> gpuUuids, TimeWindow window) {
        return inChunks(List.copyOf(gpuUuids), MAX_CARDS, chunk -> ledger.cardHoldings(new CardHoldingsRequest(
                        window.start().toString(), window.end().toString(), chunk)).map(LedgerClient::orEmpty)
                .onFailure(Answers::notFound).recoverWithItem(List.of()))
                .map(answers -> {
                    Map<String, List<PodHoldings.Holding>> out = new HashMap<>();
                    answers.forEach(c -> out.put(c.gpuUuid(), c.units() == null ? List.of() : c.units()));
                    return out;
                });
    }

    /**
     * The queue each pod ("namespace/pod") went through, one read per {@value #MAX_PODS} pods; a pod the ledger holds
     * no scheduling record of answers {@code known} false.
     */
    public Uni<List<PodQueue>> podQueues(Collection<String> podKeys) {
        return inChunks(List.copyOf(podKeys), MAX_PODS, chunk -> ledger.podQueues(new LedgerRestClient.PodQueuesRequest(
                chunk.stream().map(LedgerClient::podRef).toList())).map(LedgerClient::orEmpty));
    }

    /**
     * The incidents of a set of pods ("namespace/pod") that started in the window, as the ledger answers them, one read
     * per {@value #MAX_PODS} pods.
     */
    public Uni<List<JsonNode>> podIncidents(Collection<String> podKeys, TimeWindow window) {
        return inChunks(List.copyOf(podKeys), MAX_PODS, chunk -> ledger.podIncidents(new HoldingsRequest(
                window.start().toString(), window.end().toString(), chunk.stream().map(LedgerClient::podRef).toList()))
                .map(LedgerClient::orEmpty));
    }

    /** Every usage series of each card, per minute, over [from, to); a card without any is missing. */
    public Uni<Map<String, List<UsagePoint>>> usage(Collection<String> gpuUuids, Instant from, Instant to) {
        return inChunks(List.copyOf(gpuUuids), MAX_CARDS, chunk -> ledger.usage(
                        new UsageRequest(from.toString(), to.toString(), chunk)).map(LedgerClient::orEmpty)
                .onFailure(Answers::notFound).recoverWithItem(List.of()))
                .map(answers -> {
                    Map<String, List<UsagePoint>> out = new HashMap<>();
                    answers.forEach(c -> out.put(c.gpuUuid(), c.points() == null ? List.of() : c.points()));
                    return out;
                });
    }

    /** Queue waits of what was admitted in [from, to), grouped by clusterQueue or tenant, as the ledger answers. */
    public Uni<JsonNode> queueWait(Instant from, Instant to, String groupBy) {
        return ledger.queueWait(from.toString(), to.toString(), groupBy);
    }

    /** What waited in a queue at {@code at}, with the ledger's reason and the cluster's message. */
    public Uni<JsonNode> pending(Instant at) {
        return ledger.pending(at.toString());
    }

    /** Allocated and used GPU-hours over [from, to) grouped by namespace or tenant, as the ledger answers. */
    public Uni<JsonNode> gpuHours(Instant from, Instant to, String groupBy) {
        return ledger.gpuHours(from.toString(), to.toString(), groupBy);
    }

    /**
     * Many scopes of the change book, answered in the order asked: one read per {@value #MAX_SCOPES} scopes, one after
     * the other.
     */
    public Uni<List<ScopeChanges>> changes(List<ChangeScope> scopes) {
        return inChunks(scopes, MAX_SCOPES, chunk -> ledger.changes(new LedgerRestClient.ChangesRequest(chunk))
                .map(LedgerClient::orEmpty));
    }

    /** The ledger's answer on a change's impact: the impact, or null and why the ledger gave none. */
    public record ImpactRead(ChangeImpact impact, ApiProblem refused) {
    }

    /**
     * A change and the nodes it touched with the ledger's windows around it; no impact for a change the ledger does
     * not know. A window the ledger refuses is our caller's: a 400 naming the ledger's field, answered (so neither
     * retried nor counted against the ledger by the class's policy) for the caller to raise.
     */
    public Uni<ImpactRead> changeImpact(String id, Instant from, Instant to) {
        return ledger.changeImpact(id, from == null ? null : from.toString(), to == null ? null : to.toString())
                .map(impact -> new ImpactRead(impact, null))
                .onFailure(Answers::notFound).recoverWithItem(new ImpactRead(null, null))
                .onFailure(LedgerClient::badRequest).recoverWithItem(e -> new ImpactRead(null, relayed(e)));
    }

    private static boolean badRequest(Throwable e) {
        return e instanceof WebApplicationException w && w.getResponse() != null && w.getResponse().getStatus() == 400;
    }

    /** The ledger's refusal of a window as ours: its field and its detail. */
    private static ApiProblem relayed(Throwable e) {
        Response r = ((WebApplicationException) e).getResponse();
        Optional<Problem> problem = Problem.parse(r.hasEntity() ? r.readEntity(String.class) : null);
        return ApiProblem.badRequest(problem.map(Problem::field).orElse(null), problem.map(Problem::detail)
                .orElse("the ledger refused the window around the change"));
    }

    /** The fleet's fragmentation at {@code at}, as the ledger answers. */
    public Uni<JsonNode> fragmentation(Instant at) {
        return ledger.fragmentation(at.toString());
    }

    private static PodRef podRef(String podKey) {
        int slash = podKey.indexOf('/');
        return new PodRef(podKey.substring(0, slash), podKey.substring(slash + 1));
    }

    /** One call per {@code size} items, one after the other; no call for no items. */
    private static <T, R> Uni<List<R>> inChunks(List<T> items, int size, Function<? super List<T>, Uni<List<R>>> call) {
        if (items.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<List<T>> chunks = new ArrayList<>();
        for (int i = 0; i < items.size(); i += size) {
            chunks.add(items.subList(i, Math.min(items.size(), i + size)));
        }
        Multi<List<R>> answers = Multi.createFrom().iterable(chunks).onItem().transformToUniAndConcatenate(call::apply);
        return answers.collect().in(ArrayList<R>::new, List::addAll).map(List::copyOf);
    }

    private static <T> List<T> orEmpty(List<T> rows) {
        return rows == null ? List.of() : rows;
    }
}
