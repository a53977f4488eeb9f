package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class LatencyResourceTest {

    static final String NDJSON = "application/x-ndjson";

    static String line(String service, String pod, String ts, Double ttft, double e2e, boolean ok) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"ml\",\"pod\":\"" + pod + "\",\"ts\":\"" + ts + "\","
                + (ttft == null ? "" : "\"ttftMs\":" + ttft + ",") + "\"e2eMs\":" + e2e + ",\"ok\":" + ok + "}";
    }

    static JsonPath post(String body) {
        return given().contentType(NDJSON).body(body.getBytes(StandardCharsets.UTF_8)).post("/api/v1/ingest/latency")
                .then().statusCode(200).extract().jsonPath();
    }

    static JsonPath query(String service, String from, String to, String sli) {
        return given().queryParam("service", service).queryParam("from", from).queryParam("to", to)
                .queryParam("sli", sli).get("/api/v1/latency").then().statusCode(200).extract().jsonPath();
    }

    private static void assertMs(double expected, JsonPath json, String path) {
        assertEquals(expected, json.getDouble(path), expected * 0.001, path);
    }

    @Test
    void minutesFromSeveralBodiesAndPodsMergeIntoAWindowsPercentiles() {
        // 10:00, pod a: 10..50 ms over two bodies; pod b: 60..100 ms; 10:01, pod a: one 300 ms request.
        String first = String.join("\n",
                line("chat", "a", "2026-05-01T10:00:01Z", 5.0, 10, true),
                line("chat", "a", "2026-05-01T10:00:02Z", null, 20, true),
                line("chat", "a", "2026-05-01T10:00:03Z", null, 30, true),
                line("chat", "b", "2026-05-01T10:00:04Z", null, 60, true),
                line("chat", "b", "2026-05-01T10:00:05Z", null, 70, false)) + "\n";
        String second = String.join("\n",
                line("chat", "a", "2026-05-01T10:00:06Z", null, 40, true),
                line("chat", "a", "2026-05-01T10:00:07Z", null, 50, true),
                line("chat", "b", "2026-05-01T10:00:08Z", null, 80, true),
                line("chat", "b", "2026-05-01T10:00:09Z", null, 90, true),
                line("chat", "b", "2026-05-01T10:00:59.999Z", null, 100, true),
                line("chat", "a", "2026-05-01T12:01:30+02:00", 7.0, 300, true));
        JsonPath stored = post(first);
        assertEquals(5, stored.getInt("records"));
        assertEquals(5, stored.getInt("stored"));
        assertEquals(false, stored.getBoolean("duplicate"));
        post(second);

        // the whole window, 11 requests: 10..100 and 300; p50 = 6th = 60, p95 = ceil(10.45) = 11th = 300
        JsonPath all = query("chat", "2026-05-01T10:00:00Z", "2026-05-01T10:02:00Z", "e2e");
        assertEquals(11, all.getInt("count"));
        assertMs(60, all, "p50Ms");
        assertMs(300, all, "p95Ms");
        assertMs(300, all, "p99Ms");
        assertMs(300, all, "maxMs");
        assertEquals(2, all.getList("minutes").size());
        assertEquals("2026-05-01T10:00:00Z", all.getString("minutes[0].minute"));
        // 10:00 alone, 10 requests: p50 = 5th = 50, p95 = 10th = 100
        assertEquals(10, all.getInt("minutes[0].latency.count"));
        assertMs(50, all, "minutes[0].latency.p50Ms");
        assertMs(100, all, "minutes[0].latency.p95Ms");
        assertEquals(1, all.getInt("minutes[1].latency.count"));
        assertMs(300, all, "minutes[1].latency.p99Ms");

        // a window holding only the first minute
        JsonPath first10 = query("chat", "2026-05-01T10:00:00Z", "2026-05-01T10:01:00Z", "E2E");
        assertEquals(10, first10.getInt("count"));
        assertMs(100, first10, "p99Ms");

        // TTFT was sent on two requests only: 5 and 7 ms
        JsonPath ttft = query("chat", "2026-05-01T10:00:00Z", "2026-05-01T10:02:00Z", "TTFT");
        assertEquals(2, ttft.getInt("count"));
        assertMs(5, ttft, "p50Ms");
        assertMs(7, ttft, "p99Ms");

        JsonPath none = query("chat", "2026-05-01T11:00:00Z", "2026-05-01T12:00:00Z", "ITL");
        assertEquals(0, none.getInt("count"));
        assertNull(none.get("p99Ms"));
    }

    @Test
    void concurrentBodiesForOneMinuteAllMergeIntoIt() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<JsonPath>> sent = new ArrayList<>();
            for (int body = 0; body < 6; body++) {
                int b = body;
                // body b: 10 requests of (b + 1) x 10 ms
                String ndjson = IntStream.range(0, 10).mapToObj(i -> line("busy", "p", "2026-05-01T08:00:"
                        + (10 + i) + "." + b + "Z", null, (b + 1) * 10, true)).collect(Collectors.joining("\n"));
                sent.add(pool.submit(() -> post(ndjson)));
            }
            for (Future<JsonPath> f : sent) {
                assertEquals(10, f.get(30, TimeUnit.SECONDS).getInt("stored"));
            }
        } finally {
            pool.shutdownNow();
        }
        // 60 requests, 10 each at 10..60 ms: p50 = 30th = 30, p99 = ceil(59.4) = 60th = 60
        JsonPath q = query("busy", "2026-05-01T08:00:00Z", "2026-05-01T08:01:00Z", "E2E");
        assertEquals(60, q.getInt("count"));
        assertMs(30, q, "p50Ms");
        assertMs(60, q, "p99Ms");
    }

    @Test
    void theSameBodySentTwiceIsStoredOnce() {
        String body = IntStream.rangeClosed(1, 4)
                .mapToObj(i -> line("dedup", "p", "2026-05-01T09:00:0" + i + "Z", null, i * 100, true))
                .collect(Collectors.joining("\n"));
        post(body);
        JsonPath again = post(body);
        assertEquals(true, again.getBoolean("duplicate"));
        assertEquals(0, again.getInt("stored"));
        JsonPath q = query("dedup", "2026-05-01T09:00:00Z", "2026-05-01T09:01:00Z", "E2E");
        assertEquals(4, q.getInt("count"));
        // p50 of 100..400 = 2nd = 200
        assertMs(200, q, "p50Ms");
    }

    @Test
    void aBadLineIsA400NamingItAndNothingIsStored() {
        String body = line("refused", "p", "2026-05-01T09:00:01Z", null, 10, true) + "\n"
                + line("refused", "p", "2026-05-01T09:00:02Z", null, 10, true).replace("\"e2eMs\":10.0", "\"e2eMs\":-3");
        given().contentType(NDJSON).body(body.getBytes(StandardCharsets.UTF_8)).post("/api/v1/ingest/latency")
                .then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("e2eMs"))
                .body("detail", containsString("line 2: e2eMs must be a number"));
        assertEquals(0, query("refused", "2026-05-01T09:00:00Z", "2026-05-01T09:01:00Z", "E2E").getInt("count"));
    }

    @Test
    void badQueriesAreProblemsNamingTheParameter() {
        given().queryParam("service", "chat").queryParam("from", "2026-05-01T10:00:00Z")
                .queryParam("to", "2026-05-01T11:00:00Z").queryParam("sli", "AVAILABILITY")
                .get("/api/v1/latency").then().statusCode(400).body("field", equalTo("sli"));
        given().queryParam("service", "chat").queryParam("from", "yesterday")
                .queryParam("to", "2026-05-01T11:00:00Z").queryParam("sli", "E2E")
                .get("/api/v1/latency").then().statusCode(400).body("field", equalTo("from"));
        given().queryParam("from", "2026-05-01T10:00:00Z")
                .queryParam("to", "2026-05-01T11:00:00Z").queryParam("sli", "E2E")
                .get("/api/v1/latency").then().statusCode(400).body("field", equalTo("service"));
        given().queryParam("service", "chat").queryParam("from", "2026-05-01T10:00:00Z")
                .queryParam("to", "2026-06-01T11:00:00Z").queryParam("sli", "E2E")
                .get("/api/v1/latency").then().statusCode(400).body("field", equalTo("to"));
    }
}
