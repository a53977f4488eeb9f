package io.gpumeter.common.testing;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
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

    private HttpResponse<String> ask(StandIn standIn, String from) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(URI.create(standIn.url() + "/api/v1/gpu-hours?from=" + from)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
