package io.gpumeter.collector.service;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The second of two collectors sharing twelve nodes' exporters: it scrapes only the nodes its shard owns, several at
 * once, and delivers what they said.
 */
@QuarkusTest
@WithTestResource(ShardedScrapesTest.Exporters.class)
class ShardedScrapesTest {

    static final int NODES = 12;

    /** Twelve exporters on one stand-in (one path each, each answer a second late) and the ledger's usage intake. */
    public static class Exporters implements QuarkusTestResourceLifecycleManager {
        static StandIn standIn;

        @Override
        public Map<String, String> start() {
            standIn = StandIn.start();
            Map<String, String> config = OneCardExporters.serve(standIn, java.util.stream.IntStream.range(0, NODES)
                    .mapToObj(n -> "gpu-node-" + n).toList(), Duration.ofSeconds(1), Duration.ZERO);
            config.put("gpumeter.collector.dcgm.shards", "2");
            config.put("gpumeter.collector.dcgm.shard-index", "1");
            config.put("gpumeter.collector.dcgm.parallel-scrapes", "4");
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
    void scrapesOnlyItsShardsNodesSeveralAtOnce() {
        StandIn standIn = Exporters.standIn;
        standIn.server().resetRequests();

        int stored = pulls.scrapeExporters();

        List<LoggedRequest> scrapes = standIn.calls(getRequestedFor(urlPathMatching("/gpu-node-.*/metrics")));
        Set<String> scraped = scrapes.stream().map(r -> r.getUrl().split("/")[1]).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(scrapes.size(), scraped.size(), "a node scraped twice in one round: " + scrapes);
        assertEquals(stored, scraped.size());
        assertFalse(scraped.isEmpty(), "shard 1 of 2 owns none of twelve nodes");
        assertTrue(scraped.size() < NODES, "shard 1 of 2 scraped every node");
        ScrapeShard other = new ScrapeShard(2, 0);
        for (int n = 0; n < NODES; n++) {
            String node = "gpu-node-" + n;
            assertTrue(scraped.contains(node) != other.owns(node), node + " is scraped by both shards or by neither");
        }
        // each exporter answers a second late: with four at a time, the first four requests arrive before any answer
        List<Long> arrivals = scrapes.stream().map(r -> r.getLoggedDate().getTime()).sorted().toList();
        int concurrent = Math.min(4, arrivals.size());
        assertTrue(arrivals.get(concurrent - 1) - arrivals.get(0) < 900,
                "the first " + concurrent + " scrapes were not in flight together: " + arrivals);
        assertEquals(scraped.size(), standIn.count(postRequestedFor(urlPathEqualTo("/api/v1/usage"))),
                "each scraped page is delivered to the ledger");
    }
}
