package io.gpumeter.slo.rest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import io.gpumeter.common.shell.ShellWords;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host and the card as jitter suspects and triage causes, through slo-service's REST and the stand-in ledger, on
 * 2026-12-21 (no other test uses the day). Namespace hostns (tenant t-host), 10 requests a minute at 50 ms TTFT from
 * 09:00, 300 ms from 10:10 to 10:19; each SLO: TTFT p99 per minute at most 100 ms (jitter above 200 ms):
 * <ul>
 * <li>cpu-bound, pod cpu-0 on GPU-H1 (node hn1), beside other/steady-0 (there since 08:00, its own DRAM_ACTIVE flat
 * at 0.2): its container's CFS throttling 0.02 of its periods until 10:06, 0.6 from 10:07; hn1's pressure flat.</li>
 * <li>capped, pod cap-0 alone on GPU-H2 (node hn2): the card's software power cap active in none of its samples until
 * 10:06, in all from 10:07, its power violation counter 0.8 s a second then; its host flat.</li>
 * <li>blind, pod blind-0 alone on GPU-H3 (node hn3): no host series at all, and of the card only the raw
 * THROTTLE_REASONS bitmask.</li>
 * </ul>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class HostSuspectsResourceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static boolean loaded;

    static Instant at(String time) {
        return Instant.parse("2026-12-21T" + time + "Z");
    }

    @BeforeEach
    void load() {
        // other tests remove every SLO before theirs
        for (String name : List.of("cpu-bound", "capped", "blind")) {
            given().delete(SloResourceTest.SLOS + "/" + name + "-ttft");
            SloResourceTest.create("{\"name\": \"" + name + "-ttft\", \"selector\": {\"service\": \"" + name + "\","
                    + " \"namespace\": \"hostns\"}, \"sli\": \"TTFT\", \"objective\": {\"percentile\": 99,"
                    + " \"thresholdMs\": 100, \"per\": \"MINUTE\"}, \"target\": 0.99, \"window\": \"PT1H\"}");
        }
        if (loaded) {
            return;
        }
        loaded = true;
        Instant eight = at("08:00:00");
        LedgerStandIn.reset();
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("hostns", "cpu-0", "GPU-H1", "hn1", "Deployment", "cpu-bound", "t-host", eight),
                new LedgerStandIn.Unit("other", "steady-0", "GPU-H1", "hn1", "Deployment", "steady", "t-other", eight),
                new LedgerStandIn.Unit("hostns", "cap-0", "GPU-H2", "hn2", "Deployment", "capped", "t-host", eight),
                new LedgerStandIn.Unit("hostns", "blind-0", "GPU-H3", "hn3", "Deployment", "blind", "t-host", eight)));
        // each event's curves read 10:00 to 10:30, card and host alike
        Instant from = at("10:00:00");
        Instant to = at("10:30:00");
        Map<String, List<Map<String, Object>>> cards = new LinkedHashMap<>();
        for (String gpu : List.of("GPU-H1", "GPU-H2", "GPU-H3")) {
            cards.put(gpu, new ArrayList<>());
        }
        for (Instant minute = from; minute.isBefore(to); minute = minute.plus(Duration.ofMinutes(1))) {
            double cap = recent(minute) ? 1 : 0;
            cards.get("GPU-H1").add(LedgerShapes.point("CONTAINER", "other/steady-0/server", "DRAM_ACTIVE", minute, 0.2));
            for (String gpu : List.of("GPU-H1", "GPU-H2")) {
                double capped = gpu.equals("GPU-H2") ? cap : 0;
                cards.get(gpu).add(LedgerShapes.point("DEVICE", "", "CLOCKS_EVENT_SW_POWER_CAP", minute, capped));
                cards.get(gpu).add(LedgerShapes.point("DEVICE", "", "CLOCKS_EVENT_HW_THERMAL_SLOWDOWN", minute, 0));
                cards.get(gpu).add(LedgerShapes.point("DEVICE", "", "CLOCKS_EVENT_SYNC_BOOST", minute, 1));
                cards.get(gpu).add(LedgerShapes.point("DEVICE", "", "POWER_VIOLATION_S", minute, capped * 0.8));
            }
            cards.get("GPU-H3").add(LedgerShapes.point("DEVICE", "", "THROTTLE_REASONS", minute, 4));
        }
        cards.forEach((gpu, points) -> LedgerStandIn.usage(from, to, Map.of(gpu, points)));
        host("cpu-0", "hn1", from, to, true);
        host("cap-0", "hn2", from, to, false);
        LedgerStandIn.host(from, to, List.of("hostns/blind-0"), List.of("hn3"), List.of(), List.of());
        // nothing in the change book of the three nodes before the spell or the triage
        for (String node : List.of("hn1", "hn2", "hn3")) {
            for (String before : List.of("10:10:00", "10:15:30")) {
                LedgerStandIn.changes(List.of(LedgerShapes.scope("c1", node,
                        at(before).minus(Duration.ofDays(1)).toString(), at(before).plusNanos(1000).toString(), 0,
                        List.of())));
            }
        }

        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 80; m++) {
            Instant minute = at("09:00:00").plus(Duration.ofMinutes(m));
            boolean spell = !minute.isBefore(at("10:10:00"));
            for (String[] s : new String[][]{{"cpu-bound", "cpu-0"}, {"capped", "cap-0"}, {"blind", "blind-0"}}) {
                for (int i = 0; i < 10; i++) {
                    lines.add("{\"service\":\"" + s[0] + "\",\"namespace\":\"hostns\",\"pod\":\"" + s[1] + "\",\"ts\":\""
                            + minute.plusMillis(1000L + i * 1000L) + "\",\"ttftMs\":" + (spell ? 300 : 50) + ",\"ok\":true}");
                }
            }
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        int before = LedgerStandIn.mark();
        JsonPath d = given().queryParam("from", at("09:00:00").toString()).queryParam("to", at("10:30:00").toString())
                .post("/api/v1/jitter-events/detections").then().statusCode(200).extract().jsonPath();
        int events = d.getList("events").size();
        assertEquals(3, events, d.prettify());
        // one host read and one usage read per event, whatever the number of pods, nodes and cards
        assertEquals(events, LedgerStandIn.since(before, "/api/v1/host/series").size());
        assertEquals(events, LedgerStandIn.since(before, "/api/v1/usage/series").size());
    }

    /** From 10:07 to 10:19 the CPU-bound pod is throttled and the capped card is at its power cap. */
    private static boolean recent(Instant minute) {
        return !minute.isBefore(at("10:07:00")) && minute.isBefore(at("10:20:00"));
    }

    /**
     * The host read of one pod and its node: the pod's own minutes (container "", its network) and its server
     * container's (its CFS periods, throttled 0.6 of them when {@code throttles} and recent, else 0.02), then the node's
     * flat pressures — the ledger's order, by container, then time.
     */
    private static void host(String pod, String node, Instant from, Instant to, boolean throttles) {
        List<Map<String, Object>> own = new ArrayList<>();
        List<Map<String, Object>> server = new ArrayList<>();
        List<Map<String, Object>> nodes = new ArrayList<>();
        for (Instant minute = from; minute.isBefore(to); minute = minute.plus(Duration.ofMinutes(1))) {
            double share = throttles && recent(minute) ? 0.6 : 0.02;
            own.add(LedgerShapes.containerMinute("hostns", pod, "", node, minute, 60, 30d, null, null, null, 3000d, 3000d));
            server.add(LedgerShapes.containerMinute("hostns", pod, "server", node, minute, 60, 30d, 600d, 600 * share, 1d,
                    null, null));
            nodes.add(LedgerShapes.nodeMinute(node, minute, 60, 3d, 0.6, 300_000d, 300_000d));
        }
        own.addAll(server);
        LedgerStandIn.host(from, to, List.of("hostns/" + pod), List.of(node), own, nodes);
    }

    private static JsonPath event(String service) {
        long id = given().queryParam("from", at("10:00:00").toString()).queryParam("to", at("11:00:00").toString())
                .queryParam("service", service).queryParam("namespace", "hostns").get("/api/v1/jitter-events")
                .then().statusCode(200).extract().jsonPath().getLong("[0].id");
        return given().get("/api/v1/jitter-events/" + id).then().statusCode(200).extract().jsonPath();
    }

    private static JsonPath triage(String service) {
        return given().queryParam("namespace", "hostns").queryParam("service", service)
                .queryParam("at", at("10:15:30").toString()).get(ServiceTriageResourceTest.PATH).then().statusCode(200)
                .extract().jsonPath();
    }

    @Test
    void aCpuThrottledServicesTopSuspectIsItsOwnCpuWithItsCurveOnTheEventsAxisAndItTriagesToCpuSaturated()
            throws Exception {
        JsonPath e = event("cpu-bound");
        assertEquals("2026-12-21T10:10:00Z", e.getString("start"));
        assertEquals("cpu-throttling:hostns/cpu-0", e.getString("suspects[0].key"));
        assertEquals("cpu-throttling", e.getString("suspects[0].kind"));
        assertEquals("cpu-saturated", e.getString("suspects[0].cause"));
        // 0.02 before 10:07; 0.6 over 10:07-10:10: ramp 0.58, no arrival
        assertEquals(0.58, e.getDouble("suspects[0].score"), 1e-9);
        assertEquals(0.0, e.getDouble("suspects[0].arrival"), 1e-9);
        // the neighbour, there two hours and flat, ranked by the same rule beside the host's flat pressures
        assertTrue(e.getList("suspects.key").contains("other/steady-0"));
        assertEquals(0.0, e.getDouble("suspects.find { it.key == 'other/steady-0' }.score"), 1e-9);
        assertEquals(List.of("card-clocks:GPU-H1", "cpu-throttling:hostns/cpu-0", "network:hostns/cpu-0",
                "node-cpu-pressure:hn1", "node-io-pressure:hn1"), e.getList("pressures.key").stream().sorted().toList());
        // its curve on the event's axis, in the neighbours' shape: a point a minute from curveFrom to curveTo
        String cpu = "pressures.find { it.kind == 'cpu-throttling' }.curves.CFS_THROTTLED_RATIO";
        assertEquals("CONTAINER", e.getString(cpu + ".scope"));
        List<String> minutes = e.getList(cpu + ".points.minute");
        assertEquals(30, minutes.size());
        assertEquals(e.getString("curveFrom"), minutes.get(0));
        assertEquals("2026-12-21T10:29:00Z", minutes.get(29));
        assertEquals(0.02, e.getDouble(cpu + ".points[0].mean"), 1e-9);
        assertEquals(0.6, e.getDouble(cpu + ".points[7].mean"), 1e-9);
        // the card: power and heat only, never the sync boost it also reports
        assertEquals(List.of("CLOCKS_EVENT_HW_THERMAL_SLOWDOWN", "CLOCKS_EVENT_SW_POWER_CAP", "POWER_VIOLATION_S"),
                e.<String, Object>getMap("pressures.find { it.kind == 'card-clocks' }.curves").keySet().stream().sorted()
                        .toList());
        assertEquals(List.of(), e.getList("unmeasured"));
        assertEquals(List.of(), e.getList("gaps"));

        int before = LedgerStandIn.mark();
        JsonPath t = triage("cpu-bound");
        assertEquals("cpu-saturated", t.getString("cause"));
        assertEquals("workload", t.getString("layer"));
        assertEquals("HIGH", t.getString("confidence"));
        String fact = t.getString("evidence.find { it.source == 'host' }.fact");
        assertTrue(fact.startsWith("the CFS throttling of its pod hostns/cpu-0: CFS_THROTTLED_RATIO rose from 0.020 to"
                + " 0.600 in the 3 min before the spell (+0.580); suspect 1 of 6"), fact);
        for (String command : t.<String>getList("evidence.command")) {
            assertTrue(ShellWords.onlyQuoted(command), command);
        }
        assertTrue(t.getString("alternatives.find { it.cause == 'neighbour-interference' }.ruledOutBy")
                .contains("other/steady-0"));
        assertTrue(t.getString("alternatives.find { it.cause == 'io-wait' }.ruledOutBy")
                .startsWith("its nodes' I/O pressure did not rise by 0.1"));
        assertEquals(0, LedgerStandIn.since(before, "/api/v1/host/series").size(), "the event's stored evidence holds the host");
    }

    @Test
    void aPowerCappedCardsServiceTriagesToPowerOrThermal() {
        JsonPath e = event("capped");
        assertEquals("card-clocks:GPU-H2", e.getString("suspects[0].key"));
        assertEquals(1.0, e.getDouble("suspects[0].ramp"), 1e-9);
        JsonPath t = triage("capped");
        assertEquals("power-or-thermal", t.getString("cause"));
        assertEquals("data-plane", t.getString("layer"));
        assertTrue(t.getString("evidence.find { it.source == 'usage' }.fact").startsWith("the power and thermal"
                + " slowdowns of card GPU-H2: CLOCKS_EVENT_SW_POWER_CAP rose from 0.000 to 1.000"));
        assertTrue(t.getString("evidence.find { it.source == 'usage' }.command")
                .contains("'/api/v1/gpus/GPU-H2/throttling?from="));
        assertTrue(t.getString("alternatives.find { it.cause == 'cpu-saturated' }.ruledOutBy")
                .contains("the CFS throttling of its pod hostns/cap-0 CFS_THROTTLED_RATIO 0.020 to 0.020 (+0.000)"));
    }

    @Test
    void withoutHostDataTheEventSaysWhatItCouldNotMeasureAndTheTriageWhatIsMissing() throws Exception {
        JsonPath e = event("blind");
        assertEquals(List.of(), e.getList("pressures"));
        assertEquals(List.of("cpu-throttling", "network", "node-cpu-pressure", "node-io-pressure", "card-clocks"),
                e.getList("unmeasured.kind"));
        assertTrue(e.getString("unmeasured.find { it.kind == 'card-clocks' }.missing")
                .contains("only the raw THROTTLE_REASONS bitmask"));
        // the host read asked what the ledger takes: the cluster, the window of the curves, the pod and its node
        JsonNode asked = LedgerStandIn.calls(postRequestedFor(urlPathEqualTo("/api/v1/host/series"))).stream()
                .map(r -> tree(r.getBodyAsString()))
                .filter(r -> r.path("pods").toString().contains("hostns/blind-0")).findFirst().orElseThrow();
        assertEquals("c1", asked.path("cluster").asText());
        assertEquals(e.getString("curveFrom"), asked.path("from").asText());
        assertEquals(e.getString("curveTo"), asked.path("to").asText());
        assertEquals("[\"hostns/blind-0\"]", asked.path("pods").toString());
        assertEquals("[\"hn3\"]", asked.path("nodes").toString());

        JsonPath t = triage("blind");
        assertEquals("unexplained", t.getString("cause"));
        assertEquals("LOW", t.getString("confidence"));
        List<String> checked = t.getList("checked");
        assertTrue(checked.contains("host and card around the spell: nothing measured"), checked.toString());
        assertTrue(checked.stream().anyMatch(c -> c.startsWith("could not rule out cpu-saturated: no CFS periods of pod"
                + " hostns/blind-0")), checked.toString());
        assertTrue(checked.stream().anyMatch(c -> c.startsWith("could not rule out power-or-thermal: ")
                && c.contains("only the raw THROTTLE_REASONS bitmask")), checked.toString());
        assertNull(t.get("alternatives.find { it.cause == 'io-wait' }.ruledOutBy"));
    }

    @Test
    void aLedgerThatFailsItsHostReadLeavesTheEventWithWhatCouldNotBeMeasured() {
        StubMapping failing = LedgerStandIn.failing(post(urlPathEqualTo("/api/v1/host/series"))
                .withRequestBody(matchingJsonPath("$.pods[?(@ == 'hostns/cpu-0')]")));
        try {
            int before = LedgerStandIn.mark();
            JsonPath d = given().queryParam("from", at("10:10:00").toString()).queryParam("to", at("10:20:00").toString())
                    .post("/api/v1/jitter-events/detections").then().statusCode(200).extract().jsonPath();
            assertEquals(3, d.getList("events").size());
            assertTrue(LedgerStandIn.since(before, "/api/v1/host/series").size() >= 3, "each event's, the failing one retried");
            JsonPath e = event("cpu-bound");
            assertEquals(List.of("card-clocks:GPU-H1"), e.getList("pressures.key"));
            assertTrue(e.getList("unmeasured.missing").stream().allMatch(m -> ((String) m)
                    .startsWith("the ledger's host series could not be read")), e.getList("unmeasured").toString());
            assertEquals(4, e.getList("unmeasured").size());
            assertEquals(List.of("steady-0"), e.getList("neighbours.pod"), "the neighbours read as before");
            assertEquals("card-clocks:GPU-H2", event("capped").getString("suspects[0].key"), "another event's read");
        } finally {
            LedgerStandIn.remove(failing);
            // the events as the other tests read them
            given().queryParam("from", at("09:00:00").toString()).queryParam("to", at("10:30:00").toString())
                    .post("/api/v1/jitter-events/detections").then().statusCode(200);
        }
    }

    private static JsonNode tree(String json) {
        try {
            return JSON.readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
