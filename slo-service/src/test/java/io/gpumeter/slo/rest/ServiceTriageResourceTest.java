package io.gpumeter.slo.rest;

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
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triage of slow services through what slo-service stored, on 2026-12-14 (no other test uses the day). Namespace
 * trins (tenant t-tri), 10 requests a minute at 50 ms TTFT from 09:00; each SLO: TTFT p99 per minute at most 100 ms,
 * target 0.99 over PT1H (jitter above 2 x 100 = 200 ms):
 * <ul>
 * <li>tri-chat, pod tri-0 on GPU-T1 (node tn1): from 10:10 to 10:19 300 ms at the same rate. other/noisy-0 (a
 * PyTorchJob of tenant t-other) shares GPU-T1 from 09:30, its own DRAM_ACTIVE 0.2, then 0.9 from 10:07.</li>
 * <li>tri-load, pod load-0 on GPU-T2 (node tn2): from 10:10 to 10:19 40 requests a minute at 300 ms. other/quiet-0
 * shares GPU-T2 from 09:00, its DRAM_ACTIVE flat at 0.2.</li>
 * <li>tri-burn, pod burn-0 alone on GPU-T3 (node tn3): from 10:10 to 10:19 40 requests a minute at 150 ms: bad
 * minutes for its SLO but under the jitter limit; from 10:15 its page alert 6x over 6h and 30m fires.</li>
 * </ul>
 * The change book: tn1's driver 09:45, and the day before's label on tn1 (older than the look-back).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class ServiceTriageResourceTest {

    static final String PATH = "/api/v1/triage/diagnosis";

    static Instant at(String time) {
        return Instant.parse("2026-12-14T" + time + "Z");
    }

    private static boolean loaded;

    @BeforeEach
    void load() {
        // other tests remove every SLO before theirs
        for (String name : List.of("tri-chat", "tri-load", "tri-burn")) {
            given().delete(SloResourceTest.SLOS + "/" + name + "-ttft");
            SloResourceTest.create("{\"name\": \"" + name + "-ttft\", \"selector\": {\"service\": \"" + name + "\","
                    + " \"namespace\": \"trins\"}, \"sli\": \"TTFT\", \"objective\": {\"percentile\": 99,"
                    + " \"thresholdMs\": 100, \"per\": \"MINUTE\"}, \"target\": 0.99, \"window\": \"PT1H\"}");
        }
        if (loaded) {
            return;
        }
        loaded = true;
        Instant eight = at("08:00:00");
        LedgerStandIn.reset();
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("trins", "tri-0", "GPU-T1", "tn1", "Deployment", "tri-chat", "t-tri", eight),
                new LedgerStandIn.Unit("other", "noisy-0", "GPU-T1", "tn1", "PyTorchJob", "llama-ft", "t-other",
                        at("09:30:00")).arrivingInTheWindow(),
                new LedgerStandIn.Unit("trins", "load-0", "GPU-T2", "tn2", "Deployment", "tri-load", "t-tri", eight),
                new LedgerStandIn.Unit("other", "quiet-0", "GPU-T2", "tn2", "Deployment", "quiet", "t-other",
                        at("09:00:00")),
                new LedgerStandIn.Unit("trins", "burn-0", "GPU-T3", "tn3", "Deployment", "tri-burn", "t-tri", eight)));
        // the curves around each spell: the neighbours' own DRAM activity, none measured on GPU-T3
        List<Map<String, Object>> noisy = new ArrayList<>();
        List<Map<String, Object>> quiet = new ArrayList<>();
        for (int m = 0; m < 30; m++) {
            Instant minute = at("10:00:00").plus(Duration.ofMinutes(m));
            noisy.add(LedgerShapes.point("CONTAINER", "other/noisy-0/trainer", "DRAM_ACTIVE", minute,
                    minute.isBefore(at("10:07:00")) ? 0.2 : 0.9));
            quiet.add(LedgerShapes.point("CONTAINER", "other/quiet-0/server", "DRAM_ACTIVE", minute, 0.2));
        }
        LedgerStandIn.usage(at("10:00:00"), at("10:30:00"), Map.of("GPU-T1", noisy));
        LedgerStandIn.usage(at("10:00:00"), at("10:30:00"), Map.of("GPU-T2", quiet));
        LedgerStandIn.usage(at("10:00:00"), at("10:20:00"), Map.of("GPU-T3", List.of()));
        // the change book in the day before each instant asked: tn1's driver at 09:45 (its label of two days before is
        // older than that), nothing on tn2 and tn3
        Map<String, Object> driver = LedgerShapes.change("drv-tn1", at("09:45:00"), "c1", "tn1", "DRIVER_VERSION",
                "nvidia", "550.54.15", "560.35.03");
        LedgerStandIn.changesInAnyOrder(List.of(book("tn1", "10:10:00", driver), book("tn2", "10:10:00")));
        LedgerStandIn.changes(List.of(book("tn1", "10:15:30", driver)));
        LedgerStandIn.changes(List.of(book("tn2", "10:15:30")));
        LedgerStandIn.changes(List.of(book("tn3", "10:20:30")));

        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 80; m++) {
            Instant minute = at("09:00:00").plus(Duration.ofMinutes(m));
            boolean spell = !minute.isBefore(at("10:10:00"));
            requests(lines, "tri-chat", "tri-0", minute, 10, spell ? 300 : 50);
            requests(lines, "tri-load", "load-0", minute, spell ? 40 : 10, spell ? 300 : 50);
            requests(lines, "tri-burn", "burn-0", minute, spell ? 40 : 10, spell ? 150 : 50);
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        given().queryParam("from", at("09:00:00").toString()).queryParam("to", at("10:30:00").toString())
                .post("/api/v1/jitter-events/detections").then().statusCode(200);
    }

    /** A node's changes in the day before the instant, as a bulk read's scope answers them. */
    @SafeVarargs
    private static Map<String, Object> book(String node, String before, Map<String, Object>... changes) {
        return LedgerShapes.scope("c1", node, at(before).minus(Duration.ofDays(1)).toString(),
                at(before).plusNanos(1000).toString(), changes.length, List.of(changes));
    }

    private static void requests(List<String> lines, String service, String pod, Instant minute, int n, double ttftMs) {
        for (int i = 0; i < n; i++) {
            lines.add("{\"service\":\"" + service + "\",\"namespace\":\"trins\",\"pod\":\"" + pod + "\",\"ts\":\""
                    + minute.plusMillis(1000L + i * 1000L) + "\",\"ttftMs\":" + ttftMs + ",\"ok\":true}");
        }
    }

    static JsonPath triage(String service, String time) {
        return given().queryParam("namespace", "trins").queryParam("service", service).queryParam("at", at(time).toString())
                .get(PATH).then().statusCode(200).contentType("application/json").extract().jsonPath();
    }

    @Test
    void aServiceSlowedByANeighbourWhoseActivityRoseTriagesToInterferenceWithItsEvidence() {
        String events = jitterEvents();
        int before = LedgerStandIn.mark();
        JsonPath t = triage("tri-chat", "10:15:30");
        assertEquals(Map.of("kind", "SERVICE", "cluster", "c1", "namespace", "trins", "name", "tri-chat", "tenant", "t-tri"),
                withoutNulls(t.getMap("subject")));
        assertEquals("PERFORMANCE", t.getString("symptom"));
        assertEquals("neighbour-interference", t.getString("cause"));
        assertEquals("data-plane", t.getString("layer"));
        assertEquals("HIGH", t.getString("confidence"));
        String neighbour = t.getString("evidence.find { it.source == 'usage' }.fact");
        assertTrue(neighbour.startsWith("neighbour other/noisy-0 (namespace other, training, PyTorchJob llama-ft) on"
                + " GPU-T1 of node tn1: its own DRAM_ACTIVE rose from 0.200 to 0.900"), neighbour);
        assertTrue(t.getString("evidence.find { it.source == 'usage' }.command")
                .contains("'DCGM_FI_PROF_DRAM_ACTIVE{UUID=\"GPU-T1\",namespace=\"other\",pod=\"noisy-0\"}'"));
        // the interference factor over the hour before and the spell: alone at 50 ms until 09:30, then shared
        String factor = t.getString("evidence.find { it.fact.startsWith('interference factor') }.fact");
        java.util.regex.Matcher ratio = java.util.regex.Pattern
                .compile("with 1 other pod on its cards against 50\\.0 ms alone = x([0-9.]+)$").matcher(factor);
        assertTrue(ratio.find(), factor);
        assertEquals(6.0, Double.parseDouble(ratio.group(1)), 0.012, "300 ms against 50 ms, each within 0.1 %");
        assertTrue(t.getString("alternatives.find { it.cause == 'own-load' }.ruledOutBy")
                .startsWith("its request rate did not rise: 10 a minute against 10 before"));
        assertEquals(List.of("drv-tn1"), t.getList("changes.id"), "the day before at, on its node");
        assertEquals("560.35.03", t.getString("changes[0].to"));
        assertEquals(Map.of("last7d", 1, "firstSeen", at("10:10:00").toString()), t.getMap("recurrence"));
        assertEquals("POD", t.getString("scope.level"));
        assertTrue(t.getList("named.findAll { it.namespace == 'other' }.tenant").stream().allMatch("t-other"::equals));
        assertTrue(t.getList("named.name").contains("noisy-0"));
        for (String command : t.<String>getList("evidence.command")) {
            assertTrue(ShellWords.onlyQuoted(command), command);
        }
        assertNull(t.get("fix"));
        // bulk reads: where its pods ran, the book once, the interference factor's two placements; nothing per item
        assertEquals(2, LedgerStandIn.since(before, "/api/v1/holdings").size());
        assertEquals(1, LedgerStandIn.since(before, "/api/v1/card-holdings").size());
        assertEquals(1, LedgerStandIn.since(before, "/api/v1/changes/bulk").size());
        assertEquals(0, LedgerStandIn.since(before, "/api/v1/usage/series").size(), "the event's stored evidence names the neighbour");
        assertEquals(events, jitterEvents(), "a triage writes nothing");
    }

    @Test
    void aServiceWhoseRequestRateRoseWhileNoNeighbourChangedTriagesToItsOwnLoad() {
        JsonPath t = triage("tri-load", "10:15:30");
        assertEquals("own-load", t.getString("cause"));
        assertEquals("workload", t.getString("layer"));
        assertEquals("HIGH", t.getString("confidence"));
        String rate = t.getString("evidence.find { it.fact.startsWith('requests of trins/tri-load') }.fact");
        assertTrue(rate.startsWith("requests of trins/tri-load: 40 a minute from 2026-12-14T10:10:00Z to"
                + " 2026-12-14T10:15:00Z against 10 a minute from 2026-12-14T09:10:00Z to 2026-12-14T10:10:00Z (x4)"), rate);
        String ruledOut = t.getString("alternatives.find { it.cause == 'neighbour-interference' }.ruledOutBy");
        assertTrue(ruledOut.contains("other/quiet-0 (present 70.0 min before, its own DRAM_ACTIVE +0.000)"), ruledOut);
        assertEquals(List.of(), t.getList("changes"), "nothing changed on tn2");
    }

    @Test
    void aBurningSloWithoutAJitterEventIsReadFromItsFirstBadMinuteWithTheNeighboursAskedOfTheLedger() {
        int before = LedgerStandIn.mark();
        JsonPath t = triage("tri-burn", "10:20:30");
        assertEquals("PERFORMANCE", t.getString("symptom"));
        assertEquals("own-load", t.getString("cause"));
        // 5 bad minutes of the 75 since 09:00 in 6 h, 5 of 30 in 30 min: the 6x page alert fires first, at 10:15
        assertEquals("2026-12-14T10:15:00Z", t.getString("evidence.find { it.source == 'slo' }.at"));
        assertTrue(t.getString("evidence.find { it.source == 'slo' }.fact").startsWith("SLO tri-burn-ttft (TTFT) burning:"
                + " 6x over 6h and 30m (page;"), t.getString("evidence.find { it.source == 'slo' }.fact"));
        assertTrue(t.getList("checked").contains("the spell: 2026-12-14T10:10:00Z to 2026-12-14T10:20:00Z (from the first"
                + " bad minute of a burning SLO in the look-back)"), t.getList("checked").toString());
        assertTrue(t.getString("alternatives.find { it.cause == 'neighbour-interference' }.ruledOutBy")
                .startsWith("no other pod held its cards"));
        assertEquals(1, LedgerStandIn.since(before, "/api/v1/usage/series").size(), "its cards' curves, in one read");
    }

    @Test
    void aServiceThatWasNotSlowAnswersNoneWithWhatWasChecked() {
        JsonPath t = triage("tri-chat", "09:40:00");
        assertEquals("NONE", t.getString("symptom"));
        assertNull(t.get("cause"));
        assertEquals("t-tri", t.getString("subject.tenant"));
        assertEquals(List.of("jitter events of trins/tri-chat overlapping 2026-12-14T08:40:00Z to 2026-12-14T09:40:00Z:"
                + " none", "SLO tri-chat-ttft (TTFT): not burning from 2026-12-14T08:40:00Z to 2026-12-14T09:40:00Z (OK at"
                + " 2026-12-14T09:40:00Z)"), t.getList("checked"));
    }

    @Test
    void anUnknownServiceIsA404NamingItAndBadInputA400NamingTheField() {
        given().queryParam("namespace", "trins").queryParam("service", "nope").get(PATH).then().statusCode(404)
                .contentType("application/problem+json").body("field", equalTo("service"))
                .body("detail", containsString("'nope' in namespace 'trins'"));
        given().queryParam("namespace", "elsewhere").queryParam("service", "tri-chat").get(PATH).then().statusCode(404)
                .body("field", equalTo("service"));
        given().queryParam("service", "tri-chat").get(PATH).then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("namespace"));
        given().queryParam("namespace", "trins").queryParam("service", "tri-chat").queryParam("at", "yesterday")
                .get(PATH).then().statusCode(400).body("field", equalTo("at"));
        given().queryParam("namespace", "trins").queryParam("pod", "tri-0").get(PATH).then().statusCode(400)
                .body("field", equalTo("pod")).body("detail", containsString("inference services"));
        given().get(PATH).then().statusCode(400).body("field", equalTo("pod"));
    }

    private static String jitterEvents() {
        return given().queryParam("from", at("09:00:00").toString()).queryParam("to", at("11:00:00").toString())
                .get("/api/v1/jitter-events").then().statusCode(200).extract().asString();
    }

    private static Map<String, Object> withoutNulls(Map<String, Object> map) {
        Map<String, Object> out = new java.util.TreeMap<>();
        map.forEach((k, v) -> {
            if (v != null) {
                out.put(k, v);
            }
        });
        return out;
    }
}
