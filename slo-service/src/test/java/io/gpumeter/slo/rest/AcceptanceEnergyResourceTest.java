package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * TOKENS_PER_JOULE through {@code POST /api/v1/acceptance/runs}, for namespace "qe" over 2026-12-08 10:00-11:00, the
 * energy answered by the stand-in ledger's GPU-hours by pod and model, every figure worked out by hand:
 * <pre>
 * solo   (DEDICATED, qe-solo)  qe/solo-0: 180,000 tokens; a whole card, 1 GPU-h, 90,000 J (counter): 2 tokens/J
 * shared (HAMI, qe-shared)     qe/share-0: 60,000 tokens; 0.3 GPU-h, 24,000 J (counter)
 *                              qe/share-1: 30,000 tokens; 0.2 GPU-h of which 0.1 measured, 6,000 J (power draw)
 *                              90,000 / 30,000 = 3 tokens/J; energy measured for (0.3 + 0.1) / 0.5 = 80 % of the hours
 * dark   (MIG, qe-dark)        qe/dark-0: 10,000 tokens; 1 GPU-h on a card never measured (0 kWh, no source): no figure
 * shared over solo: 3 / 2 = 1.5
 * </pre>
 * Each pod answered one request at 10:05, which makes it its cell's. The ledger's one read of GPU-hours by pod and
 * model, in kWh: 90,000 J 0.025, 24,000 J 0.006666667, 6,000 J 0.001666667 (0.1 of 0.2 GPU-h measured: coverage 0.5);
 * its holdings, pod queues and pod incidents have nothing of these pods.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class AcceptanceEnergyResourceTest {

    private static final Instant T0 = Instant.parse("2026-12-08T10:00:00Z");
    private static final Instant T1 = Instant.parse("2026-12-08T11:00:00Z");
    private static boolean stored;

    private static String tokens(String service, String pod, String hhmmss, long total) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"qe\",\"pod\":\"" + pod + "\",\"ts\":\"2026-12-08T"
                + hhmmss + "Z\",\"generationTokensTotal\":" + total + "}";
    }

    private static String request(String service, String pod) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"qe\",\"pod\":\"" + pod + "\",\"ts\":"
                + "\"2026-12-08T10:05:00Z\",\"ttftMs\":80,\"ok\":true}";
    }


    @BeforeEach
    void storeOnce() {
        if (stored) {
            return;
        }
        stored = true;
        LedgerStandIn.reset();
        List<String> gauges = new ArrayList<>();
        List<String> requests = new ArrayList<>();
        for (String[] pod : new String[][]{{"qe-solo", "solo-0", "180000"}, {"qe-shared", "share-0", "60000"},
                {"qe-shared", "share-1", "30000"}, {"qe-dark", "dark-0", "10000"}}) {
            gauges.add(tokens(pod[0], pod[1], "10:00:10", 1_000));
            gauges.add(tokens(pod[0], pod[1], "10:59:50", 1_000 + Long.parseLong(pod[2])));
            requests.add(request(pod[0], pod[1]));
        }
        given().contentType("application/x-ndjson").body(String.join("\n", gauges).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges").then().statusCode(200);
        given().contentType("application/x-ndjson").body(String.join("\n", requests).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        LedgerStandIn.gpuHours(get(urlPathEqualTo(LedgerStandIn.GPU_HOURS)).withQueryParam("from", equalTo(T0.toString()))
                .withQueryParam("to", equalTo(T1.toString())).withQueryParam("groupBy", equalTo("pod,model")), List.of(
                row("qe/dark-0", "1", 0, "0", null),
                row("qe/share-0", "0.3", 24_000, "1", "ENERGY_COUNTER"),
                row("qe/share-1", "0.2", 6_000, "0.5", "POWER_INTEGRAL"),
                row("qe/solo-0", "1", 90_000, "1", "ENERGY_COUNTER")));
        for (String read : List.of("/api/v1/holdings", "/api/v1/pod-queues", "/api/v1/failures/pod-incidents")) {
            LedgerStandIn.answer(post(urlPathEqualTo(read)), "[]");
        }
        // a run also reads billing's costs and alert-service's runbook: nothing priced, no runbook entry
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/costs")).withQueryParam("groupBy", equalTo("namespace")),
                "{\"from\":\"2026-12-08T10:00:00Z\",\"to\":\"2026-12-08T11:00:00Z\",\"groupBy\":\"namespace\","
                        + "\"currency\":\"USD\",\"lines\":[]}");
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/runbook")), "[]");
    }

    private static Map<String, Object> row(String pod, String allocated, long joules, String coverage, String source) {
        Map<String, String> group = new LinkedHashMap<>();
        group.put("pod", pod);
        group.put("model", "NVIDIA-H100-80GB-HBM3");
        return LedgerShapes.energyRow(group, allocated, joules, coverage, source);
    }

    private static final String PLAN = """
            {"name": "energy", "from": "2026-12-08T10:00:00Z", "to": "2026-12-08T11:00:00Z",
             "cells": [{"name": "solo", "workload": "chat", "form": "DEDICATED", "selector": {"service": "qe-solo", "namespace": "qe"}},
                       {"name": "shared", "workload": "chat", "form": "HAMI", "selector": {"service": "qe-shared", "namespace": "qe"}},
                       {"name": "dark", "workload": "chat", "form": "MIG", "selector": {"service": "qe-dark", "namespace": "qe"}}],
             "assertions": [
               {"name": "solo tokens per joule", "kind": "THRESHOLD", "metric": "TOKENS_PER_JOULE", "cell": "solo", "min": 1.5},
               {"name": "shared tokens per joule", "kind": "THRESHOLD", "metric": "TOKENS_PER_JOULE", "cell": "shared", "min": 4},
               {"name": "shared over solo", "kind": "RATIO", "metric": "TOKENS_PER_JOULE", "cell": "shared",
                "baselineCell": "solo", "minRatio": 1.2},
               {"name": "dark tokens per joule", "kind": "THRESHOLD", "metric": "TOKENS_PER_JOULE", "cell": "dark", "min": 1}]}""";

    private static Map<String, JsonPath> byName(JsonPath run) {
        Map<String, JsonPath> out = new LinkedHashMap<>();
        List<Map<String, Object>> list = run.getList("assertions");
        for (int i = 0; i < list.size(); i++) {
            out.put((String) list.get(i).get("name"), new JsonPath(run.prettify()).setRootPath("assertions[" + i + "]"));
        }
        return out;
    }

    @Test
    void tokensPerJouleIsAcceptedJudgedAndInTheEfficiencyQuadrant() {
        JsonPath run = AcceptanceRunResourceTest.submit(PLAN).jsonPath();
        Map<String, JsonPath> a = byName(run);

        JsonPath solo = a.get("solo tokens per joule");
        assertEquals(2.0, solo.getDouble("observed"), "180,000 tokens / 90,000 J");
        assertEquals("PASS", solo.getString("verdict"));
        assertEquals("tokens/J", solo.getString("unit"));
        assertEquals(">=", solo.getString("comparison"), "a floor: more tokens per joule is better");
        assertEquals("EFFICIENCY", solo.getString("quadrant"));
        assertTrue(solo.getList("evidence.requests.curl", String.class).stream()
                .anyMatch(c -> c.contains("/api/v1/gpu-hours") && c.contains("pod%2Cmodel")),
                "the run's one read of GPU-hours by pod: " + solo.getList("evidence.requests.curl"));
        assertTrue(solo.getString("evidence.curveCsv").contains("solo,qe/solo-0,180000.0,2026-12-08T10:00:10Z,"
                + "2026-12-08T10:59:50Z,90000.0,1.0,1.0,ENERGY_COUNTER,true,\n"), solo.getString("evidence.curveCsv"));

        JsonPath shared = a.get("shared tokens per joule");
        assertEquals(3.0, shared.getDouble("observed"), "(60,000 + 30,000) / (24,000 + 6,000) J");
        assertEquals("FAIL", shared.getString("verdict"));
        assertTrue(shared.getString("statement").contains("energy was measured for 80 % of the counted pods' allocated"
                + " GPU-hours"), shared.getString("statement"));

        JsonPath ratio = a.get("shared over solo");
        assertEquals(1.5, ratio.getDouble("observed"), "3 / 2");
        assertEquals("PASS", ratio.getString("verdict"));
        assertTrue(ratio.getString("statement").contains("(shared: energy was measured for 80 %"),
                ratio.getString("statement"));

        JsonPath dark = a.get("dark tokens per joule");
        assertEquals("NO_DATA", dark.getString("verdict"));
        assertNull(dark.get("observed"), "no energy is no figure, never 0 tokens/J");
        assertTrue(dark.getString("statement").contains("the ledger measured no energy for [qe/dark-0]"),
                dark.getString("statement"));

        assertEquals(2.0, run.getDouble("matrix.find { it.cell == 'solo' && it.metric == 'TOKENS_PER_JOULE' }.value"));
        assertEquals(3.0, run.getDouble("matrix.find { it.cell == 'shared' && it.metric == 'TOKENS_PER_JOULE' }.value"));
        assertNull(run.get("matrix.find { it.cell == 'dark' && it.metric == 'TOKENS_PER_JOULE' }.value"));
        assertEquals("EFFICIENCY", run.getString("matrix.find { it.metric == 'TOKENS_PER_JOULE' }.quadrant"));
        assertEquals("deliverability", run.getString("matrix.find { it.metric == 'TOKENS_PER_JOULE' }.benchmarkClass"));
        assertEquals("tokens/J", run.getString("matrix.find { it.metric == 'TOKENS_PER_JOULE' }.unit"));
    }

    @Test
    void thePackDefinesTokensPerJouleUnderEfficiency() throws Exception {
        String location = AcceptanceRunResourceTest.submit(PLAN).header("Location");
        String path = location.substring(location.indexOf(AcceptanceRunResourceTest.RUNS));
        Map<String, byte[]> files = AcceptanceRunResourceTest.unzip(given().get(path + "/pack").then().statusCode(200)
                .extract().asByteArray());
        String prefix = "acceptance-run-" + path.substring(path.lastIndexOf('/') + 1) + "/";
        String readme = new String(files.get(prefix + "README.md"), StandardCharsets.UTF_8);
        int efficiency = readme.indexOf("### Efficiency");
        int definition = readme.indexOf("| TOKENS_PER_JOULE | tokens/J | generated tokens of the cell's pods over the"
                + " energy of their GPU units");
        assertTrue(efficiency > 0 && definition > efficiency && definition < readme.indexOf("### Governance"), readme);
        String matrix = new String(files.get(prefix + "matrix.csv"), StandardCharsets.UTF_8);
        assertTrue(matrix.contains("\nEFFICIENCY,deliverability,chat,DEDICATED,solo,TOKENS_PER_JOULE,2,tokens/J\n"),
                matrix);
        String md = given().queryParam("format", "markdown").get(path + "/verdict").then().statusCode(200).extract()
                .asString();
        assertTrue(md.indexOf("| shared tokens per joule |") > md.indexOf("## Efficiency"), md);
    }
}
