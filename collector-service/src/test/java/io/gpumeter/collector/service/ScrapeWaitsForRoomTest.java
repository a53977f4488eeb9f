package io.gpumeter.collector.service;

import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A buffer with room for one page and a ledger that takes a second to answer: the second exporter's page waits for
 * room instead of being dropped, and both pages reach the ledger.
 */
@QuarkusTest
@WithTestResource(ScrapeWaitsForRoomTest.Exporters.class)
class ScrapeWaitsForRoomTest {

    public static class Exporters implements QuarkusTestResourceLifecycleManager {
        static StandIn standIn;

        @Override
        public Map<String, String> start() {
            standIn = StandIn.start();
            Map<String, String> config = OneCardExporters.serve(standIn, java.util.List.of("gpu-a", "gpu-b"), Duration.ZERO,
                    Duration.ofSeconds(1));
            config.put("gpumeter.collector.dcgm.parallel-scrapes", "2");
            config.put("gpumeter.collector.usage.flush-interval", "100ms");
            config.put("gpumeter.collector.usage.buffer-capacity", "1");
            return config;
        }

        @Override
        public void stop() {
            standIn.close();
        }
    }

    @Inject
    UsagePulls pulls;

    @Test
    void aPageThatFindsTheBufferFullWaitsForRoom() {
        assertEquals(2, pulls.scrapeExporters(), "both pages are held, one after the other");
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() ->
                assertEquals(2, Exporters.standIn.count(postRequestedFor(urlPathEqualTo("/api/v1/usage"))),
                        "each page reaches the ledger in a delivery of its own"));
    }
}
