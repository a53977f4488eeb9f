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
import com.github.tomakehurst.wiremock.matching.RequestPattern;
import com.github.tomakehurst.wiremock.matching.RequestPatternBuilder;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The one stand-in server of the services' tests: WireMock on a free loopback port. A route answers canned JSON
 * (written with Jackson, or a {@link Contract} example the serving module's own tests recorded), every request
 * stays in WireMock's journal for the test to count and read, and a route can fail on purpose — a status, a delay, a
 * dropped connection, an answer without end. It holds no domain logic: a test that needs a clipped or filtered answer states that answer.
 */
public final class StandIn implements AutoCloseable {

    /** Instants as ISO-8601 text, as the services write them. */
    public static final ObjectMapper JSON = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS).build();

    private final WireMockServer server;
    private final EndlessBody endless;
    private final OpenRequests open;

    private StandIn(WireMockServer server, EndlessBody endless, OpenRequests open) {
        this.server = server;
        this.endless = endless;
        this.open = open;
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
        return started(WireMockConfiguration.options().dynamicPort().bindAddress("127.0.0.1"), extensions);
    }

    /** A stand-in on this port of the loopback address: where a service under test was told a peer listens. */
    public static StandIn startOn(int port) {
        return startOn("127.0.0.1", port);
    }

    /** A stand-in on this address and port: a peer that listens where it was told to. */
    public static StandIn startOn(String address, int port) {
        return started(WireMockConfiguration.options().port(port).bindAddress(address));
    }

    /** The journal keeps the start of each answer only, so that an endless one can be served. */
    private static StandIn started(WireMockConfiguration options, Extension... more) {
        EndlessBody endless = new EndlessBody();
        OpenRequests open = new OpenRequests();
        Extension[] extensions = java.util.stream.Stream.concat(java.util.stream.Stream.of(endless, open),
                java.util.Arrays.stream(more)).toArray(Extension[]::new);
        WireMockServer server = new WireMockServer(options.containerThreads(24)
                .maxLoggedResponseSize(64 * 1024).extensions(extensions));
        server.start();
        return new StandIn(server, endless, open);
    }

    public String url() {
        String address = server.getOptions().bindAddress();
        return "http://" + ("0.0.0.0".equals(address) ? "127.0.0.1" : address) + ":" + server.port();
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

    /** A 200 whose body repeats this line for as long as the client reads: an exporter that never stops. */
    public static ResponseDefinitionBuilder endless(String line) {
        return WireMock.aResponse().withStatus(200).withTransformers(EndlessBody.NAME)
                .withTransformerParameter(EndlessBody.LINE, line);
    }

    /** The same, declaring this Content-Length: an answer a client can refuse before it reads a byte of it. */
    public static ResponseDefinitionBuilder endless(String line, long declaredLength) {
        return endless(line).withHeader("Content-Length", Long.toString(declaredLength));
    }

    /** The bytes read of the endless answers so far, the journal's copy of each one's start included. */
    public long endlessBytesHandedOut() {
        return endless.handedOut();
    }

    /** The requests that matched, oldest first. */
    public List<LoggedRequest> calls(RequestPatternBuilder requests) {
        return server.findAll(requests);
    }

    /**
     * The requests that matched and were answered with a 2xx status, oldest first: what the peer took, as opposed to
     * what it refused while a test made it fail.
     */
    public List<LoggedRequest> taken(RequestPatternBuilder requests) {
        RequestPattern pattern = requests.build();
        List<ServeEvent> events = new ArrayList<>(server.getAllServeEvents());
        Collections.reverse(events); // WireMock lists the newest first
        return events.stream().filter(e -> e.getResponse() != null && e.getResponse().getStatus() / 100 == 2)
                .map(ServeEvent::getRequest).filter(r -> pattern.match(r).isExactMatch()).toList();
    }

    /** The most requests held open at once so far, each from its arrival to its answer's end. */
    public int mostOpen() {
        return open.most();
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
