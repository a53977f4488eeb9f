package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Fuzz;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded hostile SLO definitions (created and replaced), latency lines and engine gauge lines: 2xx or a 4xx problem document, never a 5xx; a refused body
 * stores nothing; the service stays up.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SloFuzzTest {

    private static final int CASES = Fuzz.cases();

    @org.junit.jupiter.api.AfterEach
    void removeWhatTheValidCasesStored() {
        List<String> names = given().get("/api/v1/slos").then().statusCode(200).extract().jsonPath().getList("name");
        names.forEach(n -> given().delete("/api/v1/slos/" + n).then().statusCode(204));
    }

    @Test
    void sloDefinitions() {
        List<String> seeds = List.of("""
                {"name":"fz-ttft","selector":{"service":"chat","namespace":"ml"},"sli":"TTFT",
                 "objective":{"percentile":99,"thresholdMs":300,"per":"MINUTE"},"target":0.99,"window":"P30D"}""", """
                {"name":"fz-avail","selector":{"service":"chat","namespace":"ml"},"sli":"AVAILABILITY","target":0.999,"window":"PT6H"}""");
        fuzz("slo definitions", Fuzz.json(31L, seeds), body -> given().contentType("application/json").body(body)
                .post("/api/v1/slos"), () -> given().get("/api/v1/slos").asString());
    }

    @Test
    void sloReplacements() {
        String definition = """
                {"name":"fz-put","selector":{"service":"chat","namespace":"ml"},"sli":"TTFT",
                 "objective":{"percentile":99,"thresholdMs":250,"per":"MINUTE"},"target":0.99,"window":"P30D"}""";
        given().contentType("application/json").body(definition).post("/api/v1/slos").then().statusCode(201);
        List<String> seeds = List.of(definition, """
                {"selector":{"service":"chat","namespace":"ml"},"sli":"AVAILABILITY","target":0.999,"window":"PT6H"}""");
        fuzz("slo replacements", Fuzz.json(33L, seeds), body -> given().contentType("application/json").body(body)
                .put("/api/v1/slos/fz-put"), () -> given().get("/api/v1/slos").asString());
    }

    @Test
    void engineGaugeLines() {
        String lines = """
                {"service":"fz","namespace":"ml","pod":"fz-0","ts":"2026-06-01T10:00:01Z","kvCacheUsage":0.5,"prefixCacheHitRate":0.25}
                {"service":"fz","namespace":"ml","pod":"fz-1","ts":"2026-06-01T10:00:02+02:00","kvCacheUsage":0.75}
                """;
        fuzz("engine gauges", new Fuzz(34L, List.of(lines)), body -> given().contentType("application/x-ndjson")
                .body(body).post("/api/v1/ingest/engine-gauges"),
                () -> given().queryParam("service", "fz").queryParam("from", "2026-05-31T00:00:00Z")
                        .queryParam("to", "2026-06-02T00:00:00Z").get("/api/v1/engine-gauges").asString());
    }

    @Test
    void latencyLines() {
        String lines = """
                {"service":"fz","namespace":"ml","pod":"fz-0","ts":"2026-05-01T10:00:01.250Z","ttftMs":120,"itlMs":18.5,"e2eMs":950,"ok":true}
                {"service":"fz","namespace":"ml","pod":"fz-1","ts":"2026-05-01T10:00:02+02:00","ok":false}
                """;
        fuzz("latency ndjson", new Fuzz(32L, List.of(lines)), body -> given().contentType("application/x-ndjson")
                .body(body).post("/api/v1/ingest/latency"), () -> given().queryParam("service", "fz").queryParam("from", "2026-04-30T00:00:00Z")
                        .queryParam("to", "2026-05-02T00:00:00Z").get("/api/v1/latency").asString());
    }

    private static void fuzz(String parser, Fuzz fuzz, Function<byte[], Response> send, Supplier<String> state) {
        Map<Integer, Integer> statuses = fuzz.overHttp(parser, CASES, body -> {
            Response r = send.apply(body);
            return new Fuzz.Answer(r.statusCode(), r.contentType(), r.asString());
        }, state);
        Management.given().get("/q/health/live").then().statusCode(200);
        assertEquals(CASES, statuses.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(statuses.keySet().stream().anyMatch(s -> s < 300), parser + ": the valid seeds are accepted");
    }
}
