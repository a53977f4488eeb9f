package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A service is known by its namespace and its name. Tenant B runs service {@code chat} in namespace {@code b-ns}; tenant
 * A names its own pods in {@code a-ns} after it (one by its {@code service} label, one by the model name its engine
 * reports: both arrive as service {@code chat}). B's SLOs, their burn rates, states and jitter events read the same
 * with A's pods as without them; a read that names only {@code chat} asks for the namespace once both report it.
 * <p>
 * The same twenty minutes of B's, 10:00-10:20, on two days ten days apart (more than the 3 days a status reads):
 * <ul>
 * <li>b-ns/chat-b0 (GPU-NB): 10 requests a minute at 50 ms, at 500 ms in 10:12-10:14, one failed in 10:13; KV-cache
 * usage 0.3 each minute;</li>
 * <li>only on {@link #SHARED}: a-ns/chat-a0 and a-ns/chat-a1 (GPU-NA): 10 requests a minute each at 900 ms in
 * 10:00-10:09, all failed; KV-cache usage 0.99.</li>
 * </ul>
 * Merged, A's minutes would make 10:00-10:09 bad for B (p99 900 ms), a jitter event of B's there, and B's
 * availability would fall to a third.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class ServicesInNamespacesResourceTest {

    /** B's pods alone. */
    private static final Instant ALONE = Instant.parse("2025-03-02T10:00:00Z");
    /** B's pods as on {@link #ALONE}, and A's of the same name. */
    private static final Instant SHARED = Instant.parse("2025-03-12T10:00:00Z");
    private static final String SLOS = SloResourceTest.SLOS;

    private static boolean stored;

    @Inject
    Pool pool;

    @BeforeEach
    void storeBothDaysOnce() {
        if (stored) {
            return;
        }
        stored = true;
        LedgerStandIn.reset();
        Instant nine = ALONE.minus(Duration.ofHours(1));
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("b-ns", "chat-b0", "GPU-NB", "nb", "Deployment", "chat", "tenant-b", nine),
                new LedgerStandIn.Unit("a-ns", "chat-a0", "GPU-NA", "na", "Deployment", "chat", "tenant-a", nine),
                new LedgerStandIn.Unit("a-ns", "chat-a1", "GPU-NA", "na", "Deployment", "llm", "tenant-a", nine)));
        List<String> latency = new ArrayList<>();
        List<String> gauges = new ArrayList<>();
        for (Instant day : List.of(ALONE, SHARED)) {
            for (int m = 0; m < 20; m++) {
                Instant minute = day.plusSeconds(60L * m);
                for (int i = 0; i < 10; i++) {
                    latency.add(line("b-ns", "chat-b0", minute.plusSeconds(i + 1), m >= 12 && m <= 14 ? 500 : 50,
                            !(m == 13 && i == 0)));
                }
                gauges.add(gauge("b-ns", "chat-b0", minute.plusSeconds(30), 0.3));
                if (day.equals(SHARED) && m < 10) {
                    for (String pod : List.of("chat-a0", "chat-a1")) {
                        for (int i = 0; i < 10; i++) {
                            latency.add(line("a-ns", pod, minute.plusSeconds(i + 1), 900, false));
                        }
                        gauges.add(gauge("a-ns", pod, minute.plusSeconds(30), 0.99));
                    }
                }
            }
        }
        given().contentType("application/x-ndjson").body(String.join("\n", latency).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        EngineGaugeResourceTest.post(String.join("\n", gauges));
        String ttft = ", \"sli\": \"TTFT\", \"objective\": {\"percentile\": 99, \"thresholdMs\": 100, \"per\": \"MINUTE\"},"
                + " \"target\": 0.99, \"window\": \"PT1H\"}";
        SloResourceTest.create("{\"name\": \"b-chat-ttft\", \"selector\": {\"service\": \"chat\", \"namespace\":"
                + " \"b-ns\"}" + ttft);
        SloResourceTest.create("{\"name\": \"b-chat-up\", \"selector\": {\"service\": \"chat\", \"namespace\":"
                + " \"b-ns\"}, \"sli\": \"AVAILABILITY\", \"target\": 0.99, \"window\": \"PT1H\"}");
        SloResourceTest.create("{\"name\": \"a-chat-ttft\", \"selector\": {\"service\": \"chat\", \"namespace\":"
                + " \"a-ns\"}" + ttft);
        for (Instant day : List.of(ALONE, SHARED)) {
            given().queryParam("from", day.toString()).queryParam("to", end(day).toString())
                    .post("/api/v1/jitter-events/detections").then().statusCode(200);
        }
    }

    private static String line(String namespace, String pod, Instant ts, double ttftMs, boolean ok) {
        return "{\"service\":\"chat\",\"namespace\":\"" + namespace + "\",\"pod\":\"" + pod + "\",\"ts\":\"" + ts
                + "\",\"ttftMs\":" + ttftMs + ",\"ok\":" + ok + "}";
    }

    private static String gauge(String namespace, String pod, Instant ts, double kv) {
        return "{\"service\":\"chat\",\"namespace\":\"" + namespace + "\",\"pod\":\"" + pod + "\",\"ts\":\"" + ts
                + "\",\"kvCacheUsage\":" + kv + "}";
    }

    private static Instant end(Instant day) {
        return day.plus(Duration.ofMinutes(20));
    }

    private static RequestSpecification window(Instant day) {
        return given().queryParam("from", day.toString()).queryParam("to", end(day).toString());
    }

    /** An answer of the shared day as it would read on the day alone: the same times of day, ten days earlier. */
    private static String asAlone(String json) {
        return json.replace("2025-03-12", "2025-03-02");
    }

    private static JsonPath status(String slo, Instant day) {
        return given().queryParam("at", end(day).toString()).get(SLOS + "/" + slo + "/status").then().statusCode(200)
                .extract().jsonPath();
    }

    @Test
    void bsSlosReadTheSameWithTheOtherTenantsPodsOfTheSameNameAsWithout() {
        for (String slo : List.of("b-chat-ttft", "b-chat-up")) {
            String alone = given().queryParam("at", end(ALONE).toString()).get(SLOS + "/" + slo + "/status").then()
                    .statusCode(200).extract().asString();
            String shared = given().queryParam("at", end(SHARED).toString()).get(SLOS + "/" + slo + "/status").then()
                    .statusCode(200).extract().asString();
            assertEquals(alone, asAlone(shared), slo);
        }
        // what they read: 20 minutes, 10:12-10:14 over 100 ms; 200 requests, one failed
        JsonPath ttft = status("b-chat-ttft", SHARED);
        assertEquals("b-ns", ttft.getString("namespace"));
        assertEquals(20, ttft.getLong("totalEvents"));
        assertEquals(17, ttft.getLong("goodEvents"));
        // 1h: 3 bad of 20 = 15% / 1% = 15x > 14.4, but 10:15-10:19 burns nothing: no page; 30m and 6h both 15x > 6
        assertEquals(0, new java.math.BigDecimal("15").compareTo(new java.math.BigDecimal(
                ttft.getString("alerts[0].longWindow.burnRate"))));
        assertEquals(List.of(false, true, true), ttft.getList("alerts.firing"));
        JsonPath up = status("b-chat-up", SHARED);
        assertEquals(200, up.getLong("totalEvents"));
        assertEquals(199, up.getLong("goodEvents"));
        // A's own SLO sees A's pods only: every minute of 10:00-10:09 bad, on its own day alone
        JsonPath a = status("a-chat-ttft", SHARED);
        assertEquals(10, a.getLong("totalEvents"));
        assertEquals(0, a.getLong("goodEvents"));
        assertEquals(0, status("a-chat-ttft", ALONE).getLong("totalEvents"));
    }

    @Test
    void bsStatesAndBreakdownReadTheSameWithAndWithout() {
        for (String slo : List.of("b-chat-ttft", "b-chat-up")) {
            String at = "find { it.slo.name == '" + slo + "' }";
            Map<String, Object> alone = window(ALONE).queryParam("budgetPoints", "5").get("/api/v1/slo-states").then()
                    .statusCode(200).extract().jsonPath().getMap(at);
            String shared = window(SHARED).queryParam("budgetPoints", "5").get("/api/v1/slo-states").then()
                    .statusCode(200).extract().asString();
            Map<String, Object> sharedEntry = JsonPath.from(asAlone(shared)).getMap(at);
            assertNotNull(alone, slo);
            // the stored definition's times are the same object either way; its state, curve and burn-down are compared
            alone.remove("slo");
            sharedEntry.remove("slo");
            assertEquals(alone, sharedEntry, slo);
        }
        JsonPath curve = window(SHARED).get("/api/v1/slo-states").then().statusCode(200).extract().jsonPath();
        assertEquals("b-ns", curve.getString("find { it.slo.name == 'b-chat-ttft' }.latency.namespace"));
        assertEquals(200, curve.getLong("find { it.slo.name == 'b-chat-ttft' }.latency.count"));

        String alone = window(ALONE).get(SLOS + "/b-chat-ttft/breakdown").then().statusCode(200).extract().asString();
        String shared = window(SHARED).get(SLOS + "/b-chat-ttft/breakdown").then().statusCode(200).extract().asString();
        assertEquals(alone, asAlone(shared));
        assertEquals(List.of("GPU-NB"), JsonPath.from(shared).getList("byGpu.gpuUuid"));
    }

    /** B's jitter events of a day, without what tells two stored events apart (id, when detected). */
    private static List<Map<String, Object>> bsEvents(Instant day) {
        JsonPath list = window(day).queryParam("service", "chat").queryParam("namespace", "b-ns")
                .get("/api/v1/jitter-events").then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> out = new ArrayList<>();
        for (Object id : list.getList("id")) {
            String event = given().get("/api/v1/jitter-events/" + id).then().statusCode(200).extract().asString();
            Map<String, Object> e = new LinkedHashMap<>(JsonPath.from(asAlone(event)).getMap(""));
            e.remove("id");
            e.remove("detectedAt");
            e.remove("updatedAt");
            out.add(e);
        }
        return out;
    }

    @Test
    void bsJitterEventsAreTheSameWithAndWithoutAndTheOtherTenantsAreItsOwn() {
        List<Map<String, Object>> alone = bsEvents(ALONE);
        assertEquals(1, alone.size(), alone.toString());
        assertEquals(alone, bsEvents(SHARED));
        Map<String, Object> e = alone.get(0);
        assertEquals("b-chat-ttft", e.get("slo"));
        assertEquals("b-ns", e.get("namespace"));
        assertEquals("2025-03-02T10:12:00Z", e.get("start"));
        assertEquals("2025-03-02T10:15:00Z", e.get("end"));
        assertEquals(List.of("b-ns/chat-b0"), podsOf(e));
        // A's minutes are an event of A's SLO, in A's namespace
        JsonPath a = window(SHARED).queryParam("service", "chat").queryParam("namespace", "a-ns")
                .get("/api/v1/jitter-events").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("a-chat-ttft"), a.getList("slo"));
        assertEquals(List.of("2025-03-12T10:00:00Z"), a.getList("start"));
        assertEquals(List.of("2025-03-12T10:10:00Z"), a.getList("end"));
    }

    @SuppressWarnings("unchecked")
    private static List<String> podsOf(Map<String, Object> event) {
        return ((List<Map<String, Object>>) event.get("pods")).stream().map(p -> p.get("namespace") + "/" + p.get("pod"))
                .toList();
    }

    private static void asksForTheNamespace(RequestSpecification request, String path) {
        request.get(path).then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("namespace"))
                .body("detail", containsString("a-ns, b-ns"));
    }

    @Test
    void aReadNamingOnlyTheNameAsksForTheNamespaceWhereTwoReportItAndAnswersWhereOneDoes() {
        asksForTheNamespace(window(SHARED).queryParam("service", "chat").queryParam("sli", "TTFT"), "/api/v1/latency");
        asksForTheNamespace(window(SHARED).queryParam("service", "chat"), "/api/v1/engine-gauges");
        asksForTheNamespace(window(SHARED).queryParam("service", "chat"), "/api/v1/interference");
        asksForTheNamespace(window(SHARED).queryParam("service", "chat").queryParam("neighbours", "1")
                .queryParam("maxRatio", "1.5"), "/api/v1/interference/assertions");
        asksForTheNamespace(window(SHARED).queryParam("service", "chat"), "/api/v1/jitter-events");

        for (String path : List.of("/api/v1/latency", "/api/v1/engine-gauges", "/api/v1/interference")) {
            // where one namespace has the name, the name alone is enough, and reads as naming its namespace does
            String alone = window(ALONE).queryParam("service", "chat").queryParam("sli", "TTFT").get(path).then()
                    .statusCode(200).extract().asString();
            assertEquals("b-ns", JsonPath.from(alone).getString("namespace"), path);
            String named = window(SHARED).queryParam("service", "chat").queryParam("namespace", "b-ns")
                    .queryParam("sli", "TTFT").get(path).then().statusCode(200).extract().asString();
            assertEquals(alone, asAlone(named), path);
        }
        JsonPath latency = window(SHARED).queryParam("service", "chat").queryParam("namespace", "b-ns")
                .queryParam("sli", "TTFT").get("/api/v1/latency").then().statusCode(200).extract().jsonPath();
        assertEquals(200, latency.getLong("count"));
        JsonPath events = window(ALONE).queryParam("service", "chat").get("/api/v1/jitter-events").then()
                .statusCode(200).extract().jsonPath();
        assertEquals(List.of("b-ns"), events.getList("namespace"));

        // a namespace that has no such service answers nothing, never another namespace's
        window(SHARED).queryParam("service", "chat").queryParam("namespace", "c-ns").queryParam("sli", "TTFT")
                .get("/api/v1/latency").then().statusCode(200).body("count", equalTo(0))
                .body("namespace", equalTo("c-ns"));
        window(SHARED).queryParam("service", "chat").queryParam("namespace", "n".repeat(254)).queryParam("sli", "TTFT")
                .get("/api/v1/latency").then().statusCode(400).body("field", equalTo("namespace"));
    }

    @Test
    void anSloNamingOnlyTheNameOfAServiceTwoNamespacesReportIsRefused() {
        given().contentType(ContentType.JSON).body("{\"name\": \"chat-any\", \"selector\": {\"service\": \"chat\"},"
                        + " \"sli\": \"AVAILABILITY\", \"target\": 0.99, \"window\": \"PT1H\"}").post(SLOS)
                .then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("selector.namespace"))
                .body("detail", containsString("a-ns, b-ns"));
        given().get(SLOS + "/chat-any").then().statusCode(404);
        // a name that one namespace reports is taken as that namespace's service, and says so
        given().contentType(ContentType.JSON).body("{\"name\": \"nobody-up\", \"selector\": {\"service\": \"nobody\"},"
                        + " \"sli\": \"AVAILABILITY\", \"target\": 0.99, \"window\": \"PT1H\"}").post(SLOS)
                .then().statusCode(400).body("field", equalTo("selector.namespace"))
                .body("detail", containsString("no pod has reported service 'nobody'"));
    }

    @Test
    void anSloStoredBeforeNamespacesCountedIsReadWhereOneNamespaceReportsItsServiceAndAskedToNameItElsewhere() {
        pool.query("""
                INSERT INTO slo.slo_definition (name, service, sli, objective_percentile, objective_threshold_ms,
                                                objective_per, target, slo_window, created_at, updated_at)
                VALUES ('legacy-chat', 'chat', 'TTFT', 99, 100, 'MINUTE', 0.99, 'PT1H', now(), now())""")
                .execute().await().atMost(Duration.ofSeconds(30));
        try {
            assertNull(given().get(SLOS + "/legacy-chat").then().statusCode(200).extract().jsonPath()
                    .get("selector.namespace"));
            // alone, its name means b-ns's service: it reads as B's own SLO does
            JsonPath alone = status("legacy-chat", ALONE);
            assertEquals("b-ns", alone.getString("namespace"));
            JsonPath mine = status("b-chat-ttft", ALONE);
            for (String field : List.of("totalEvents", "goodEvents", "attainment", "state", "alerts")) {
                assertEquals(mine.getString(field), alone.getString(field), field);
            }
            // with A's pods of the same name it merges neither: it asks for the namespace
            given().queryParam("at", end(SHARED).toString()).get(SLOS + "/legacy-chat/status").then().statusCode(400)
                    .contentType("application/problem+json").body("field", equalTo("selector.namespace"))
                    .body("detail", containsString("a-ns, b-ns"));
            JsonPath states = window(SHARED).get("/api/v1/slo-states").then().statusCode(200).extract().jsonPath();
            assertNull(states.get("find { it.slo.name == 'legacy-chat' }.status"));
            assertEquals("selector.namespace", states.getString("find { it.slo.name == 'legacy-chat' }.problem.field"));
            assertEquals(17, states.getLong("find { it.slo.name == 'b-chat-ttft' }.status.goodEvents"));
            assertFalse(states.getMap("find { it.slo.name == 'b-chat-ttft' }").containsKey("problem"));
            // the console's SLOs page reads the states with their burn-down: one it cannot evaluate says why, and has none
            String burnDown = window(SHARED).queryParam("budgetPoints", "3").get("/api/v1/slo-states").then().statusCode(200)
                    .body("find { it.slo.name == 'legacy-chat' }.problem.field", equalTo("selector.namespace"))
                    .body("find { it.slo.name == 'b-chat-ttft' }.budgetLeft", hasSize(3)).extract().asString();
            Contract.record("slo", "slo-states-burn-down", burnDown);
            // jitter detection skips it there rather than merge the namespaces
            JsonPath detection = window(SHARED).post("/api/v1/jitter-events/detections").then().statusCode(200)
                    .extract().jsonPath();
            assertEquals(List.of("legacy-chat"), detection.getList("skipped.slo"));
            assertTrue(detection.getList("events.slo").stream().noneMatch("legacy-chat"::equals));
            // its Prometheus rules would match every namespace's chat: left out, saying why
            assertTrue(given().get(SLOS + "/rules").then().statusCode(200).extract().asString()
                    .contains("# legacy-chat skipped: its selector names no namespace"));
        } finally {
            given().delete(SLOS + "/legacy-chat").then().statusCode(204);
        }
    }
}
