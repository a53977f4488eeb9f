package io.gpumeter.collector.service;

import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import io.gpumeter.common.testing.StandIn;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * Nodes' dcgm-exporters on one stand-in, one path each ({@code /<node>/metrics}), each page one card's SM activity, and
 * the ledger's usage intake answering each delivery: the collector's scrape configuration for them.
 */
final class OneCardExporters {

    private OneCardExporters() {
    }

    /** Stubs the exporters (each page sent after {@code late}) and the intake (after {@code ledgerLate}); the config. */
    static Map<String, String> serve(StandIn standIn, List<String> nodes, Duration late, Duration ledgerLate) {
        Map<String, String> config = new HashMap<>();
        for (String node : nodes) {
            String page = """
                    # TYPE DCGM_FI_PROF_SM_ACTIVE gauge
                    DCGM_FI_PROF_SM_ACTIVE{gpu="0",UUID="GPU-%s",Hostname="%s"} 0.5
                    """.formatted(node, node);
            standIn.answer(get(urlPathEqualTo("/" + node + "/metrics")), after(late, page));
            config.put("gpumeter.collector.dcgm.targets." + node, standIn.url() + "/" + node + "/metrics");
        }
        standIn.answer(post(urlPathEqualTo("/api/v1/usage")),
                after(ledgerLate, Map.of("accepted", 1, "duplicates", 0, "podsBound", 0)));
        config.put("quarkus.rest-client.ledger.url", standIn.url());
        config.put("quarkus.scheduler.enabled", "false"); // the tests scrape when they say
        return config;
    }

    private static ResponseDefinitionBuilder after(Duration late, Object body) {
        return late.isZero() ? StandIn.json(200, body) : StandIn.late(late, body);
    }
}
