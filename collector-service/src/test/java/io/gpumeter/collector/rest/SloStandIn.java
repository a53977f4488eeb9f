package io.gpumeter.collector.rest;

import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * slo-service's latency and engine-gauge intakes, and a vLLM server's /metrics, on one {@link StandIn}: the intakes
 * take every NDJSON body with a receipt and keep it in the journal, and refuse on purpose; /metrics serves the text
 * the test set.
 */
public class SloStandIn implements QuarkusTestResourceLifecycleManager {

    static final String LATENCY = "/api/v1/ingest/latency";
    static final String GAUGES = "/api/v1/ingest/engine-gauges";
    private static final List<StubMapping> REFUSALS = new CopyOnWriteArrayList<>();
    private static StandIn standIn;
    private static StubMapping exposition;

    @Override
    public Map<String, String> start() {
        standIn = StandIn.start();
        reset();
        String base = standIn.url();
        return Map.of("quarkus.rest-client.slo.url", base,
                "gpumeter.collector.vllm.targets.\"ml/chat-0\"", base + "/vllm/metrics",
                // where a discovered pod at 127.0.0.1 serves its metrics, for the tests that discover
                "gpumeter.collector.vllm.port", Integer.toString(standIn.server().port()),
                "gpumeter.collector.vllm.path", "/vllm/metrics",
                // the tests drive each round themselves; a timed round would move the baseline under them
                "gpumeter.collector.vllm.scrape-interval", "off");
    }

    @Override
    public void stop() {
        standIn.close();
    }

    /** The intakes take every body, /metrics serves an empty exposition, and no call is remembered. */
    static void reset() {
        standIn.reset();
        REFUSALS.clear();
        exposition = null;
        for (String intake : List.of(LATENCY, GAUGES)) {
            standIn.answer(post(urlPathEqualTo(intake)).atPriority(10),
                    "{\"records\":0,\"stored\":0,\"duplicate\":false,\"digest\":\"x\"}");
        }
        metrics("");
    }

    /** What the vLLM server's /metrics serves from now on. */
    static void metrics(String text) {
        if (exposition != null) {
            standIn.server().removeStubMapping(exposition);
        }
        exposition = standIn.answer(get(urlPathEqualTo("/vllm/metrics")), aResponse().withStatus(200)
                .withHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8").withBody(text));
    }

    /** Both intakes answer this status with a problem naming a field, until {@link #answerAgain}. */
    static void refuse(int status) {
        for (String intake : List.of(LATENCY, GAUGES)) {
            REFUSALS.add(standIn.answer(post(urlPathEqualTo(intake)).atPriority(1), aResponse().withStatus(status)
                    .withHeader("Content-Type", "application/problem+json")
                    .withBody("{\"status\":" + status + ",\"field\":\"ts\"}")));
        }
    }

    static void answerAgain() {
        REFUSALS.forEach(standIn.server()::removeStubMapping);
        REFUSALS.clear();
    }

    /** The request records the latency intake took, a body a round, oldest first. */
    static List<String> records() {
        return bodies(LATENCY);
    }

    /** The engine gauges the gauge intake took, a body a round, oldest first. */
    static List<String> gauges() {
        return bodies(GAUGES);
    }

    /** The bodies this intake took, oldest first. */
    static List<String> bodies(String intake) {
        return taken(intake).stream().map(LoggedRequest::getBodyAsString).toList();
    }

    /** The requests this intake took, oldest first. */
    static List<LoggedRequest> taken(String intake) {
        return standIn.taken(postRequestedFor(urlPathEqualTo(intake)));
    }
}
