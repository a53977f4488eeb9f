package io.gpumeter.common.testing;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.core.WireMockConfiguration;
import com.github.tomakehurst.wiremock.extension.Extension;
import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

/**
 * The one stand-in server of the services' tests: WireMock on a free loopback port. A route answers canned JSON
 * (written with Jackson, or a {@link Contract} example the serving module's own tests recorded), every request
 * stays in WireMock's journal for the test to count and read, and a route can fail on purpose — a status, a delay, a
 * dropped connection. It holds no domain logic: a test that needs a clipped or filtered answer states that answer.
 */
public final class StandIn implements AutoCloseable {

    /** Instants as ISO-8601 text, as the services write them. */
    public static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    private final WireMockServer server;

    private StandIn(WireMockServer server) {
        this.server = server;
    }

    /** A stand-in on a free port of the loopback address, with threads enough that a slow answer holds no other up. */
    public static StandIn start() {
        return start(new Extension[0]);
    }

    /**
     * A stand-in with WireMock extensions: a transformer that works an answer out of the request, for a caller whose
     * tests page through a book too long to state answer by answer.
     */
    public static StandIn start(Extension... extensions) {
        WireMockServer server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1")
                .dynamicPort().containerThreads(24).extensions(extensions));
        server.start();
        return new StandIn(server);
    }

    /** A stand-in on this port of the loopback address: where a service under test was told a peer listens. */
    public static StandIn startOn(int port) {
        WireMockServer server = new WireMockServer(WireMockConfiguration.options().bindAddress("127.0.0.1")
                .port(port).containerThreads(24));
        server.start();
        return new StandIn(server);
    }

    public String url() {
        return "http://127.0.0.1:" + server.port();
    }

    /** WireMock itself, for what the helpers here do not say (scenarios, request matchers). */
    public WireMockServer server() {
        return server;
    }

    /** Answers a request with this JSON (a string as it is, anything else written by Jackson), status 200. */
    public StubMapping answer(MappingBuilder request, Object body) {
        return server.stubFor(request.willReturn(json(200, body)));
    }

    public StubMapping answer(MappingBuilder request, ResponseDefinitionBuilder response) {
        return server.stubFor(request.willReturn(response));
    }

    /** A JSON answer with this status. */
    public static ResponseDefinitionBuilder json(int status, Object body) {
        return WireMock.aResponse().withStatus(status).withHeader("Content-Type", "application/json")
                .withBody(text(body));
    }

    /** A problem+json answer, as the services fail. */
    public static ResponseDefinitionBuilder problem(int status, String title) {
        return WireMock.aResponse().withStatus(status).withHeader("Content-Type", "application/problem+json")
                .withBody("{\"status\":" + status + ",\"title\":" + text(title) + "}");
    }

    /** A connection that ends without a status line. */
    public static ResponseDefinitionBuilder dropped() {
        return WireMock.aResponse().withFault(Fault.EMPTY_RESPONSE);
    }

    /** A JSON answer sent only after this delay. */
    public static ResponseDefinitionBuilder late(Duration delay, Object body) {
        return json(200, body).withFixedDelay((int) delay.toMillis());
    }

    /** The requests that matched, oldest first. */
    public List<LoggedRequest> calls(RequestPatternBuilder requests) {
        return server.findAll(requests);
    }

    public int count(RequestPatternBuilder requests) {
        return server.countRequestsMatching(requests.build()).getCount();
    }

    /** Every route and the journal forgotten, for the next test. */
    public void reset() {
        server.resetAll();
    }

    @Override
    public void close() {
        server.stop();
    }

    /** A string as it is, anything else as Jackson writes it. */
    public static String text(Object body) {
        if (body instanceof String s) {
            return s;
        }
        try {
            return JSON.writeValueAsString(body);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
