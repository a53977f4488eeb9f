package io.gpumeter.common.testing;

import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StandInTest {

    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void answersItsRoutesCountsItsCallsAndFailsOnPurpose() throws Exception {
        try (StandIn standIn = StandIn.start()) {
            standIn.answer(get(urlPathEqualTo("/api/v1/gpu-hours")).withQueryParam("from", equalTo("a")),
                    List.of(Map.of("key", "acme")));
            standIn.answer(get(urlPathEqualTo("/api/v1/gpu-hours")).withQueryParam("from", equalTo("b")),
                    StandIn.problem(500, "Internal Server Error"));
            standIn.answer(get(urlPathEqualTo("/api/v1/gpu-hours")).withQueryParam("from", equalTo("c")),
                    StandIn.dropped());
            standIn.answer(get(urlPathEqualTo("/api/v1/gpu-hours")).withQueryParam("from", equalTo("d")),
                    StandIn.late(Duration.ofMillis(400), "[]"));

            HttpResponse<String> ok = ask(standIn, "a");
            assertEquals(200, ok.statusCode());
            assertEquals("[{\"key\":\"acme\"}]", ok.body());
            assertEquals(500, ask(standIn, "b").statusCode());
            assertThrows(IOException.class, () -> ask(standIn, "c"));
            long began = System.nanoTime();
            assertEquals("[]", ask(standIn, "d").body());
            assertTrue(Duration.ofNanos(System.nanoTime() - began).toMillis() >= 400, "sent after its delay");

            assertEquals(4, standIn.count(getRequestedFor(urlPathEqualTo("/api/v1/gpu-hours"))), "every call logged");
            assertEquals("b", standIn.calls(getRequestedFor(urlPathEqualTo("/api/v1/gpu-hours"))
                    .withQueryParam("from", equalTo("b"))).get(0).queryParameter("from").firstValue());
        }
    }

    @Test
    void whatWasTakenIsTheRequestsAnsweredWithA2xxOldestFirst() throws Exception {
        try (StandIn standIn = StandIn.start()) {
            standIn.answer(post(urlPathEqualTo("/api/v1/facts")), "{}");
            StubMapping refusing = standIn.answer(post(urlPathEqualTo("/api/v1/facts")).atPriority(1),
                    StandIn.problem(503, "Service Unavailable"));
            assertEquals(503, send(standIn, "refused").statusCode());
            standIn.server().removeStubMapping(refusing);
            for (String body : List.of("first", "second", "third")) {
                assertEquals(200, send(standIn, body).statusCode());
            }
            assertEquals(List.of("first", "second", "third"), standIn.taken(postRequestedFor(urlPathEqualTo("/api/v1/facts")))
                    .stream().map(LoggedRequest::getBodyAsString).toList());
            assertEquals(List.of("refused", "first", "second", "third"), standIn.calls(postRequestedFor(urlPathEqualTo(
                    "/api/v1/facts"))).stream().map(LoggedRequest::getBodyAsString).toList(), "every call, oldest first");
        }
    }

    @Test
    void anEndlessAnswerIsReadAsFarAsTheClientCaresAndNoFurther() throws Exception {
        try (StandIn standIn = StandIn.start()) {
            standIn.answer(get(urlPathEqualTo("/metrics")), StandIn.endless("x 1\n"));
            standIn.answer(get(urlPathEqualTo("/declared")), StandIn.endless("y\n", 1L << 30));
            HttpResponse<InputStream> endless = http.send(HttpRequest.newBuilder(URI.create(standIn.url() + "/metrics"))
                    .build(), HttpResponse.BodyHandlers.ofInputStream());
            try (InputStream in = endless.body()) {
                assertEquals("x 1\nx 1\nx 1\n", new String(in.readNBytes(12), StandardCharsets.UTF_8));
                assertEquals(1 << 20, in.readNBytes(1 << 20).length, "a MiB and more is there to read");
            }
            HttpResponse<InputStream> declared = http.send(HttpRequest.newBuilder(URI.create(standIn.url() + "/declared"))
                    .build(), HttpResponse.BodyHandlers.ofInputStream());
            assertEquals(OptionalLong.of(1L << 30), declared.headers().firstValueAsLong("Content-Length"));
            declared.body().close();
            assertTrue(standIn.endlessBytesHandedOut() < 64L << 20, "not a GiB: " + standIn.endlessBytesHandedOut());
            assertEquals(2, standIn.count(getRequestedFor(urlPathMatching("/metrics|/declared"))), "both in the journal");
        }
    }

    @Test
    void itCountsTheMostRequestsItHeldOpenAtOnce() throws Exception {
        try (StandIn standIn = StandIn.start()) {
            standIn.answer(post(urlPathEqualTo("/api/v1/facts")), StandIn.late(Duration.ofMillis(300), "{}"));
            send(standIn, "alone");
            assertEquals(1, standIn.mostOpen(), "one after the other");
            var both = List.of(http.sendAsync(request(standIn, "a"), HttpResponse.BodyHandlers.ofString()),
                    http.sendAsync(request(standIn, "b"), HttpResponse.BodyHandlers.ofString()));
            both.forEach(java.util.concurrent.CompletableFuture::join);
            assertEquals(2, standIn.mostOpen(), "two sent at once, each answered 300 ms later");
        }
    }

    private HttpRequest request(StandIn standIn, String body) {
        return HttpRequest.newBuilder(URI.create(standIn.url() + "/api/v1/facts"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private HttpResponse<String> send(StandIn standIn, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(standIn.url() + "/api/v1/facts"))
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> ask(StandIn standIn, String from) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(standIn.url() + "/api/v1/gpu-hours?from=" + from)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
