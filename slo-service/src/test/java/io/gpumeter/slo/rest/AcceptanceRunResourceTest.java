package io.gpumeter.slo.rest;

import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A control group of one chat template, 2026-11-02 10:00-10:20, 10 requests a minute per cell, every request ok:
 * <ul>
 * <li>dedicated (service chat-dedicated, ml/chat-ded-0 alone on GPU-D): every TTFT 100 ms;</li>
 * <li>hami-2 (chat-hami2, ml/chat-h2-0 on GPU-H, a HAMi grant of half the card): every TTFT 140 ms;</li>
 * <li>hami-4 (chat-hami4, ml/chat-h4-0 on GPU-Q, a quarter): every TTFT 200 ms;</li>
 * <li>mig (chat-mig): nothing recorded.</li>
 * </ul>
 * So p99s are 100, 140 and 200 ms (within HdrHistogram's 0.1%), hami-2 over dedicated 1.4 and hami-4 over dedicated
 * 2.0; throughput 10/60 = 0.1667 requests/s; failure rate 0. The ledger says chat-ded-0 went through ClusterQueue
 * cq-chat (p95 wait 12 s) and, at 10:05, team-x/overquota-0 waits in Kueue for quota.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class AcceptanceRunResourceTest {

    static final String RUNS = "/api/v1/acceptance/runs";
    private static final Instant T0 = Instant.parse("2026-11-02T10:00:00Z");
    private static final String CELLS = """
            [{"name": "dedicated", "workload": "vllm-chat", "form": "DEDICATED", "selector": {"service": "chat-dedicated"}},
             {"name": "hami-2", "workload": "vllm-chat", "form": "HAMI", "selector": {"service": "chat-hami2"}},
             {"name": "hami-4", "workload": "vllm-chat", "form": "HAMI", "selector": {"service": "chat-hami4"}},
             {"name": "mig", "workload": "vllm-chat", "form": "MIG", "selector": {"service": "chat-mig"}}]""";
    private static final String MESSAGE = "couldn't assign flavors to pod set main: insufficient unused quota for"
            + " nvidia.com/gpu in flavor h100, 4 more needed";

    private static boolean stored;
    /** alert-service's runbook and the ledger's pending pods, as the stand-in answers them: tests take them away. */
    private static StubMapping runbook;
    private static StubMapping pending;

    static final String RUNBOOK = """
            [{"alertname": "InferenceLatencyP99High", "severity": "warning", "meaning": "slow",
              "actions": [{"action": "trace-snapshot", "mode": "dry-run", "undoOnResolve": false}],
              "manual": ["Rank neighbours that arrived just before", "Rule out CPU and network"],
              "who": "the inference service's SRE"},
             {"alertname": "GpuAllocationIdle", "severity": "warning", "meaning": "idle", "actions": [],
              "manual": ["Ask the owner to release the GPU"], "who": "tenant's team lead"}]""";

    @BeforeEach
    void storeTheExperimentOnce() {
        if (stored) {
            return;
        }
        stored = true;
        LedgerStandIn.reset();
        // The fleet over the window, for the commitments' margins: 1 failure in 1,000 card-hours repaired in 10 h
        // (1% of cards down) and maintenance cordons over 20 of them (2%): 0.03; 1 GPU pending at the busiest hour
        // beside 1 GPU-hour in the window's 20 minutes (3 cards of demand): 1 / (3 + 1) = 0.25.
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/capacity/supply")), "supply", """
                {"from":"2026-11-02T10:00:00Z","to":"2026-11-02T10:20:00Z","timeZone":"UTC","models":[
                 {"model":"NVIDIA H100 80GB HBM3","days":[{"day":"2026-11-02","cardHours":1000}],
                  "failures":{"incidents":1,"repaired":1,"mttrSeconds":36000,"perCardHour":0.001,"runbookCordons":0},
                  "maintenance":{"cordons":1,"cardHours":20,"share":0.02}}]}""");
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/demand")), "demand", """
                {"from":"2026-11-02T10:00:00Z","to":"2026-11-02T10:20:00Z","timeZone":"UTC",
                 "shapes":[{"model":"NVIDIA H100 80GB HBM3","workloadClass":"inference","shape":"whole","kind":"WHOLE",
                            "pods":3,"days":[{"day":"2026-11-02","gpuHours":1}]}],
                 "peaks":[{"model":"NVIDIA H100 80GB HBM3","pending":{"meanGpusAtBusiestHour":1,"busiestHourOfDay":10}}]}""");
        Instant nine = Instant.parse("2026-11-02T09:00:00Z");
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("ml", "chat-ded-0", "GPU-D", "n7", "Deployment", "chat-ded", "acme", nine),
                new LedgerStandIn.Unit("ml", "chat-h2-0", "GPU-H", "n7", "Deployment", "chat-h2", "acme", nine,
                        "VGPU", "0.5", 50, 40960L),
                new LedgerStandIn.Unit("ml", "chat-h4-0", "GPU-Q", "n8", "Deployment", "chat-h4", "acme", nine,
                        "VGPU", "0.25", 25, 20480L)));
        // the dedicated cell's pod went through Kueue's cq-chat
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/pod-queues"))
                .withRequestBody(matchingJsonPath("$.pods[?(@.pod == 'chat-ded-0')]")), "pod-queues", """
                [{"namespace": "ml", "pod": "chat-ded-0", "known": true,
                  "queue": {"clusterQueue": "cq-chat", "localQueue": "chat", "volcanoQueue": null}, "createdAt": null}]""");
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/queue-wait")).withQueryParam("groupBy", equalTo("clusterQueue")),
                """
                [{"key": "cq-chat", "count": 3, "p50Seconds": 4, "p95Seconds": 12, "p99Seconds": 12, "maxSeconds": 12}]""");
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/gpu-hours")).withQueryParam("groupBy", equalTo("pod,model")),
                "gpu-hours", """
                [{"key": "ml/chat-ded-0/H100", "group": {"pod": "ml/chat-ded-0", "model": "H100"},
                  "allocatedGpuHours": 0.333333, "usedGpuHours": 0.25},
                 {"key": "ml/chat-h2-0/H100", "group": {"pod": "ml/chat-h2-0", "model": "H100"},
                  "allocatedGpuHours": 0.166667, "usedGpuHours": 0.05},
                 {"key": "other/busy-0/H100", "group": {"pod": "other/busy-0", "model": "H100"},
                  "allocatedGpuHours": 1, "usedGpuHours": 1}]""");
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/costs")).withQueryParam("groupBy", equalTo("namespace")), """
                {"from": "2026-11-02T10:00:00Z", "to": "2026-11-02T10:20:00Z", "groupBy": "namespace", "currency": "USD",
                 "lines": [{"group": "ml", "gpuModel": "A100", "currency": "USD", "rate": 3, "allocatedGpuHours": 1,
                            "usedGpuHours": 1, "allocatedCost": 3, "usedCost": 3, "idleCost": 0},
                           {"group": "ml", "gpuModel": "H100", "currency": "USD", "rate": 4.1, "allocatedGpuHours": 0.5,
                            "usedGpuHours": 0.3, "allocatedCost": 2.05, "usedCost": 1.23, "idleCost": 0.82}]}""");
        runbook = LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/runbook")), RUNBOOK);
        pending = LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/queue-wait/pending")), "queue-wait-pending", """
                [{"cluster": "c1", "source": "KUEUE", "namespace": "team-x", "name": "overquota-0",
                  "clusterQueue": "cq-x", "localQueue": "x", "state": "PENDING", "waitingSince": "2026-11-02T10:01:00Z",
                  "ageSeconds": 240, "reasonClass": "QUOTA", "rootCauseClass": "CONTROL_PLANE", "reason": "Pending",
                  "message": "%s", "rejections": 0}]""".formatted(MESSAGE));
        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            for (int i = 0; i < 10; i++) {
                Instant ts = T0.plusSeconds(60L * m + i + 1);
                lines.add(line("chat-dedicated", "chat-ded-0", ts, 100));
                lines.add(line("chat-hami2", "chat-h2-0", ts, 140));
                lines.add(line("chat-hami4", "chat-h4-0", ts, 200));
            }
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
    }

    private static String line(String service, String pod, Instant ts, double ttftMs) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"ml\",\"pod\":\"" + pod + "\",\"ts\":\"" + ts
                + "\",\"ttftMs\":" + ttftMs + ",\"ok\":true}";
    }

    static String plan(String name, String assertions) {
        return "{\"name\": \"" + name + "\", \"from\": \"2026-11-02T10:00:00Z\", \"to\": \"2026-11-02T10:20:00Z\","
                + " \"cells\": " + CELLS + ", \"assertions\": " + assertions + "}";
    }

    static Response submit(String plan) {
        return given().contentType(ContentType.JSON).body(plan).post(RUNS).then().statusCode(201)
                .header("Location", matchesPattern(".*/api/v1/acceptance/runs/\\d+$")).extract().response();
    }

    private static Map<String, JsonPath> byName(JsonPath run) {
        Map<String, JsonPath> out = new LinkedHashMap<>();
        List<Map<String, Object>> list = run.getList("assertions");
        for (int i = 0; i < list.size(); i++) {
            out.put((String) list.get(i).get("name"), new JsonPath(run.prettify()).setRootPath("assertions[" + i + "]"));
        }
        return out;
    }

    private static void near(double expected, double actual, String what) {
        assertEquals(expected, actual, expected * 0.002, what);
    }

    @Test
    void eachClauseIsJudgedAgainstTheFiguresOfItsCells() {
        JsonPath run = submit(plan("chat control group", """
                [{"name": "hami-2 p99 within 1.5x", "kind": "RATIO", "metric": "P99", "sli": "TTFT", "cell": "hami-2",
                  "baselineCell": "dedicated", "maxRatio": 1.5},
                 {"name": "hami-4 p99 within 1.5x", "kind": "RATIO", "metric": "P99", "sli": "TTFT", "cell": "hami-4",
                  "baselineCell": "dedicated", "maxRatio": 1.5},
                 {"name": "mig TTFT p99 under 300 ms", "kind": "THRESHOLD", "metric": "P99", "sli": "TTFT", "cell": "mig",
                  "maxMs": 300},
                 {"name": "dedicated TTFT p99 under 300 ms", "kind": "THRESHOLD", "metric": "P99", "sli": "TTFT",
                  "cell": "dedicated", "maxMs": 300},
                 {"name": "dedicated throughput", "kind": "THRESHOLD", "metric": "THROUGHPUT", "cell": "dedicated", "min": 0.1},
                 {"name": "no failures", "kind": "THRESHOLD", "metric": "FAILURE_RATE", "cell": "dedicated", "max": 0.01},
                 {"name": "queue wait p95", "kind": "THRESHOLD", "metric": "QUEUE_WAIT_P95", "cell": "dedicated", "max": 30},
                 {"name": "used over allocated", "kind": "THRESHOLD", "metric": "USED_ALLOCATED", "cell": "dedicated", "min": 0.5},
                 {"name": "idle cost", "kind": "THRESHOLD", "metric": "IDLE_COST", "cell": "dedicated", "max": 0.5},
                 {"name": "over-quota request blocked", "kind": "BLOCKED", "namespace": "team-x", "pod": "overquota-0",
                  "within": "PT5M"},
                 {"name": "admitted pod is not blocked", "kind": "BLOCKED", "namespace": "ml", "pod": "chat-ded-0",
                  "within": "PT5M"}]""")).jsonPath();
        assertEquals("FAIL", run.getString("verdict"), "one ratio fails, so the run fails");
        assertEquals(8, run.getInt("passed"));
        assertEquals(2, run.getInt("failed"));
        assertEquals(1, run.getInt("noData"));
        Map<String, JsonPath> a = byName(run);

        JsonPath h2 = a.get("hami-2 p99 within 1.5x");
        assertEquals("PASS", h2.getString("verdict"));
        near(1.4, h2.getDouble("observed"), "140 / 100");
        assertEquals(1.5, h2.getDouble("limit"));
        assertTrue(h2.getList("evidence.requests.curl", String.class).stream().anyMatch(c -> c.contains("/api/v1/holdings")),
                "the holdings read is kept as a curl line");
        assertEquals(List.of("chat-h2-0", "chat-ded-0"), h2.getList("evidence.pods.pod"));
        assertEquals("VGPU", h2.getString("evidence.pods[0].unitKind"));
        assertEquals(50, h2.getInt("evidence.pods[0].cores"));
        String csv = h2.getString("evidence.curveCsv");
        assertEquals(1 + 20 + 20, csv.split("\n").length, "a header and 20 minutes of each cell");
        assertTrue(csv.startsWith("cell,minute,requests,p50_ms,p95_ms,p99_ms,max_ms\nhami-2,2026-11-02T10:00:00Z,10,"));

        JsonPath h4 = a.get("hami-4 p99 within 1.5x");
        assertEquals("FAIL", h4.getString("verdict"));
        near(2.0, h4.getDouble("observed"), "200 / 100");

        JsonPath mig = a.get("mig TTFT p99 under 300 ms");
        assertEquals("NO_DATA", mig.getString("verdict"), "never PASS without data");
        assertNull(mig.get("observed"));

        near(100, a.get("dedicated TTFT p99 under 300 ms").getDouble("observed"), "dedicated p99");
        assertEquals("PASS", a.get("dedicated TTFT p99 under 300 ms").getString("verdict"));
        near(10 / 60.0, a.get("dedicated throughput").getDouble("observed"), "10 requests a minute");
        assertEquals("PASS", a.get("dedicated throughput").getString("verdict"));
        assertEquals(0.0, a.get("no failures").getDouble("observed"));
        assertEquals("PASS", a.get("no failures").getString("verdict"));
        assertEquals(12.0, a.get("queue wait p95").getDouble("observed"));
        assertEquals(0.75, a.get("used over allocated").getDouble("observed"), "0.25 of 0.333333 GPU-hours, 4 places");
        // its own pod's hours at billing's price for ml: (0.333333 - 0.25) x 4.10 = 0.3416653
        assertEquals(0.3417, a.get("idle cost").getDouble("observed"));
        assertEquals("PASS", a.get("idle cost").getString("verdict"));
        assertEquals("USD", a.get("idle cost").getString("unit"), "in billing's currency");
        assertTrue(a.get("idle cost").getList("evidence.requests.curl", String.class).stream()
                .anyMatch(c -> c.contains("/api/v1/costs?from=2026-11-02T10%3A00%3A00Z&to=2026-11-02T10%3A20%3A00Z"
                        + "&groupBy=namespace")), "billing's read is kept as a curl line");

        JsonPath blocked = a.get("over-quota request blocked");
        assertEquals("PASS", blocked.getString("verdict"));
        assertEquals(240.0, blocked.getDouble("observed"), "waiting since 10:01, checked at 10:05");
        assertTrue(blocked.getList("evidence.quotes", String.class).contains("message: " + MESSAGE));
        assertTrue(blocked.getString("evidence.requests[0].curl").contains("/api/v1/queue-wait/pending?at=2026-11-02T10%3A05%3A00Z"));
        assertEquals("FAIL", a.get("admitted pod is not blocked").getString("verdict"));

        // the matrix keeps the classes apart; commitments divide by the GPUs held (a half card for hami-2)
        // TTFT p50 and p99, requests/s, tokens/s, the p99's spread and jitter events per hour
        assertEquals(List.of("TTFT_P50", "TTFT_P99", "THROUGHPUT", "TOKENS_PER_S", "TTFT_P99_SPREAD", "JITTER_EVENT_RATE"),
                run.getList("matrix.findAll { it.cell == 'dedicated' && it.benchmarkClass == 'peak' }.metric"));
        near(1.4, run.getDouble("matrix.find { it.cell == 'hami-2' && it.metric == 'INTERFERENCE_FACTOR' }.value"), "IF");
        near(10 / 60.0 / 0.5, run.getDouble("commitments.find { it.cell == 'hami-2' }.throughputPerGpu"), "per GPU");
        near(10 / 60.0 * (1 - 0.03 - 0.25), run.getDouble("commitments.find { it.cell == 'dedicated' }.committedPerGpu"),
                "less the fleet's failures (0.03) and peaks (0.25); no jitter: every TTFT 100 ms, no spread");
        assertEquals(0, run.getDouble("commitments.find { it.cell == 'dedicated' }.jitterMargin"), 0.002, "jitter");
        near(0.03, run.getDouble("commitments.find { it.cell == 'dedicated' }.failureMargin"), "failures");
        near(0.25, run.getDouble("commitments.find { it.cell == 'dedicated' }.peakMargin"), "peaks");
        // hami-2's p99 is 1.4 times dedicated's: it needs 1.4x the calm capacity, a jitter margin of 1 - 1/1.4
        assertEquals(1 - 1 / 1.4, run.getDouble("commitments.find { it.cell == 'hami-2' }.jitterMargin"), 0.002,
                "hami-2 jitter");
        assertEquals("throttle", run.getString("commitments.find { it.cell == 'hami-2' }.policy"));
        assertEquals(18.0, run.getDouble("commitments.find { it.cell == 'dedicated' }.queueWaitCeilingSeconds"));
        assertTrue(run.getList("risks", String.class).stream().anyMatch(r -> r.contains("hami-4 p99 within 1.5x")));
        // each cell's own pods: hami-2's 0.05 of 0.166667 GPU-hours, never its namespace's other pods
        assertEquals(0.3, run.getDouble("matrix.find { it.cell == 'hami-2' && it.metric == 'USED_ALLOCATED' }.value"));
        // 0.333333 x 4.10 = 1.3666653, 0.25 x 4.10 = 1.025, in billing's currency
        assertEquals(1.3667, run.getDouble("matrix.find { it.cell == 'dedicated' && it.metric == 'ALLOCATED_COST' }.value"));
        assertEquals(1.025, run.getDouble("matrix.find { it.cell == 'dedicated' && it.metric == 'USED_COST' }.value"));
        assertEquals("USD", run.getString("matrix.find { it.cell == 'dedicated' && it.metric == 'IDLE_COST' }.unit"));
        assertEquals("deliverability", run.getString("matrix.find { it.metric == 'IDLE_COST' }.benchmarkClass"));
        assertNull(run.get("matrix.find { it.cell == 'mig' && it.metric == 'ALLOCATED_COST' }.value"), "no pods, no cost");
        // the ratio that fails is answered from the runbook, and the read is kept
        assertTrue(run.getList("actions", String.class).contains("InferenceLatencyP99High (runbook; the inference"
                + " service's SRE): Rank neighbours that arrived just before; Rule out CPU and network — automatic:"
                + " trace-snapshot (dry-run)"), run.getList("actions").toString());
        assertTrue(run.getString("actionSources[0].curl").endsWith("/api/v1/runbook?format=json'"));
    }

    /**
     * Without a DEDICATED cell of its workload, a cell's interference factor is its service's own (slo-service's
     * interference report): ml/solo-0 alone on GPU-S at 100 ms until 10:10, then with research/nb-0 on the card at
     * 150 ms, so the one-neighbour bucket's p99 over the dedicated bucket's is 1.5.
     */
    @Test
    void withoutADedicatedCellTheInterferenceFactorIsTheServicesOwn() {
        Instant ten = Instant.parse("2026-11-02T10:10:00Z");
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("ml", "solo-0", "GPU-S", "n9", "Deployment", "solo", "acme",
                        Instant.parse("2026-11-02T09:00:00Z")),
                new LedgerStandIn.Unit("research", "nb-0", "GPU-S", "n9", "Job", "nb", "beta", ten).arrivingInTheWindow()));
        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            for (int i = 0; i < 10; i++) {
                Instant ts = T0.plusSeconds(60L * m + i + 1);
                lines.add(line("solo", "solo-0", ts, ts.isBefore(ten) ? 100 : 150));
            }
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        JsonPath run = submit("{\"name\": \"own factor\", \"from\": \"2026-11-02T10:00:00Z\", \"to\":"
                + " \"2026-11-02T10:20:00Z\", \"cells\": [{\"name\": \"solo\", \"workload\": \"solo\", \"form\": \"HAMI\","
                + " \"selector\": {\"service\": \"solo\"}}], \"assertions\": [{\"name\": \"IF\", \"kind\": \"THRESHOLD\","
                + " \"metric\": \"INTERFERENCE_FACTOR\", \"cell\": \"solo\", \"max\": 1.2}]}").jsonPath();
        near(1.5, run.getDouble("assertions[0].observed"), "150 / 100");
        assertEquals("FAIL", run.getString("assertions[0].verdict"));
        assertTrue(run.getList("assertions[0].evidence.requests.curl", String.class).stream()
                .anyMatch(c -> c.contains("/api/v1/interference?service=solo&namespace=ml&sli=TTFT")), run.prettify());
        // the cell named its service alone; the one namespace that reported it is the one read
        assertEquals("ml", run.getString("cells[0].namespace"));
    }

    /**
     * chat-ded-0's vLLM counts its generated tokens: read at 30 s past each of the 20 minutes, 1000 + 1200 a minute,
     * restarted at minute 10 (1200 again, what it counted since): 19 increases of 1200 over 19 minutes = 20 tokens/s.
     * chat-h2-0 counts none: NO_DATA, never PASS.
     */
    @Test
    void tokensPerSecondWhereTheyAreCountedAndNoDataWhereNot() {
        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            long value = m < 10 ? 1000 + 1200L * m : 1200L * (m - 9);
            lines.add("{\"service\":\"chat-dedicated\",\"namespace\":\"ml\",\"pod\":\"chat-ded-0\",\"ts\":\""
                    + T0.plusSeconds(60L * m + 30) + "\",\"generationTokensTotal\":" + value + "}");
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges").then().statusCode(200);
        JsonPath run = submit(plan("tokens", """
                [{"name": "dedicated tokens/s", "kind": "THRESHOLD", "metric": "TOKENS_PER_S", "cell": "dedicated",
                  "min": 15},
                 {"name": "hami-2 tokens/s", "kind": "THRESHOLD", "metric": "TOKENS_PER_S", "cell": "hami-2", "min": 15},
                 {"name": "hami-2 tokens over dedicated", "kind": "RATIO", "metric": "TOKENS_PER_S", "cell": "hami-2",
                  "baselineCell": "dedicated", "minRatio": 0.8}]""")).jsonPath();
        Map<String, JsonPath> a = byName(run);
        assertEquals(20.0, a.get("dedicated tokens/s").getDouble("observed"));
        assertEquals("PASS", a.get("dedicated tokens/s").getString("verdict"));
        assertEquals("tokens/s", a.get("dedicated tokens/s").getString("unit"));
        assertTrue(a.get("dedicated tokens/s").getString("evidence.curveCsv")
                .startsWith("cell,pod,at,generation_tokens_total\ndedicated,ml/chat-ded-0,2026-11-02T10:00:30Z,1000\n"));
        assertEquals("NO_DATA", a.get("hami-2 tokens/s").getString("verdict"));
        assertNull(a.get("hami-2 tokens/s").get("observed"));
        assertEquals("NO_DATA", a.get("hami-2 tokens over dedicated").getString("verdict"));
        assertEquals(20.0, run.getDouble("matrix.find { it.cell == 'dedicated' && it.metric == 'TOKENS_PER_S' }.value"));
    }

    /** alert-service down: the run is computed and stored all the same, without runbook steps, saying why. */
    @Test
    void withoutAlertServiceTheRunListsNoRunbookActionAndSaysWhy() {
        LedgerStandIn.remove(runbook);
        try {
            JsonPath run = submit(plan("alert down", """
                    [{"name": "hami-4 within 1.5x", "kind": "RATIO", "metric": "P99", "sli": "TTFT", "cell": "hami-4",
                      "baselineCell": "dedicated", "maxRatio": 1.5}]""")).jsonPath();
            assertEquals("FAIL", run.getString("verdict"));
            List<String> actions = run.getList("actions", String.class);
            assertTrue(actions.stream().noneMatch(a -> a.contains("(runbook")), actions.toString());
            assertTrue(actions.stream().anyMatch(a -> a.startsWith("Runbook actions are not listed: alert-service's"
                    + " runbook could not be read (no answer")), actions.toString());
            assertEquals(-1, run.getInt("actionSources[0].status"));
        } finally {
            runbook = LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/runbook")), RUNBOOK);
        }
    }

    @Test
    void aRunOfPassingClausesPassesAndOneWithoutDataDoesNot() {
        JsonPath pass = submit(plan("all pass", """
                [{"name": "hami-2 within 1.5x", "kind": "RATIO", "metric": "P99", "sli": "TTFT", "cell": "hami-2",
                  "baselineCell": "dedicated", "maxRatio": 1.5}]""")).jsonPath();
        assertEquals("PASS", pass.getString("verdict"));
        JsonPath none = submit(plan("no data", """
                [{"name": "mig p99", "kind": "THRESHOLD", "metric": "P99", "sli": "TTFT", "cell": "mig", "maxMs": 300},
                 {"name": "mig over dedicated", "kind": "RATIO", "metric": "P99", "sli": "TTFT", "cell": "mig",
                  "baselineCell": "dedicated", "maxRatio": 1.5},
                 {"name": "ITL of dedicated", "kind": "THRESHOLD", "metric": "P99", "sli": "ITL", "cell": "dedicated",
                  "maxMs": 50}]""")).jsonPath();
        assertEquals("NO_DATA", none.getString("verdict"));
        assertEquals(List.of("NO_DATA", "NO_DATA", "NO_DATA"), none.getList("assertions.verdict"));
    }

    @Test
    void aRunReadsTheSameEachTimeAndItsPackIsByteIdenticalAndChecksItself() throws Exception {
        String location = submit(plan("stored once", """
                [{"name": "hami-4 within 1.5x", "kind": "RATIO", "metric": "P99", "sli": "TTFT", "cell": "hami-4",
                  "baselineCell": "dedicated", "maxRatio": 1.5},
                 {"name": "over-quota request blocked", "kind": "BLOCKED", "namespace": "team-x", "pod": "overquota-0",
                  "within": "PT5M"}]""")).header("Location");
        String path = location.substring(location.indexOf(RUNS));
        String first = given().get(path).then().statusCode(200).extract().asString();
        // what the run was computed from changes; the stored run does not
        StubMapping none = LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/queue-wait/pending")), "[]");
        try {
            assertEquals(first, given().get(path).then().statusCode(200).extract().asString());
        } finally {
            LedgerStandIn.remove(none);
        }
        byte[] pack = given().get(path + "/pack").then().statusCode(200).contentType("application/zip")
                .extract().asByteArray();
        assertArrayEquals(pack, given().get(path + "/pack").then().statusCode(200).extract().asByteArray());
        Map<String, byte[]> files = unzip(pack);
        String id = path.substring(path.lastIndexOf('/') + 1);
        String prefix = "acceptance-run-" + id + "/";
        for (String name : List.of("run.json", "plan.json", "verdict.html", "verdict.md", "matrix.csv",
                "commitments.csv", "SHA256SUMS", "evidence/01-hami-4-within-1-5x/curve.csv",
                "evidence/02-over-quota-request-blocked/quotes.txt")) {
            assertTrue(files.containsKey(prefix + name), name + " in " + files.keySet());
        }
        String sums = new String(files.get(prefix + "SHA256SUMS"), StandardCharsets.UTF_8);
        assertEquals(files.size() - 1, sums.lines().count(), "every other file is summed");
        for (String l : sums.lines().toList()) {
            String[] parts = l.split(" {2}");
            assertEquals(parts[0], HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(files.get(prefix + parts[1]))), parts[1]);
        }
        given().get(path + "/verdict").then().statusCode(200).contentType(containsString("text/html"))
                .body(containsString("class=\"verdict FAIL\""))
                .body(containsString("hami-4 within 1.5x")).body(containsString("over-quota request blocked"));
        given().queryParam("format", "markdown").get(path + "/verdict").then().statusCode(200)
                .body(containsString("**Verdict: FAIL**"));
        given().queryParam("format", "pdf").get(path + "/verdict").then().statusCode(400);
        given().get(RUNS + "/999999").then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void runsAreListedNewestFirstAndPaged() {
        submit(plan("listed a", "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99\", \"sli\": \"TTFT\","
                + " \"cell\": \"dedicated\", \"maxMs\": 300}]"));
        submit(plan("listed b", "[{\"name\": \"x\", \"kind\": \"THRESHOLD\", \"metric\": \"P99\", \"sli\": \"TTFT\","
                + " \"cell\": \"dedicated\", \"maxMs\": 300}]"));
        Response page = given().queryParam("limit", 1).get(RUNS).then().statusCode(200).extract().response();
        assertEquals("listed b", page.jsonPath().getString("[0].name"));
        assertEquals(1, page.jsonPath().getList("$").size());
        assertTrue(Integer.parseInt(page.header("X-Total-Count")) >= 2);
        assertTrue(page.header("Link").contains("rel=\"next\""));
    }

    static Map<String, byte[]> unzip(byte[] zip) throws IOException {
        Map<String, byte[]> out = new LinkedHashMap<>();
        try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(zip))) {
            for (ZipEntry e; (e = in.getNextEntry()) != null; ) {
                out.put(e.getName(), in.readAllBytes());
            }
        }
        return out;
    }
}
