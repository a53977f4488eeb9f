package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class EngineGaugeResourceTest {

    static String line(String service, String pod, String ts, Double kv, Double hitRate) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"ml\",\"pod\":\"" + pod + "\",\"ts\":\"" + ts + "\""
                + (kv == null ? "" : ",\"kvCacheUsage\":" + kv)
                + (hitRate == null ? "" : ",\"prefixCacheHitRate\":" + hitRate) + "}";
    }

    static JsonPath post(String body) {
        return given().contentType("application/x-ndjson").body(body.getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges").then().statusCode(200).extract().jsonPath();
    }

    static JsonPath curve(String service, String from, String to) {
        return given().queryParam("service", service).queryParam("from", from).queryParam("to", to)
                .get("/api/v1/engine-gauges").then().statusCode(200).extract().jsonPath();
    }

    /**
     * 10:00 — gen-0 reads KV 0.5 and 0.75 with hit rate 0.25; gen-1 KV 0.25 with hit rate 0.75, and (second body)
     * KV 1.0. 10:01 — gen-0 hit rate 0.5 alone. The service's 10:00: KV 4 readings, mean (0.5 + 0.75 + 0.25 + 1.0) / 4
     * = 0.625, max 1.0; hit rate 2 readings, mean 0.5, max 0.75. Resending the first body adds nothing.
     */
    @Test
    void readingsFromSeveralBodiesAndPodsMergeIntoAPerMinuteCurve() {
        String first = String.join("\n",
                line("gen", "gen-0", "2026-06-01T10:00:10Z", 0.5, 0.25),
                line("gen", "gen-0", "2026-06-01T10:00:40Z", 0.75, null),
                line("gen", "gen-1", "2026-06-01T12:00:20+02:00", 0.25, 0.75),
                line("gen", "gen-0", "2026-06-01T10:01:10Z", null, 0.5)) + "\n";
        JsonPath stored = post(first);
        assertEquals(4, stored.getInt("records"));
        assertEquals(4, stored.getInt("stored"));
        assertEquals(false, stored.getBoolean("duplicate"));
        post(line("gen", "gen-1", "2026-06-01T10:00:50Z", 1.0, null));
        JsonPath again = post(first);
        assertEquals(true, again.getBoolean("duplicate"));
        assertEquals(0, again.getInt("stored"));

        JsonPath c = curve("gen", "2026-06-01T10:00:00Z", "2026-06-01T10:02:00Z");
        assertEquals(List.of("2026-06-01T10:00:00Z", "2026-06-01T10:01:00Z"), c.getList("minutes.minute"));
        assertEquals(2, c.getInt("minutes[0].pods"));
        assertEquals(4, c.getInt("minutes[0].kvCacheUsage.samples"));
        assertEquals(0.625, c.getDouble("minutes[0].kvCacheUsage.mean"));
        assertEquals(1.0, c.getDouble("minutes[0].kvCacheUsage.max"));
        assertEquals(2, c.getInt("minutes[0].prefixCacheHitRate.samples"));
        assertEquals(0.5, c.getDouble("minutes[0].prefixCacheHitRate.mean"));
        assertEquals(0.75, c.getDouble("minutes[0].prefixCacheHitRate.max"));
        assertEquals(1, c.getInt("minutes[1].pods"));
        assertEquals(0, c.getInt("minutes[1].kvCacheUsage.samples"));
        assertNull(c.get("minutes[1].kvCacheUsage.mean"));
        assertEquals(0.5, c.getDouble("minutes[1].prefixCacheHitRate.mean"));

        // each pod's own curve: gen-0 (0.5 + 0.75) / 2 = 0.625 at most 0.75; gen-1 (0.25 + 1.0) / 2 = 0.625 at most 1.0
        assertEquals(List.of("gen-0", "gen-1"), c.getList("pods.pod"));
        assertEquals(2, c.getList("pods[0].minutes").size());
        assertEquals(0.625, c.getDouble("pods[0].minutes[0].kvCacheUsage.mean"));
        assertEquals(0.75, c.getDouble("pods[0].minutes[0].kvCacheUsage.max"));
        assertEquals(0.25, c.getDouble("pods[0].minutes[0].prefixCacheHitRate.mean"));
        assertEquals(0.625, c.getDouble("pods[1].minutes[0].kvCacheUsage.mean"));
        assertEquals(1.0, c.getDouble("pods[1].minutes[0].kvCacheUsage.max"));

        assertEquals(List.of("2026-06-01T10:01:00Z"),
                curve("gen", "2026-06-01T10:01:00Z", "2026-06-01T10:02:00Z").getList("minutes.minute"));
    }

    private static void refused(String second, String field, String detailStart) {
        String body = line("refused-gen", "p-0", "2026-06-01T09:00:01Z", 0.5, 0.5) + "\n" + second;
        given().contentType("application/x-ndjson").body(body.getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges")
                .then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", startsWith(detailStart));
    }

    @Test
    void aBadLineIsA400NamingTheFieldAndNothingOfTheBodyIsStored() {
        refused(line("refused-gen", "p-0", "2026-06-01T09:00:02Z", 1.2, null), "kvCacheUsage",
                "line 2: kvCacheUsage must be a fraction from 0 to 1, got 1.2");
        refused(line("refused-gen", "p-0", "2026-06-01T09:00:02Z", null, -0.1), "prefixCacheHitRate",
                "line 2: prefixCacheHitRate must be a fraction from 0 to 1");
        refused(line("refused-gen", "p-0", "2026-06-01T09:00:02Z", null, null), "kvCacheUsage",
                "line 2: kvCacheUsage, prefixCacheHitRate, generationTokensTotal or several must be given");
        refused("{\"service\":\"refused-gen\",\"namespace\":\"ml\",\"pod\":\"p-0\",\"ts\":\"2026-06-01T09:00:02Z\","
                + "\"generationTokensTotal\":-5}", "generationTokensTotal",
                "line 2: generationTokensTotal must be a counter's value, a whole number from 0");
        refused("{\"service\":\"refused-gen\",\"namespace\":\"ml\",\"pod\":\"p-0\",\"ts\":\"2026-06-01T09:00:02Z\","
                + "\"generationTokensTotal\":12.5}", "generationTokensTotal",
                "line 2: generationTokensTotal must be a counter's value");
        refused("{\"service\":\"refused-gen\",\"namespace\":\"ml\",\"pod\":\"p-0\",\"ts\":\"2026-06-01T09:00:02Z\","
                + "\"kvCacheUsage\":\"0.5\"}", "kvCacheUsage", "line 2: kvCacheUsage must be a fraction");
        refused("{\"service\":\"refused-gen\",\"namespace\":\"ml\",\"pod\":\"p-0\",\"ts\":\"2026-06-01T09:00:02Z\","
                + "\"gpuCacheUsage\":0.5}", "gpuCacheUsage", "line 2: the line has an unknown field 'gpuCacheUsage'");
        refused(line("refused-gen", "p-0", "2026-06-01 09:00:02", 0.5, null), "ts", "line 2: ts must be");
        refused(line("refused-gen", " p-0", "2026-06-01T09:00:02Z", 0.5, null), "pod", "line 2: pod must be");
        assertEquals(List.of(), curve("refused-gen", "2026-06-01T09:00:00Z", "2026-06-01T09:01:00Z")
                .getList("minutes"));
        given().contentType("application/x-ndjson").body("\n".getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges").then().statusCode(400).body("field", equalTo("body"));
    }

    @Test
    void badQueryParametersAreProblemsNamingTheField() {
        given().queryParam("from", "2026-06-01T10:00:00Z").queryParam("to", "2026-06-01T11:00:00Z")
                .get("/api/v1/engine-gauges").then().statusCode(400).body("field", equalTo("service"));
        given().queryParam("service", "gen").queryParam("from", "soon").queryParam("to", "2026-06-01T11:00:00Z")
                .get("/api/v1/engine-gauges").then().statusCode(400).body("field", equalTo("from"));
        given().queryParam("service", "gen").queryParam("from", "2026-06-01T10:00:00Z")
                .queryParam("to", "2026-06-01T10:00:00Z")
                .get("/api/v1/engine-gauges").then().statusCode(400).body("field", equalTo("to"));
        given().queryParam("service", "gen").queryParam("from", "2026-06-01T10:00:00Z")
                .queryParam("to", "2026-07-01T10:00:00Z")
                .get("/api/v1/engine-gauges").then().statusCode(400).body("field", equalTo("to"));
    }

    /** A line with only the generation-token counter is stored; the cache gauges' curve has no minute for it. */
    @Test
    void aCounterOnlyLineIsTakenAndLeavesTheCacheCurveAlone() {
        String body = "{\"service\":\"tok-gen\",\"namespace\":\"ml\",\"pod\":\"t-0\",\"ts\":\"2026-06-02T10:00:30Z\","
                + "\"generationTokensTotal\":1200}\n{\"service\":\"tok-gen\",\"namespace\":\"ml\",\"pod\":\"t-0\","
                + "\"ts\":\"2026-06-02T10:00:50Z\",\"generationTokensTotal\":1500,\"kvCacheUsage\":0.5}";
        given().contentType("application/x-ndjson").body(body.getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges").then().statusCode(200).body("stored", equalTo(2));
        JsonPath c = curve("tok-gen", "2026-06-02T10:00:00Z", "2026-06-02T10:02:00Z");
        assertEquals(List.of("2026-06-02T10:00:00Z"), c.getList("minutes.minute"));
        assertEquals(1, c.getInt("minutes[0].kvCacheUsage.samples"), "the counter is no KV-cache reading");
        String only = "{\"service\":\"tok-gen\",\"namespace\":\"ml\",\"pod\":\"t-0\",\"ts\":\"2026-06-02T10:01:30Z\","
                + "\"generationTokensTotal\":2700}";
        given().contentType("application/x-ndjson").body(only.getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges").then().statusCode(200);
        assertEquals(List.of("2026-06-02T10:00:00Z"), curve("tok-gen", "2026-06-02T10:00:00Z", "2026-06-02T10:02:00Z")
                .getList("minutes.minute"), "a minute of counter readings alone is not a cache minute");
    }
}
