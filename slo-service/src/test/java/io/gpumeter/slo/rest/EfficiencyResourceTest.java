package io.gpumeter.slo.rest;

import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
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

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code GET /api/v1/efficiency} over 2026-12-07 10:00-11:00, the tokens sent to the engine-gauge intake and the
 * energy answered by the stand-in ledger in its GPU-hours shape, every figure worked out by hand:
 * <pre>
 * eff/chat-0  service eff-chat; counter 1,000 at 10:00:10, 73,000 at 10:30:00, 145,000 at 10:59:50: 144,000 tokens
 *             energy 54,000 J in cluster c1 (0.75 GPU-h) + 18,000 J in c2 (0.25 GPU-h) = 72,000 J (counter)
 * eff/chat-1  counter 5,000 at 10:00:10, 15,000 at 10:20:00, restarted: 2,000 at 10:20:30, 8,000 at 10:59:50:
 *             18,000 tokens; a HAMi half, 0.5 GPU-h, 36,000 J (power draw); it also reported requests
 * eff-chat    162,000 tokens / 108,000 J = 1.5 tokens/J (0.03 kWh); the pods' own ratios 2 and 0.5 average 1.25
 * eff2/chat-0 a pod of the same name in another namespace, 1,000,000 J: another service's, never counted
 * eff/part-0  service eff-part; 36,000 tokens; 1 GPU-h of which 0.5 measured, 9,000 J: 4 tokens/J at 50 % coverage
 * eff/dark-0  service eff-dark; 10,000 tokens; 1 GPU-h on a card never measured (the ledger's 0 kWh): no figure
 * </pre>
 * The ledger's one read, grouped by cluster and pod, in kWh: 54,000 J 0.015, 18,000 J 0.005, 36,000 J 0.01,
 * 1,000,000 J 0.277777778, 9,000 J 0.0025.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class EfficiencyResourceTest {

    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");
    private static final Instant T1 = Instant.parse("2026-12-07T11:00:00Z");
    private static boolean stored;

    private static Instant at(String hhmmss) {
        return Instant.parse("2026-12-07T" + hhmmss + "Z");
    }

    private static String tokens(String service, String namespace, String pod, String hhmmss, long total) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"" + namespace + "\",\"pod\":\"" + pod + "\",\"ts\":\""
                + at(hhmmss) + "\",\"generationTokensTotal\":" + total + "}";
    }

    @BeforeEach
    void storeOnce() {
        if (stored) {
            return;
        }
        stored = true;
        LedgerStandIn.reset();
        List<String> lines = new ArrayList<>(List.of(
                tokens("eff-chat", "eff", "chat-0", "10:00:10", 1_000), tokens("eff-chat", "eff", "chat-0", "10:30:00", 73_000),
                tokens("eff-chat", "eff", "chat-0", "10:59:50", 145_000),
                tokens("eff-chat", "eff", "chat-1", "10:00:10", 5_000), tokens("eff-chat", "eff", "chat-1", "10:20:00", 15_000),
                tokens("eff-chat", "eff", "chat-1", "10:20:30", 2_000), tokens("eff-chat", "eff", "chat-1", "10:59:50", 8_000),
                tokens("eff-chat", "eff2", "chat-0", "10:00:10", 0), tokens("eff-chat", "eff2", "chat-0", "10:59:50", 10),
                tokens("eff-part", "eff", "part-0", "10:00:10", 0), tokens("eff-part", "eff", "part-0", "10:59:50", 36_000),
                tokens("eff-dark", "eff", "dark-0", "10:00:10", 0), tokens("eff-dark", "eff", "dark-0", "10:59:50", 10_000)));
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges").then().statusCode(200);
        String request = "{\"service\":\"eff-chat\",\"namespace\":\"eff\",\"pod\":\"chat-1\",\"ts\":\""
                + at("10:05:00") + "\",\"ttftMs\":90,\"ok\":true}";
        given().contentType("application/x-ndjson").body(request.getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        LedgerStandIn.gpuHours(hours(), List.of(
                row("c1", "eff/chat-0", "0.75", 54_000, "1", "ENERGY_COUNTER"),
                row("c1", "eff/chat-1", "0.5", 36_000, "1", "POWER_INTEGRAL"),
                row("c1", "eff/dark-0", "1", 0, "0", null),
                row("c1", "eff/part-0", "1", 9_000, "0.5", "ENERGY_COUNTER"),
                row("c1", "eff2/chat-0", "1", 1_000_000, "1", "ENERGY_COUNTER"),
                row("c2", "eff/chat-0", "0.25", 18_000, "1", "ENERGY_COUNTER")));
    }

    /** The one read slo-service makes of the ledger for the hour: GPU-hours with energy by cluster and pod. */
    private static MappingBuilder hours() {
        return get(urlPathEqualTo(LedgerStandIn.GPU_HOURS)).withQueryParam("from", WireMock.equalTo(T0.toString()))
                .withQueryParam("to", WireMock.equalTo(T1.toString())).withQueryParam("groupBy", WireMock.equalTo("cluster,pod"));
    }

    private static Map<String, Object> row(String cluster, String pod, String allocated, long joules, String coverage,
                                           String source) {
        Map<String, String> group = new LinkedHashMap<>();
        group.put("cluster", cluster);
        group.put("pod", pod);
        return LedgerShapes.energyRow(group, allocated, joules, coverage, source);
    }

    private static JsonPath read(String service, String namespace) {
        var request = given().queryParam("service", service).queryParam("from", T0.toString())
                .queryParam("to", T1.toString());
        if (namespace != null) {
            request = request.queryParam("namespace", namespace);
        }
        return request.get("/api/v1/efficiency").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void aServicesTokensOverItsPodsEnergyFromOneLedgerRead() {
        int before = LedgerStandIn.calls(getRequestedFor(urlPathEqualTo(LedgerStandIn.GPU_HOURS))).size();
        JsonPath json = read("eff-chat", "eff");
        assertEquals(1.5, json.getDouble("tokensPerJoule"), 1e-9, "162,000 tokens / 108,000 J, not a mean of ratios");
        assertEquals(162_000, json.getDouble("tokens"), 1e-6);
        assertEquals(108_000, json.getDouble("joules"), 1e-3, "eff2/chat-0 is another namespace's pod");
        assertEquals(0.03, json.getDouble("energyKWh"), 1e-12);
        assertEquals(1.0, json.getDouble("energyCoverage"), 1e-12);
        assertEquals("ENERGY_COUNTER,POWER_INTEGRAL", json.getString("energySource"));
        assertEquals(2, json.getInt("pods"));
        assertEquals(2, json.getInt("podsCounted"));
        assertNull(json.get("missing"));
        assertEquals(List.of(), json.getList("notes"));
        assertEquals(List.of("chat-0", "chat-1"), json.getList("byPod.pod"));
        assertEquals(72_000, json.getDouble("byPod[0].joules"), 1e-3, "both clusters' rows of chat-0");
        assertEquals(18_000, json.getDouble("byPod[1].tokens"), 1e-6, "a restart counts its new reading whole");
        assertEquals(0.5, json.getDouble("byPod[1].allocatedGpuHours"), 1e-12);
        // one read of the ledger, grouped by cluster and pod, whatever the number of pods
        List<LoggedRequest> asked = LedgerStandIn.calls(getRequestedFor(urlPathEqualTo(LedgerStandIn.GPU_HOURS)));
        asked = asked.subList(before, asked.size());
        assertEquals(1, asked.size(), asked.toString());
        assertEquals("cluster,pod", asked.get(0).queryParameter("groupBy").firstValue(), asked.get(0).getUrl());
    }

    @Test
    void energyMeasuredForHalfTheHoursIsSaid() {
        JsonPath json = read("eff-part", "eff");
        assertEquals(4.0, json.getDouble("tokensPerJoule"), 1e-9, "36,000 tokens over the 9,000 J measured");
        assertEquals(0.5, json.getDouble("energyCoverage"), 1e-12);
        assertTrue(json.getString("notes[0]").startsWith("energy was measured for 50 % of the counted pods' allocated"
                + " GPU-hours"), json.getString("notes[0]"));
    }

    @Test
    void noEnergyIsNullWithTheReasonNeverZero() {
        JsonPath json = read("eff-dark", "eff");
        assertTrue(json.getMap("").containsKey("tokensPerJoule"), "the figure is answered, as null");
        assertNull(json.get("tokensPerJoule"));
        assertNull(json.get("joules"));
        assertEquals(10_000, json.getDouble("byPod[0].tokens"), 1e-6);
        assertEquals("the ledger measured no energy for [eff/dark-0] in the window (no DCGM total-energy counter or"
                + " power draw on their cards, or no GPU-hours of them)", json.getString("missing"));
        assertEquals("the ledger measured no energy on its cards (no DCGM total-energy counter or power draw)",
                json.getString("byPod[0].leftOutBecause"));
    }

    @Test
    void aLedgerThatDoesNotAnswerLeavesTheFigureOutAndSaysSo() {
        StubMapping failing = LedgerStandIn.failing(hours());
        try {
            JsonPath json = read("eff-chat", "eff");
            assertNull(json.get("tokensPerJoule"));
            assertTrue(json.getString("missing").startsWith("the ledger's GPU-hours could not be read (no answer"),
                    json.getString("missing"));
        } finally {
            LedgerStandIn.remove(failing);
        }
    }

    @Test
    void theNamespaceIsTheOnlyOneReportingTheServiceElseItIsAsked() {
        JsonPath json = read("eff-part", null);
        assertEquals("eff", json.getString("namespace"));
        assertEquals(4.0, json.getDouble("tokensPerJoule"), 1e-9);
        given().queryParam("service", "eff-chat").queryParam("from", T0.toString()).queryParam("to", T1.toString())
                .get("/api/v1/efficiency").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("namespace")).body("detail", containsString("eff, eff2"));
        JsonPath unknown = read("eff-nobody", null);
        assertNull(unknown.get("tokensPerJoule"));
        assertEquals("no pod reported the service's requests or engine gauges in the window",
                unknown.getString("missing"));
    }

    @Test
    void badParametersAreProblemsNamingTheField() {
        given().queryParam("from", T0.toString()).queryParam("to", T1.toString()).get("/api/v1/efficiency").then()
                .statusCode(400).contentType("application/problem+json").body("field", equalTo("service"));
        given().queryParam("service", "eff-chat").queryParam("from", "yesterday").queryParam("to", T1.toString())
                .get("/api/v1/efficiency").then().statusCode(400).body("field", equalTo("from"));
        given().queryParam("service", "eff-chat").queryParam("from", "2026-11-01T00:00:00Z")
                .queryParam("to", T1.toString()).get("/api/v1/efficiency").then().statusCode(400)
                .body("field", equalTo("to"));
    }
}
