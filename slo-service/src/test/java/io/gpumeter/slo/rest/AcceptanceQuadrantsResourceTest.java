package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The figures of the four quadrants through {@code POST /api/v1/acceptance/runs}, for namespace "qa" (no other test
 * stores it) over 2026-10-05 10:00-11:00, every figure worked out by hand:
 * <pre>
 * steady (DEDICATED, service q-steady; SLO q-steady-ttft: TTFT p99 per minute under 300 ms)
 *   qa/steady-0  created 09:00 (before the window); 10 requests a minute 10:00-10:59, TTFT 100 ms, except 700 ms in
 *                10:30, 10:31, 10:32 and 10:45
 *   qa/steady-1  created 10:10:20; two failed requests at 10:11:30; from 10:12:05 on, 5 requests a minute at 100 ms
 *   cold start   steady-1 only: its first successful minute is 10:12, up by 10:13:00, 10:13:00 - 10:10:20 = 160 s
 *   p99 spread   per-minute p99s are 700 ms (10 of the 15 requests of 10:30-10:32 and 10:45) or 100 ms: 600 ms
 *   jitter       over 2 x 300 = 600 ms in 10:30-10:32 and 10:45: two events in one hour, 2 per hour
 *   MTTR         steady-0 oom 10:20:00 -> 10:21:30 (90 s), steady-1 crash 10:40:00 -> 10:45:00 (300 s), steady-0 oom
 *                since 10:50 not recovered, steady-0 oom 09:50 -> 10:05 before the window: (90 + 300) / 2 = 195 s
 * bare (HAMI, service q-bare, no SLO)
 *   qa/bare-0    created 08:00; one minute, 10:05, of 10 requests at 150 ms; no incident
 *   so no cold start (created before), no spread (one minute), no jitter figure (no SLO judges it), no MTTR
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class AcceptanceQuadrantsResourceTest {

    private static final Instant T0 = Instant.parse("2026-10-05T10:00:00Z");
    private static boolean stored;

    private static Instant at(String hhmmss) {
        return Instant.parse("2026-10-05T" + hhmmss + "Z");
    }

    /** An incident of a pod as the ledger's pod incidents read answers it; open while it has not recovered. */
    private static String incident(String id, String pod, String cause, String started, String recovered) {
        return "{\"id\":\"" + id + "\",\"cluster\":\"c1\",\"cause\":\"" + cause + "\","
                + "\"rootCauseClass\":\"workload\",\"scope\":\"pod\",\"namespace\":\"qa\",\"pod\":\"" + pod + "\","
                + "\"startedAt\":\"" + at(started) + "\",\"recoveredAt\":"
                + (recovered == null ? "null" : "\"" + at(recovered) + "\"") + ",\"endedAt\":null,"
                + "\"open\":" + (recovered == null) + ",\"occurrences\":1,\"changesBefore\":[]}";
    }

    private static String line(String service, String pod, Instant ts, double ttftMs, boolean ok) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"qa\",\"pod\":\"" + pod + "\",\"ts\":\"" + ts + "\""
                + (ok ? ",\"ttftMs\":" + ttftMs : "") + ",\"ok\":" + ok + "}";
    }

    @BeforeEach
    void storeOnce() {
        if (stored) {
            return;
        }
        stored = true;
        LedgerStandIn.reset();
        // each cell's pods as the ledger's pod queues read answers them: no queue, created when the table says
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/pod-queues"))
                .withRequestBody(matchingJsonPath("$.pods[?(@.pod == 'steady-0')]")), "pod-queues", """
                [{"namespace": "qa", "pod": "steady-0", "known": true, "queue": null,
                  "createdAt": "2026-10-05T09:00:00Z"},
                 {"namespace": "qa", "pod": "steady-1", "known": true, "queue": null,
                  "createdAt": "2026-10-05T10:10:20Z"}]""");
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/pod-queues"))
                .withRequestBody(matchingJsonPath("$.pods[?(@.pod == 'bare-0')]")), "pod-queues", """
                [{"namespace": "qa", "pod": "bare-0", "known": true, "queue": null,
                  "createdAt": "2026-10-05T08:00:00Z"}]""");
        // the steady pods' incidents that started in the run's hour, oldest first: steady-0's oom of 09:50 did not
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/failures/pod-incidents"))
                .withRequestBody(matchingJsonPath("$.pods[?(@.pod == 'steady-0')]")), "pod-incidents",
                "[" + incident("i-oom", "steady-0", "oom", "10:20:00", "10:21:30") + ","
                        + incident("i-crash", "steady-1", "crash-loop", "10:40:00", "10:45:00") + ","
                        + incident("i-open", "steady-0", "oom", "10:50:00", null) + "]");
        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 60; m++) {
            boolean slow = m >= 30 && m <= 32 || m == 45;
            for (int i = 0; i < 10; i++) {
                lines.add(line("q-steady", "steady-0", T0.plusSeconds(60L * m + i + 1), slow ? 700 : 100, true));
            }
            if (m >= 12) {
                for (int i = 0; i < 5; i++) {
                    lines.add(line("q-steady", "steady-1", T0.plusSeconds(60L * m + 5 + i), 100, true));
                }
            }
        }
        lines.add(line("q-steady", "steady-1", at("10:11:30"), 0, false));
        lines.add(line("q-steady", "steady-1", at("10:11:31"), 0, false));
        for (int i = 0; i < 10; i++) {
            lines.add(line("q-bare", "bare-0", at("10:05:00").plusSeconds(i + 1), 150, true));
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        given().contentType(ContentType.JSON).body("""
                {"name":"q-steady-ttft","selector":{"service":"q-steady","namespace":"qa"},"sli":"TTFT",
                 "objective":{"percentile":99,"thresholdMs":300,"per":"MINUTE"},"target":0.99,"window":"P30D"}""")
                .post("/api/v1/slos").then().statusCode(201);
        given().queryParam("from", "2026-10-05T10:00:00Z").queryParam("to", "2026-10-05T11:00:00Z")
                .post("/api/v1/jitter-events/detections").then().statusCode(200);
    }

    private static final String PLAN = """
            {"name": "quadrants", "from": "2026-10-05T10:00:00Z", "to": "2026-10-05T11:00:00Z",
             "cells": [{"name": "steady", "workload": "chat", "form": "DEDICATED", "selector": {"service": "q-steady", "namespace": "qa"}},
                       {"name": "bare", "workload": "chat", "form": "HAMI", "selector": {"service": "q-bare", "namespace": "qa"}}],
             "assertions": [
               {"name": "steady wait", "kind": "THRESHOLD", "metric": "QUEUE_WAIT_P95", "cell": "steady", "max": 60},
               {"name": "steady cold start", "kind": "THRESHOLD", "metric": "COLD_START", "cell": "steady", "max": 180},
               {"name": "steady p99 spread", "kind": "THRESHOLD", "metric": "P99_SPREAD", "sli": "TTFT", "cell": "steady", "maxMs": 500},
               {"name": "steady jitter events", "kind": "THRESHOLD", "metric": "JITTER_EVENT_RATE", "cell": "steady", "max": 1},
               {"name": "steady MTTR", "kind": "THRESHOLD", "metric": "MTTR", "cell": "steady", "max": 300},
               {"name": "steady used", "kind": "THRESHOLD", "metric": "USED_ALLOCATED", "cell": "steady", "min": 0.5},
               {"name": "bare cold start", "kind": "THRESHOLD", "metric": "COLD_START", "cell": "bare", "max": 180},
               {"name": "bare p99 spread", "kind": "THRESHOLD", "metric": "P99_SPREAD", "sli": "TTFT", "cell": "bare", "maxMs": 500},
               {"name": "bare jitter events", "kind": "THRESHOLD", "metric": "JITTER_EVENT_RATE", "cell": "bare", "max": 1},
               {"name": "bare MTTR", "kind": "THRESHOLD", "metric": "MTTR", "cell": "bare", "max": 300},
               {"name": "bare over steady cold start", "kind": "RATIO", "metric": "COLD_START", "cell": "bare",
                "baselineCell": "steady", "maxRatio": 1.5}]}""";

    private static Map<String, JsonPath> byName(JsonPath run) {
        Map<String, JsonPath> out = new LinkedHashMap<>();
        List<Map<String, Object>> list = run.getList("assertions");
        for (int i = 0; i < list.size(); i++) {
            out.put((String) list.get(i).get("name"), new JsonPath(run.prettify()).setRootPath("assertions[" + i + "]"));
        }
        return out;
    }

    @Test
    void eachNewFigureIsComputedFromWhatTheSuiteStoredAndJudged() {
        JsonPath run = AcceptanceRunResourceTest.submit(PLAN).jsonPath();
        Map<String, JsonPath> a = byName(run);

        JsonPath cold = a.get("steady cold start");
        assertEquals(160.0, cold.getDouble("observed"), "10:10:20 to the end of 10:12");
        assertEquals("PASS", cold.getString("verdict"));
        assertEquals("s", cold.getString("unit"));
        assertTrue(cold.getString("evidence.curveCsv").contains("steady,qa/steady-1,2026-10-05T10:10:20Z,"
                + "2026-10-05T10:12:00Z,160.0\n"), cold.getString("evidence.curveCsv"));
        assertTrue(cold.getString("evidence.curveCsv").contains("steady,qa/steady-0,2026-10-05T09:00:00Z,"
                + "2026-10-05T10:00:00Z,\n"), "created before the window: listed, not counted");
        assertTrue(cold.getList("evidence.requests.curl", String.class).stream()
                .anyMatch(c -> c.contains("/api/v1/pod-queues")), "the read that said when each pod was created");

        JsonPath spread = a.get("steady p99 spread");
        assertEquals(600, spread.getDouble("observed"), 600 * 0.002, "700 - 100, within HdrHistogram's precision");
        assertEquals("FAIL", spread.getString("verdict"));
        assertEquals("ms", spread.getString("unit"));

        JsonPath jitter = a.get("steady jitter events");
        assertEquals(2.0, jitter.getDouble("observed"), "10:30-10:33 and 10:45-10:46 in one hour");
        assertEquals("FAIL", jitter.getString("verdict"));
        assertEquals("events/h", jitter.getString("unit"));
        assertEquals(3, jitter.getString("evidence.curveCsv").lines().count(), "a header and the two events");
        assertTrue(jitter.getList("evidence.requests.curl", String.class).stream()
                .anyMatch(c -> c.contains("/api/v1/jitter-events?service=q-steady&namespace=qa")));

        JsonPath mttr = a.get("steady MTTR");
        assertEquals(195.0, mttr.getDouble("observed"), "(90 + 300) / 2");
        assertEquals("PASS", mttr.getString("verdict"));
        assertTrue(mttr.getList("evidence.requests.curl", String.class).stream()
                .anyMatch(c -> c.contains("/api/v1/failures/pod-incidents")), "the read of the pods' incidents");
        assertTrue(mttr.getString("evidence.curveCsv").contains("steady,i-open,qa,steady-0,oom,workload,"
                + "2026-10-05T10:50:00Z,,,\n"), "the open one is listed, in no mean");

        for (String name : List.of("bare cold start", "bare p99 spread", "bare jitter events", "bare MTTR",
                "bare over steady cold start")) {
            assertEquals("NO_DATA", a.get(name).getString("verdict"), name);
            assertNull(a.get(name).get("observed"), name);
        }
        assertTrue(a.get("bare jitter events").getString("statement").contains("no latency SLO selects the cell's"
                + " services [qa/q-bare]"), a.get("bare jitter events").getString("statement"));
        assertTrue(a.get("bare MTTR").getString("statement").contains("no incident of the cell's pods started in the"
                + " window"), a.get("bare MTTR").getString("statement"));
        assertTrue(a.get("bare cold start").getString("statement").contains("no pod of the cell was created in the"
                + " window"), a.get("bare cold start").getString("statement"));

        // each clause carries its quadrant; the matrix its new columns, each in its quadrant and benchmark class
        assertEquals(List.of("GOVERNANCE", "PERFORMANCE", "STABILITY", "STABILITY", "STABILITY", "EFFICIENCY",
                "PERFORMANCE", "STABILITY", "STABILITY", "STABILITY", "PERFORMANCE"), run.getList("assertions.quadrant"));
        assertEquals(160.0, run.getDouble("matrix.find { it.cell == 'steady' && it.metric == 'COLD_START' }.value"));
        assertEquals("PERFORMANCE", run.getString("matrix.find { it.metric == 'COLD_START' }.quadrant"));
        assertEquals("deliverability", run.getString("matrix.find { it.metric == 'COLD_START' }.benchmarkClass"));
        assertEquals(195.0, run.getDouble("matrix.find { it.cell == 'steady' && it.metric == 'MTTR' }.value"));
        assertEquals(2.0, run.getDouble("matrix.find { it.cell == 'steady' && it.metric == 'JITTER_EVENT_RATE' }.value"));
        assertEquals("peak", run.getString("matrix.find { it.cell == 'steady' && it.metric == 'TTFT_P99_SPREAD' }"
                + ".benchmarkClass"));
        assertEquals("shareability", run.getString("matrix.find { it.cell == 'bare' && it.metric == 'TTFT_P99_SPREAD' }"
                + ".benchmarkClass"));
        assertEquals("STABILITY", run.getString("matrix.find { it.metric == 'TTFT_P99_SPREAD' }.quadrant"));
        assertEquals("EFFICIENCY", run.getString("matrix.find { it.metric == 'IDLE_COST' }.quadrant"));
        assertEquals("GOVERNANCE", run.getString("matrix.find { it.metric == 'QUEUE_WAIT_P50' }.quadrant"));
        assertTrue(run.getList("matrix.quadrant").stream().allMatch(q -> q != null), "every figure has its quadrant");
    }

    @Test
    void theVerdictsShowFourSectionsAndThePackStaysTheSameBytes() throws Exception {
        String location = AcceptanceRunResourceTest.submit(PLAN).header("Location");
        String path = location.substring(location.indexOf(AcceptanceRunResourceTest.RUNS));
        String md = given().queryParam("format", "markdown").get(path + "/verdict").then().statusCode(200)
                .extract().asString();
        List<String> headings = md.lines().filter(l -> l.startsWith("## ")).toList();
        // performance: the steady cell's cold start passed, the bare cell's had no data
        assertEquals(List.of("## Performance — NO\\_DATA", "## Stability — FAIL", "## Efficiency — NO\\_DATA",
                "## Governance — NO\\_DATA", "## Commitments", "## Risks", "## Recommended actions"), headings);
        int stability = md.indexOf("## Stability");
        int efficiency = md.indexOf("## Efficiency");
        assertTrue(md.indexOf("| steady MTTR |") > stability && md.indexOf("| steady MTTR |") < efficiency, md);
        assertTrue(md.indexOf("| steady cold start |") < stability, md);
        assertTrue(md.indexOf("| steady wait |") > md.indexOf("## Governance"), md);
        String html = given().get(path + "/verdict").then().statusCode(200).extract().asString();
        assertTrue(html.indexOf("id=\"stability\"") < html.indexOf(">steady MTTR<")
                && html.indexOf(">steady MTTR<") < html.indexOf("id=\"efficiency\""), html);

        byte[] pack = given().get(path + "/pack").then().statusCode(200).extract().asByteArray();
        assertArrayEquals(pack, given().get(path + "/pack").then().statusCode(200).extract().asByteArray(),
                "the same run packs to the same bytes");
        Map<String, byte[]> files = AcceptanceRunResourceTest.unzip(pack);
        String prefix = "acceptance-run-" + path.substring(path.lastIndexOf('/') + 1) + "/";
        String readme = new String(files.get(prefix + "README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("### Stability") && readme.contains("| MTTR | s | the mean time to recover"), readme);
        assertTrue(readme.indexOf("| COLD_START | s |") < readme.indexOf("### Stability"), readme);
        String matrix = new String(files.get(prefix + "matrix.csv"), StandardCharsets.UTF_8);
        assertTrue(matrix.startsWith("quadrant,class,workload,form,cell,metric,value,unit\n"), matrix);
        assertTrue(matrix.contains("\nSTABILITY,deliverability,chat,DEDICATED,steady,MTTR,195,s\n"), matrix);
        assertTrue(new String(files.get(prefix + "SHA256SUMS"), StandardCharsets.UTF_8).contains("  README.md\n"));
    }
}
