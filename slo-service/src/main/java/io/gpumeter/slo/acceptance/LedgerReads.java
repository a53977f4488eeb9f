package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.client.Answers;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.PodHoldings;
import io.gpumeter.slo.client.PodQueue;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The ledger reads an acceptance run makes, each one kept as evidence: the curl line that repeats it and the answer
 * it gave. A read that fails is an answer too ("no answer: HTTP 503"), and its figure is then missing, never guessed.
 */
@ApplicationScoped
public class LedgerReads {

    /** A read's answer (null when it failed) and the call as evidence. */
    public record Read<T>(T answer, Run.Call call) {
    }

    private final LedgerClient ledger;
    private final ObjectMapper json;
    private final String ledgerUrl;

    public LedgerReads(LedgerClient ledger, ObjectMapper json,
                       @ConfigProperty(name = "quarkus.rest-client.ledger.url") String ledgerUrl) {
        this.ledger = ledger;
        this.json = json;
        this.ledgerUrl = ledgerUrl.endsWith("/") ? ledgerUrl.substring(0, ledgerUrl.length() - 1) : ledgerUrl;
    }

    public Uni<Read<Map<String, List<PodHoldings.Holding>>>> holdings(Collection<String> pods, TimeWindow window) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("from", window.start().toString());
        body.put("to", window.end().toString());
        body.put("pods", pods.stream().map(LedgerReads::podRef).toList());
        return record(post("/api/v1/holdings", body), ledger.holdings(pods, window), java.util.TreeMap::new);
    }

    public Uni<Read<List<PodQueue>>> podQueues(Collection<String> pods) {
        Map<String, Object> body = Map.of("pods", pods.stream().map(LedgerReads::podRef).toList());
        return record(post("/api/v1/pod-queues", body), ledger.podQueues(pods), a -> a);
    }

    /** The ledger's incidents of the pods that started in the window, by start; no read for no pods. */
    public Uni<Read<List<JsonNode>>> podIncidents(Collection<String> pods, TimeWindow window) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("from", window.start().toString());
        body.put("to", window.end().toString());
        body.put("pods", pods.stream().map(LedgerReads::podRef).toList());
        return record(post("/api/v1/failures/pod-incidents", body), ledger.podIncidents(pods, window), a -> a);
    }

    public Uni<Read<JsonNode>> queueWait(Instant from, Instant to, String groupBy) {
        return record(get("/api/v1/queue-wait", "from", from.toString(), "to", to.toString(), "groupBy", groupBy),
                ledger.queueWait(from, to, groupBy), a -> a);
    }

    public Uni<Read<JsonNode>> pending(Instant at) {
        return record(get("/api/v1/queue-wait/pending", "at", at.toString()), ledger.pending(at), a -> a);
    }

    public Uni<Read<JsonNode>> gpuHours(Instant from, Instant to, String groupBy) {
        return record(get("/api/v1/gpu-hours", "from", from.toString(), "to", to.toString(), "groupBy", groupBy),
                ledger.gpuHours(from, to, groupBy), a -> a);
    }

    /** The fleet's supply over the window, per model with its failures and maintenance (UTC days). */
    public Uni<Read<io.gpumeter.slo.client.Supply>> supply(TimeWindow window) {
        return record(get("/api/v1/capacity/supply", "from", window.start().toString(), "to", window.end().toString(),
                "timeZone", "UTC"), ledger.supply(window, java.time.ZoneId.of("UTC"), null), a -> a);
    }

    /** The fleet's demand over the window with its queue and pending peaks (UTC days). */
    public Uni<Read<io.gpumeter.slo.client.Demand>> demand(TimeWindow window) {
        return record(get("/api/v1/demand", "from", window.start().toString(), "to", window.end().toString(),
                "timeZone", "UTC"), ledger.demand(window, java.time.ZoneId.of("UTC"), null), a -> a);
    }

    public Uni<Read<JsonNode>> fragmentation(Instant at) {
        return record(get("/api/v1/fragmentation", "at", at.toString()), ledger.fragmentation(at), a -> a);
    }

    private <T> Uni<Read<T>> record(String curl, Uni<T> call, Function<T, Object> shown) {
        return recorded(json, curl, call, shown);
    }

    /** A read of any service kept as evidence: its answer as shown, or "no answer: ..." in the shared words. */
    static <T> Uni<Read<T>> recorded(ObjectMapper json, String curl, Uni<T> call, Function<T, Object> shown) {
        return call.map(answer -> new Read<>(answer, new Run.Call(curl, 200, write(json, shown.apply(answer)))))
                .onFailure().recoverWithItem(e -> new Read<>(null, new Run.Call(curl, -1,
                        "no answer: " + Answers.reason(e))));
    }

    private String get(String path, String... params) {
        return CurlLine.get(ledgerUrl, path, params);
    }

    private String post(String path, Object body) {
        return CurlLine.post(ledgerUrl, path, write(body));
    }

    private String write(Object value) {
        return write(json, value);
    }

    private static String write(ObjectMapper json, Object value) {
        try {
            return json.writeValueAsString(value);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("an answer read as JSON writes as JSON", e);
        }
    }

    private static Map<String, String> podRef(String podKey) {
        int slash = podKey.indexOf('/');
        Map<String, String> ref = new LinkedHashMap<>();
        ref.put("namespace", podKey.substring(0, slash));
        ref.put("pod", podKey.substring(slash + 1));
        return ref;
    }
}
