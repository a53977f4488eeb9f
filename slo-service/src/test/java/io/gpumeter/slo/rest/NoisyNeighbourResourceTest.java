package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.Contract;
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

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A service alone on a card until a training job is scheduled onto it at 10:10 and its DRAM activity ramps.
 * <p>
 * Service "chat" (SLO: TTFT p99 per minute at most 100 ms, so jitter above 2 x 100 = 200 ms), 10:00-10:20, TTFT:
 * <ul>
 * <li>ml/chat-0 on GPU-A: 10:00-10:09 alone, 12 requests a minute at 50 ms; from 10:10 with research/train-0
 * (a PyTorchJob, since 10:10:00, DRAM_ACTIVE 0.5 then 0.9), 8 requests a minute at 300 ms.</li>
 * <li>ml/chat-1 on GPU-B with ml/embed-0 (since 09:00, itself reporting latency, so inference, DRAM_ACTIVE flat
 * 0.3) throughout, 10 requests a minute at 60 ms.</li>
 * </ul>
 * Merged minutes: before 10:10, 22 requests with max 60 ms (p99 60, good); from 10:10, 18 requests with 8 at
 * 300 ms (nearest-rank p99 = 18th = 300 ms, bad). So one event, [10:10, 10:20).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class NoisyNeighbourResourceTest {

    private static final Instant T0 = Instant.parse("2026-08-03T10:00:00Z");
    private static final Instant ARRIVAL = Instant.parse("2026-08-03T10:10:00Z");
    private static final String FROM = "2026-08-03T10:00:00Z";
    private static final String TO = "2026-08-03T10:20:00Z";
    /** Values read back are the top of their HdrHistogram bucket, within 0.1%; a ratio of two within 0.2%. */
    private static final double RATIO_TOLERANCE = 0.002 * 6;

    private static boolean stored;

    @BeforeEach
    void buildTheScenarioOnce() {
        if (stored) {
            return;
        }
        stored = true;
        Instant nine = Instant.parse("2026-08-03T09:00:00Z");
        LedgerStandIn.reset();
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("ml", "chat-0", "GPU-A", "n1", "Deployment", "chat", "acme", nine),
                new LedgerStandIn.Unit("ml", "chat-1", "GPU-B", "n1", "Deployment", "chat", "acme", nine),
                new LedgerStandIn.Unit("ml", "embed-0", "GPU-B", "n1", "Deployment", "embed", "acme", nine),
                new LedgerStandIn.Unit("research", "train-0", "GPU-A", "n1", "PyTorchJob", "llama-ft", "beta",
                        ARRIVAL).arrivingInTheWindow()));
        // the book holds nothing of n1 in the day before the event
        LedgerStandIn.changes(List.of(LedgerShapes.scope("c1", "n1", "2026-08-02T10:10:00Z",
                "2026-08-03T10:10:00.000001Z", 0, List.of())));
        // the cards' series over the curves' 30 minutes, the one window their usage is read for
        for (int m = 0; m < 30; m++) {
            Instant minute = T0.plusSeconds(60L * m);
            boolean noisy = !minute.isBefore(ARRIVAL);
            usage("GPU-A", "DEVICE", "", "POWER_W", minute, noisy ? 650 : 200);
            usage("GPU-A", "DEVICE", "", "THROTTLE_REASONS", minute, noisy ? 4 : 0);
            usage("GPU-A", "DEVICE", "", "DRAM_ACTIVE", minute, noisy ? 0.9 : 0.1);
            usage("GPU-B", "DEVICE", "", "POWER_W", minute, 300);
            usage("GPU-B", "CONTAINER", "ml/embed-0/server", "DRAM_ACTIVE", minute, 0.3);
            if (noisy) {
                usage("GPU-A", "CONTAINER", "research/train-0/trainer", "DRAM_ACTIVE", minute,
                        minute.equals(ARRIVAL) ? 0.5 : 0.9);
                usage("GPU-A", "CONTAINER", "research/train-0/trainer", "SM_ACTIVE", minute, 0.4);
            }
        }
        LedgerStandIn.usage(T0, T0.plusSeconds(30 * 60L), USAGE);
        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            Instant minute = T0.plusSeconds(60L * m);
            boolean noisy = !minute.isBefore(ARRIVAL);
            for (int i = 0; i < (noisy ? 8 : 12); i++) {
                lines.add(line("chat", "chat-0", minute.plusSeconds(i + 1), noisy ? 300 : 50));
            }
            for (int i = 0; i < 10; i++) {
                lines.add(line("chat", "chat-1", minute.plusSeconds(i + 1), 60));
            }
        }
        lines.add(line("embed", "embed-0", T0.plusSeconds(5), 20));
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        // KV-cache usage, one reading a pod and minute to 10:19: chat-0 0.25, then 0.75 from 10:10; chat-1 0.5
        List<String> gauges = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            Instant ts = T0.plusSeconds(60L * m + 30);
            gauges.add(EngineGaugeResourceTest.line("chat", "chat-0", ts.toString(), ts.isBefore(ARRIVAL) ? 0.25 : 0.75,
                    null));
            gauges.add(EngineGaugeResourceTest.line("chat", "chat-1", ts.toString(), 0.5, null));
        }
        EngineGaugeResourceTest.post(String.join("\n", gauges));
        SloResourceTest.create("""
                {"name": "chat-ttft", "selector": {"service": "chat", "namespace": "ml"}, "sli": "TTFT",
                 "objective": {"percentile": 99, "thresholdMs": 100, "per": "MINUTE"}, "target": 0.99, "window": "PT1H"}""");
    }

    /** The cards' usage minutes, each card's in the order stated. */
    private static final Map<String, List<Map<String, Object>>> USAGE = new LinkedHashMap<>();

    private static void usage(String gpu, String scope, String key, String field, Instant minute, double mean) {
        USAGE.computeIfAbsent(gpu, g -> new ArrayList<>()).add(LedgerShapes.point(scope, key, field, minute, mean));
    }

    private static String line(String service, String pod, Instant ts, double ttftMs) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"ml\",\"pod\":\"" + pod + "\",\"ts\":\"" + ts
                + "\",\"ttftMs\":" + ttftMs + ",\"ok\":true}";
    }

    private static JsonPath detect(String from, String to) {
        return given().queryParam("from", from).queryParam("to", to).post("/api/v1/jitter-events/detections")
                .then().statusCode(200).extract().jsonPath();
    }

    private static void assertMs(double expected, double actual, String what) {
        assertEquals(expected, actual, expected * 0.001, what);
    }

    @Test
    void theEventNamesTheNeighbourThatArrivedAndRampedFirstWithItsCurvesAroundTheEvent() {
        JsonPath first = detect(FROM, TO);
        assertEquals(1, first.getList("events").size());
        assertEquals(true, first.getBoolean("events[0].created"));
        long id = first.getLong("events[0].id");

        String event = given().get("/api/v1/jitter-events/" + id).then().statusCode(200).extract().asString();
        Contract.record("slo", "jitter-event", event); // the console's Jitter page draws the event
        JsonPath e = new JsonPath(event);
        assertEquals("chat", e.getString("service"));
        assertEquals("chat-ttft", e.getString("slo"));
        assertEquals("2026-08-03T10:10:00Z", e.getString("start"));
        assertEquals("2026-08-03T10:20:00Z", e.getString("end"));
        assertEquals(10, e.getInt("badMinutes"));
        assertMs(300, e.getDouble("peakP99Ms"), "peak p99");
        assertEquals(200, e.getInt("limitMs"));
        // both pods and the cards they held in the first bad minute
        assertEquals(List.of("chat-0", "chat-1"), e.getList("pods.pod"));
        assertEquals(List.of("GPU-A"), e.getList("pods[0].gpus.gpuUuid"));
        assertEquals(List.of("GPU-B"), e.getList("pods[1].gpus.gpuUuid"));
        // neighbours: never the service's own pods
        assertEquals(List.of("embed-0", "train-0"), e.getList("neighbours.pod"));
        assertEquals(List.of("inference", "training"), e.getList("neighbours.kind"));

        // the newcomer first: arrived 0 min before (arrival 1), DRAM_ACTIVE from nothing to 0.5 (ramp 0.5)
        assertEquals("research/train-0", e.getString("suspects[0].key"));
        assertEquals(1, e.getInt("suspects[0].rank"));
        assertEquals(1.5, e.getDouble("suspects[0].score"), 1e-9);
        assertEquals(1.0, e.getDouble("suspects[0].arrival"), 1e-9);
        assertEquals(0.5, e.getDouble("suspects[0].ramp"), 1e-9);
        // the long-standing neighbour: 70 min before (arrival 0), DRAM flat at 0.3 (ramp 0)
        assertEquals("ml/embed-0", e.getString("suspects[1].key"));
        assertEquals(0.0, e.getDouble("suspects[1].score"), 1e-9);
        assertEquals(70.0, e.getDouble("suspects[1].arrivedMinutesBefore"), 1e-9);

        // curves from 10 minutes before the start to 10 minutes after the end
        assertEquals("2026-08-03T10:00:00Z", e.getString("curveFrom"));
        assertEquals("2026-08-03T10:30:00Z", e.getString("curveTo"));
        String train = "neighbours.find { it.pod == 'train-0' }.curves";
        List<String> power = e.getList(train + ".POWER_W.points.minute");
        assertEquals(30, power.size());
        assertEquals("2026-08-03T10:00:00Z", power.get(0));
        assertEquals("2026-08-03T10:29:00Z", power.get(29));
        assertEquals("DEVICE", e.getString(train + ".POWER_W.scope"));
        assertEquals(4.0, e.getDouble(train + ".THROTTLE_REASONS.points[10].mean"), 1e-9);
        // its own DRAM series, not the card's: from its arrival to the end of the curve
        assertEquals("CONTAINER", e.getString(train + ".DRAM_ACTIVE.scope"));
        assertEquals(20, e.getList(train + ".DRAM_ACTIVE.points").size());
        assertEquals(0.5, e.getDouble(train + ".DRAM_ACTIVE.points[0].mean"), 1e-9);
        // the service's percentiles over the same 30 minutes; it had no requests from 10:20
        assertEquals(30, e.getList("latency").size());
        assertEquals(0, e.getInt("latency[20].count"));
        assertNull(e.get("latency[20].p99Ms"));
        assertMs(60, e.getDouble("latency[9].p99Ms"), "p99 at 10:09");
        assertMs(300, e.getDouble("latency[10].p99Ms"), "p99 at 10:10");
        assertMs(60, e.getDouble("latency[10].p50Ms"), "p50 at 10:10: the 9th of 18, 10 of them at 60 ms");
        // and its KV-cache usage over the same 30 minutes, beside the neighbours: (0.25 + 0.5) / 2 before the event,
        // (0.75 + 0.5) / 2 in it, at most 0.75 (never saturated); no readings from 10:20
        assertEquals(30, e.getList("kvCacheUsage").size());
        assertEquals("2026-08-03T10:00:00Z", e.getString("kvCacheUsage[0].minute"));
        assertEquals(2, e.getInt("kvCacheUsage[0].samples"));
        assertEquals(0.375, e.getDouble("kvCacheUsage[0].mean"), 1e-12);
        assertEquals(0.5, e.getDouble("kvCacheUsage[0].max"), 1e-12);
        assertEquals(0.625, e.getDouble("kvCacheUsage[10].mean"), 1e-12);
        assertEquals(0.75, e.getDouble("kvCacheUsage[10].max"), 1e-12);
        assertEquals(0, e.getInt("kvCacheUsage[20].samples"));
        assertNull(e.get("kvCacheUsage[20].mean"));
        assertEquals(List.of(), e.getList("gaps"));

        // again, and over a window overlapping the event's end: the same event, nothing added
        JsonPath again = detect(FROM, TO);
        assertEquals(id, again.getLong("events[0].id"));
        assertEquals(false, again.getBoolean("events[0].created"));
        JsonPath later = detect("2026-08-03T10:15:00Z", "2026-08-03T10:25:00Z");
        assertEquals(id, later.getLong("events[0].id"));
        assertEquals(false, later.getBoolean("events[0].created"));

        String events = given().queryParam("from", FROM).queryParam("to", "2026-08-03T11:00:00Z")
                .queryParam("service", "chat").get("/api/v1/jitter-events").then().statusCode(200).extract().asString();
        Contract.record("slo", "jitter-events", events); // the console's Jitter page lists them
        JsonPath list = new JsonPath(events);
        assertEquals(List.of((int) id), list.getList("id"));
        assertEquals("2026-08-03T10:10:00Z", list.getString("[0].start"));
        assertEquals("2026-08-03T10:20:00Z", list.getString("[0].end"));
        assertEquals("research/train-0", list.getString("[0].topSuspect"));
        given().queryParam("from", FROM).queryParam("to", TO).queryParam("service", "embed")
                .get("/api/v1/jitter-events").then().statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void interferenceBucketsMergeTheMinutesOfEachBucket() {
        String interference = given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO)
                .get("/api/v1/interference").then().statusCode(200).extract().asString();
        Contract.record("slo", "interference", interference); // the console's Jitter page draws the factors
        JsonPath r = new JsonPath(interference);
        assertEquals("TTFT", r.getString("sli"));
        assertEquals(40, r.getInt("podMinutes"));
        assertEquals(0, r.getInt("unplacedPodMinutes"));
        assertEquals(List.of("0", "1", "2", "3+"), r.getList("byNeighbours.bucket"));
        // 0: chat-0 10:00-10:09, 10 pod-minutes x 12 requests at 50 ms
        assertEquals(10, r.getInt("byNeighbours[0].podMinutes"));
        assertEquals(120, r.getInt("byNeighbours[0].requests"));
        assertMs(50, r.getDouble("byNeighbours[0].p99Ms"), "dedicated p99");
        // 1: chat-0 10:10-10:19 (10 x 8 at 300 ms) and chat-1 (20 x 10 at 60 ms): 280 samples, nearest rank
        // ceil(0.99 x 280) = 278th; the 200 at 60 ms come first, so 300 ms. (Averaging the pod-minutes' p99s would
        // say (10 x 300 + 20 x 60) / 30 = 140 ms.)
        assertEquals(30, r.getInt("byNeighbours[1].podMinutes"));
        assertEquals(280, r.getInt("byNeighbours[1].requests"));
        assertEquals(280, r.getInt("byNeighbours[1].latencySamples"));
        assertMs(300, r.getDouble("byNeighbours[1].p99Ms"), "shared p99");
        // IF_latency = 300 / 50 = 6; IF_throughput = 12 / (280 / 30) = 360 / 280 = 1.286
        assertEquals(6.0, r.getDouble("byNeighbours[1].ifLatency"), RATIO_TOLERANCE);
        assertEquals(1.286, r.getDouble("byNeighbours[1].ifThroughput"), 1e-9);
        assertEquals(9.333, r.getDouble("byNeighbours[1].requestsPerPodMinute"), 1e-9);
        assertEquals(0, r.getInt("byNeighbours[2].podMinutes"));
        assertNull(r.get("byNeighbours[2].ifLatency"));
        // by kind: training = chat-0 beside train-0 (8 a minute at 300 ms): 6x and 12 / 8 = 1.5;
        // inference = chat-1 beside embed-0 (10 a minute at 60 ms): 60 / 50 = 1.2 and 12 / 10 = 1.2
        assertEquals(List.of("training", "inference", "unknown"), r.getList("byKind.bucket"));
        assertEquals(6.0, r.getDouble("byKind[0].ifLatency"), RATIO_TOLERANCE);
        assertEquals(1.5, r.getDouble("byKind[0].ifThroughput"), 1e-9);
        assertEquals(1.2, r.getDouble("byKind[1].ifLatency"), 0.002 * 1.2);
        assertEquals(1.2, r.getDouble("byKind[1].ifThroughput"), 1e-9);
        assertEquals(0, r.getInt("byKind[2].podMinutes"));
    }

    /**
     * The answer says the window it read: the one asked when it is no longer than max-window (P1D here), else, with
     * narrow=true, the day up to its end — two days up to 10:20 read from 2026-08-02T10:20, the same 40 pod-minutes.
     */
    @Test
    void theAnswerCarriesTheWindowItReadAndNarrowsALongerOneOnlyWhenAsked() {
        JsonPath asked = given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO)
                .get("/api/v1/interference").then().statusCode(200).extract().jsonPath();
        assertEquals(FROM, asked.getString("from"));
        assertEquals(TO, asked.getString("to"));
        assertEquals("PT24H", asked.getString("maxWindow"));
        assertEquals(false, asked.getBoolean("narrowed"));

        JsonPath narrowed = given().queryParam("service", "chat").queryParam("from", "2026-08-01T10:20:00Z")
                .queryParam("to", TO).queryParam("narrow", "true")
                .get("/api/v1/interference").then().statusCode(200).extract().jsonPath();
        assertEquals("2026-08-02T10:20:00Z", narrowed.getString("from"));
        assertEquals(TO, narrowed.getString("to"));
        assertEquals(true, narrowed.getBoolean("narrowed"));
        assertEquals(40, narrowed.getInt("podMinutes"));

        bad(given().queryParam("service", "chat").queryParam("from", "2026-08-01T10:20:00Z").queryParam("to", TO),
                "GET", "/api/v1/interference", "to");
        bad(given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO).queryParam("narrow", "maybe"),
                "GET", "/api/v1/interference", "narrow");
    }

    @Test
    void theAssertionFormPassesOrFailsWithTheNumbers() {
        JsonPath fail = given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO)
                .queryParam("neighbours", 1).queryParam("maxRatio", "1.5")
                .get("/api/v1/interference/assertions").then().statusCode(200).extract().jsonPath();
        assertEquals("FAIL", fail.getString("verdict"));
        assertEquals(false, fail.getBoolean("pass"));
        assertMs(50, fail.getDouble("dedicatedP99Ms"), "dedicated");
        assertMs(300, fail.getDouble("sharedP99Ms"), "shared");
        assertTrue(fail.getString("statement").startsWith("with 1 shared pod p99 <= 1.5x dedicated: "),
                fail.getString("statement"));
        JsonPath pass = given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO)
                .queryParam("neighbours", 1).queryParam("maxRatio", "6.5")
                .get("/api/v1/interference/assertions").then().statusCode(200).extract().jsonPath();
        assertEquals("PASS", pass.getString("verdict"));
        JsonPath none = given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO)
                .queryParam("neighbours", 2).queryParam("maxRatio", "1.5")
                .get("/api/v1/interference/assertions").then().statusCode(200).extract().jsonPath();
        assertEquals("NO_DATA", none.getString("verdict"));
        assertNull(none.get("pass"));
    }

    @Test
    void aLedgerThatFailsLeavesNamedGapsAndTheEventIsStillKept() {
        // solo-0 alone on GPU-F, whose ledger reads answer 500; 12:00-12:02, 3 requests a minute at 500 ms
        for (String read : List.of("/api/v1/card-holdings", "/api/v1/usage/series")) {
            LedgerStandIn.failing(post(urlPathEqualTo(read)).withRequestBody(matchingJsonPath("$.gpus[?(@ == 'GPU-F')]")));
        }
        LedgerStandIn.heldThroughout(List.of(new LedgerStandIn.Unit("ml", "solo-0", "GPU-F", "n2", "Deployment", "solo",
                "acme", Instant.parse("2026-08-03T11:00:00Z"))));
        LedgerStandIn.changes(List.of(LedgerShapes.scope("c1", "n2", "2026-08-02T12:00:00Z",
                "2026-08-03T12:00:00.000001Z", 0, List.of())));
        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 3; m++) {
            for (int i = 0; i < 3; i++) {
                lines.add(line("solo", "solo-0", Instant.parse("2026-08-03T12:00:00Z").plusSeconds(60L * m + i), 500));
            }
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        SloResourceTest.create("""
                {"name": "solo-ttft", "selector": {"service": "solo"}, "sli": "TTFT",
                 "objective": {"percentile": 99, "thresholdMs": 100, "per": "MINUTE"}, "target": 0.99, "window": "PT1H"}""");

        JsonPath d = detect("2026-08-03T12:00:00Z", "2026-08-03T12:05:00Z");
        assertEquals(1, d.getList("events").size());
        JsonPath e = given().get("/api/v1/jitter-events/" + d.getLong("events[0].id")).then().statusCode(200)
                .extract().jsonPath();
        assertEquals(3, e.getInt("badMinutes"));
        assertEquals(List.of("GPU-F"), e.getList("pods[0].gpus.gpuUuid"));
        assertEquals(List.of(), e.getList("neighbours"));
        assertEquals(List.of(), e.getList("suspects"));
        List<String> gaps = e.getList("gaps");
        assertEquals(2, gaps.size(), gaps.toString());
        assertTrue(gaps.stream().anyMatch(g -> g.contains("occupants of GPU GPU-F")), gaps.toString());
        assertTrue(gaps.stream().anyMatch(g -> g.contains("usage curves of GPU GPU-F")), gaps.toString());
    }

    private static void bad(io.restassured.specification.RequestSpecification request, String method, String path,
                            String field) {
        request.request(method, path).then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo(field));
    }

    @Test
    void badQueryParametersAreProblemsNamingTheField() {
        bad(given().queryParam("to", TO), "GET", "/api/v1/jitter-events", "from");
        bad(given().queryParam("from", FROM).queryParam("to", "yesterday"), "GET", "/api/v1/jitter-events", "to");
        bad(given().queryParam("from", TO).queryParam("to", FROM), "POST", "/api/v1/jitter-events/detections", "to");
        bad(given().queryParam("from", "2026-08-01T00:00:00Z").queryParam("to", TO), "POST",
                "/api/v1/jitter-events/detections", "to");
        bad(given(), "GET", "/api/v1/jitter-events/seven", "id");
        given().get("/api/v1/jitter-events/987654").then().statusCode(404).body("field", equalTo("id"));
        bad(given().queryParam("service", "chat").queryParam("to", TO), "GET", "/api/v1/interference", "from");
        bad(given().queryParam("service", "chat").queryParam("from", FROM), "GET", "/api/v1/interference", "to");
        bad(given().queryParam("from", FROM).queryParam("to", TO), "GET", "/api/v1/interference", "service");
        bad(given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO)
                .queryParam("sli", "AVAILABILITY"), "GET", "/api/v1/interference", "sli");
        bad(given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO)
                .queryParam("neighbours", 0).queryParam("maxRatio", "1.5"), "GET", "/api/v1/interference/assertions",
                "neighbours");
        bad(given().queryParam("service", "chat").queryParam("from", FROM).queryParam("to", TO)
                .queryParam("neighbours", 2).queryParam("maxRatio", "x"), "GET", "/api/v1/interference/assertions",
                "maxRatio");
    }
}
