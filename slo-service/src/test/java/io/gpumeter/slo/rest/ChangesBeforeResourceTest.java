package io.gpumeter.slo.rest;

import com.github.tomakehurst.wiremock.stubbing.StubMapping;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.StandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What changed before a jitter event or a burning SLO, and a change's jitter impact, on 2026-11-07 (D; no other test
 * uses the day). Service chgns/chg-svc: pod chg-0 on node n1, chg-1 on n2 (cluster c1), 3 requests a minute each,
 * TTFT 300 ms in 10:00-10:02 and 12:00-12:02, 50 ms in 10:03-10:09 and 12:03-12:05. SLO chg-ttft: p99 per minute at
 * most 100 ms, target 0.99 over PT1H; jitter factor 2 (limit 200 ms): events A (10:00-10:03) and B (12:00-12:03).
 * The change book (c1 unless said):
 * <pre>
 * n1  DRIVER_VERSION 09:00; NODE_LABEL D-2d 09:00 (older than the day); MIG_LAYOUT 11:00
 * n2  NODE_LABEL example.com/rev r0..r10 at 08:00..08:10
 * --  COMPONENT_VERSION 09:30 (cluster-wide)
 * n3  NODE_CORDONED 09:45 (no pod of the service there); c2: a cluster-wide change 09:50
 * A (10:00) -> component 09:30, driver 09:00, r10..r3         (10, the newest first)
 * B (12:00) and the status at 12:06:30 (50% bad: the alerts fire) -> MIG 11:00, component, driver, r10..r4
 * </pre>
 * Jitter impact (GPU-hours before/after as the ledger answers): the MIG change with from 09:00 -> [09:00, 11:00) A,
 * [11:00, 13:00) B; n3's cordon touches none; the cluster-wide component change with to 11:00 -> [08:00, 09:30)
 * nothing, [09:30, 11:00) A.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class ChangesBeforeResourceTest {

    static final String DAY = "2026-11-07T";
    static final String SLO = "chg-ttft";

    static Instant at(String time) {
        return Instant.parse(DAY + time + "Z");
    }

    /** A change of the book on the day (or, for time "D-2d", two days before 09:00). */
    static Map<String, Object> change(String id, String time, String cluster, String node, String kind, String after) {
        return LedgerShapes.change(id, time.startsWith("D") ? at("09:00:00").minus(Duration.ofDays(2)) : at(time),
                cluster, node, kind, kind.equals("NODE_LABEL") ? "example.com/rev" : null, null, after);
    }

    static final Map<String, Object> DRIVER = change("drv-n1", "09:00:00", "c1", "n1", "DRIVER_VERSION", "560.35.03");
    static final Map<String, Object> MIG = change("mig-n1", "11:00:00", "c1", "n1", "MIG_LAYOUT", "all-1g.10gb");
    static final Map<String, Object> COMPONENT = change("component", "09:30:00", "c1", null, "COMPONENT_VERSION", "v0.15.0");
    static final Map<String, Object> CORDON = change("cordon-n3", "09:45:00", "c1", "n3", "NODE_CORDONED", "cordoned");

    /** Label r{@code i} of n2, at 08:0i. */
    static Map<String, Object> rev(int i) {
        return change("rev-" + i, "08:" + (i < 10 ? "0" + i : i) + ":00", "c1", "n2", "NODE_LABEL", "r" + i);
    }

    /**
     * What the book holds for n1 and n2 in the day before {@code before} (its look-back), the newest ten of each: n1's
     * own and the cluster-wide one; n2's eleven labels and the cluster-wide one. The label of two days before, n3's
     * cordon and c2's change are in no scope.
     */
    static List<Map<String, Object>> scopesBefore(String before) {
        String from = at(before).minus(Duration.ofDays(1)).toString();
        String to = at(before).plusNanos(1000).toString();
        List<Map<String, Object>> n1 = new ArrayList<>();
        if (at(before).isAfter(MIG_AT)) {
            n1.add(MIG);
        }
        n1.add(COMPONENT);
        n1.add(DRIVER);
        List<Map<String, Object>> n2 = new ArrayList<>(List.of(COMPONENT));
        for (int i = 10; i >= 2; i--) {
            n2.add(rev(i));
        }
        return List.of(LedgerShapes.scope("c1", "n1", from, to, n1.size(), n1),
                LedgerShapes.scope("c1", "n2", from, to, 12, n2));
    }

    static final Instant MIG_AT = at("11:00:00");

    /** The two scopes as they are, or the other way round. */
    static List<Map<String, Object>> inOrder(List<Map<String, Object>> two, boolean swapped) {
        return swapped ? List.of(two.get(1), two.get(0)) : two;
    }

    private static boolean loaded;

    @BeforeEach
    void load() {
        given().delete(SloResourceTest.SLOS + "/" + SLO);
        SloResourceTest.create("{\"name\": \"" + SLO + "\", \"selector\": {\"service\": \"chg-svc\", \"namespace\": \"chgns\"},"
                + " \"sli\": \"TTFT\", \"objective\": {\"percentile\": 99, \"thresholdMs\": 100, \"per\": \"MINUTE\"},"
                + " \"target\": 0.99, \"window\": \"PT1H\"}");
        if (loaded) {
            return;
        }
        loaded = true;
        LedgerStandIn.reset();
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("chgns", "chg-0", "GPU-N1", "n1", "Deployment", "chg-svc", "t-chg", at("08:00:00")),
                new LedgerStandIn.Unit("chgns", "chg-1", "GPU-N2", "n2", "Deployment", "chg-svc", "t-chg", at("08:00:00"))));
        // the events' page asks before both events at once, an event alone or a status before its own start; a subject's
        // nodes come in any order
        for (boolean swapA : List.of(false, true)) {
            for (boolean swapB : List.of(false, true)) {
                List<Map<String, Object>> page = new ArrayList<>(inOrder(scopesBefore("10:00:00"), swapA));
                page.addAll(inOrder(scopesBefore("12:00:00"), swapB));
                LedgerStandIn.changes(page);
            }
        }
        LedgerStandIn.changesInAnyOrder(scopesBefore("12:00:00"));
        LedgerStandIn.changesInAnyOrder(scopesBefore("12:06:00"));
        impacts();

        List<String> lines = new ArrayList<>();
        for (String hour : List.of("10", "12")) {
            for (int m = 0; m < (hour.equals("10") ? 10 : 6); m++) {
                for (int p = 0; p < 2; p++) {
                    for (int i = 0; i < 3; i++) {
                        lines.add("{\"service\":\"chg-svc\",\"namespace\":\"chgns\",\"pod\":\"chg-" + p + "\",\"ts\":\""
                                + at(hour + ":0" + m + ":1" + i) + "\",\"ttftMs\":" + (m < 3 ? 300 : 50) + ",\"ok\":true}");
                    }
                }
            }
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        given().queryParam("from", at("09:00:00").toString()).queryParam("to", at("13:00:00").toString())
                .post("/api/v1/jitter-events/detections").then().statusCode(200);
    }

    private static StubMapping failingBook;

    @AfterEach
    void ledgerAnswersAgain() {
        if (failingBook != null) {
            LedgerStandIn.remove(failingBook);
            failingBook = null;
        }
    }

    /**
     * The ledger's answers about a change's impact, for the windows the tests ask: the GPU-hours its node's pods held
     * before and after (2 and 4 around the MIG change, none around the others), no failures; a cluster-wide change
     * touches the nodes of the cluster, n1 and n2.
     */
    private static void impacts() {
        impact("mig-n1", "from", "09:00:00", List.of("n1"), MIG, at("09:00:00"), at("13:00:00"), 2.0, 4.0);
        impact("mig-n1", "from", at("09:00:00").minus(Duration.ofDays(10)).toString(), List.of("n1"), MIG,
                at("09:00:00").minus(Duration.ofDays(10)), at("13:00:00").plus(Duration.ofDays(10)), 2.0, 4.0);
        impact("cordon-n3", "from", "09:00:00", List.of("n3"), CORDON, at("09:00:00"), at("10:30:00"), 0.0, 0.0);
        impact("component", "to", "11:00:00", List.of("n1", "n2"), COMPONENT, at("08:00:00"), at("11:00:00"), 0.0, 0.0);
        LedgerStandIn.refusing(get(urlPathEqualTo("/api/v1/changes/mig-n1/impact"))
                        .withQueryParam("from", equalTo(at("11:30:00").toString())), 400, "Bad Request", "from",
                "from must be before the change at " + MIG_AT);
        LedgerStandIn.refusing(get(urlPathEqualTo("/api/v1/changes/nope/impact")), 404, "Not Found", "id",
                "no change nope");
    }

    /** The impact read of a change asked with one bound ("from" or "to", a time of the day or an instant). */
    private static void impact(String id, String bound, String value, List<String> nodes, Map<String, Object> change,
                               Instant start, Instant end, double before, double after) {
        String asked = value.contains("T") ? value : at(value).toString();
        Instant at = Instant.parse((String) change.get("at"));
        LedgerStandIn.answer(get(urlPathEqualTo("/api/v1/changes/" + id + "/impact")).withQueryParam(bound, equalTo(asked)),
                "change-impact", StandIn.text(Map.of("change", change, "nodes", nodes,
                        "before", Map.of("from", start.toString(), "to", at.toString(), "gpuHours", before, "failures", 0),
                        "after", Map.of("from", at.toString(), "to", end.toString(), "gpuHours", after, "failures", 0))));
    }

    static JsonPath events() {
        return given().queryParam("from", at("09:00:00").toString()).queryParam("to", at("13:00:00").toString())
                .queryParam("service", "chg-svc").queryParam("namespace", "chgns").get("/api/v1/jitter-events")
                .then().statusCode(200).extract().jsonPath();
    }

    static List<String> revs(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i >= to; i--) {
            out.add("rev-" + i);
        }
        return out;
    }

    static List<String> ids(String... first) {
        return new ArrayList<>(List.of(first));
    }

    @Test
    void eachJitterEventCarriesTheNewestTenChangesOfItsNodesAndClusterBeforeItsStart() {
        int before = LedgerStandIn.mark();
        JsonPath page = events();
        assertEquals(List.of(at("10:00:00").toString(), at("12:00:00").toString()), page.getList("start"));
        List<String> a = ids("component", "drv-n1");
        a.addAll(revs(10, 3));
        assertEquals(a, page.getList("[0].changesBefore.id"));
        assertEquals("COMPONENT_VERSION", page.getString("[0].changesBefore[0].kind"));
        assertNull(page.get("[0].changesBefore[0].node"));
        assertNull(page.get("[0].changesBeforeNote"));
        List<String> b = ids("mig-n1", "component", "drv-n1");
        b.addAll(revs(10, 4));
        assertEquals(b, page.getList("[1].changesBefore.id"));
        // the page: one read of where its pods ran, one read of the book, whatever the number of events and nodes
        assertEquals(1, LedgerStandIn.since(before, "/api/v1/holdings").size());
        assertEquals(1, LedgerStandIn.since(before, "/api/v1/changes/bulk").size());

        long id = page.getLong("[1].id");
        JsonPath one = given().get("/api/v1/jitter-events/" + id).then().statusCode(200).extract().jsonPath();
        assertEquals(b, one.getList("changesBefore.id"));
        assertEquals("all-1g.10gb", one.getString("changesBefore[0].after"));
    }

    @Test
    void aBurningSloCarriesTheChangesBeforeItsStatusButNotForATenant() {
        JsonPath status = given().queryParam("at", at("12:06:30").toString()).get(SloResourceTest.SLOS + "/" + SLO + "/status")
                .then().statusCode(200).extract().jsonPath();
        assertTrue(status.getList("alerts.firing", Boolean.class).contains(true), status.prettify());
        List<String> b = ids("mig-n1", "component", "drv-n1");
        b.addAll(revs(10, 4));
        assertEquals(b, status.getList("changesBefore.id"));

        JsonPath states = given().queryParam("from", at("11:06:00").toString()).queryParam("to", at("12:06:30").toString())
                .get("/api/v1/slo-states").then().statusCode(200).extract().jsonPath();
        assertEquals(b, states.getList("find { it.slo.name == '" + SLO + "' }.status.changesBefore.id"));

        // before the service's first bad minute nothing fires, and nothing is read
        JsonPath calm = given().queryParam("at", at("10:00:30").toString()).get(SloResourceTest.SLOS + "/" + SLO + "/status")
                .then().statusCode(200).extract().jsonPath();
        assertFalse(calm.getList("alerts.firing", Boolean.class).contains(true));
        assertNull(calm.get("changesBefore"));

        int before = LedgerStandIn.mark();
        String tenant = given().queryParam("from", at("11:06:00").toString()).queryParam("to", at("12:06:30").toString())
                .queryParam("tenant", "t-chg").get("/api/v1/slo-states").then().statusCode(200).extract().asString();
        assertFalse(tenant.contains("changesBefore"), tenant);
        assertEquals(0, LedgerStandIn.since(before, "/api/v1/changes/bulk").size(), "a tenant's read never reads the fleet's book");
    }

    @Test
    void aLedgerThatDoesNotAnswerLeavesTheChangesOutWithANote() {
        failingBook = LedgerStandIn.failing(post(urlPathEqualTo("/api/v1/changes/bulk")));
        JsonPath page = events();
        assertEquals(2, page.getList("id").size(), "the events are answered");
        assertNull(page.get("[0].changesBefore"));
        assertTrue(page.getString("[0].changesBeforeNote").startsWith("ledger: the changes before could not be read"),
                page.getString("[0].changesBeforeNote"));
        JsonPath status = given().queryParam("at", at("12:06:30").toString()).get(SloResourceTest.SLOS + "/" + SLO + "/status")
                .then().statusCode(200).extract().jsonPath();
        assertEquals("PAGE", status.getString("state"));
        assertNull(status.get("changesBefore"));
        assertTrue(status.getString("changesBeforeNote").contains("could not be read"));
    }

    @Test
    void aChangesJitterImpactCountsTheEventsOnTheNodesItTouched() {
        JsonPath mig = given().queryParam("from", at("09:00:00").toString()).get("/api/v1/changes/mig-n1/jitter-impact")
                .then().statusCode(200).extract().jsonPath();
        assertEquals("MIG_LAYOUT", mig.getString("change.kind"));
        assertEquals(List.of("n1"), mig.getList("nodes"));
        assertEquals(at("11:00:00").toString(), mig.getString("before.to"));
        assertEquals(at("13:00:00").toString(), mig.getString("after.to"));
        assertEquals(1, mig.getInt("before.jitterEvents"));
        assertEquals(3, mig.getInt("before.badMinutes"));
        assertEquals(1, mig.getInt("after.jitterEvents"));
        assertEquals(Map.of("namespace", "chgns", "service", "chg-svc", "events", 1, "badMinutes", 3),
                mig.getMap("before.byService[0]"));
        assertEquals(2.0f, mig.getFloat("before.gpuHours"));
        assertEquals(500, mig.getInt("before.ratePer1000GpuHours"));
        assertEquals(250, mig.getInt("after.ratePer1000GpuHours"));

        JsonPath cordon = given().queryParam("from", at("09:00:00").toString()).get("/api/v1/changes/cordon-n3/jitter-impact")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(0, cordon.getInt("before.jitterEvents"));
        assertEquals(0, cordon.getInt("after.jitterEvents"), "event A ran on n1 and n2, not n3");

        JsonPath wide = given().queryParam("to", at("11:00:00").toString()).get("/api/v1/changes/component/jitter-impact")
                .then().statusCode(200).extract().jsonPath();
        assertEquals(at("08:00:00").toString(), wide.getString("before.from"));
        assertEquals(0, wide.getInt("before.jitterEvents"));
        assertEquals(1, wide.getInt("after.jitterEvents"));
        assertNull(wide.get("after.ratePer1000GpuHours"), "no GPU-hours, no rate");
    }

    @Test
    void anUnknownChangeOrAWindowTheLedgerRefusesIsAProblem() {
        given().get("/api/v1/changes/nope/jitter-impact").then().statusCode(404).contentType("application/problem+json")
                .body("field", org.hamcrest.Matchers.equalTo("id"));
        given().queryParam("from", at("11:30:00").toString()).get("/api/v1/changes/mig-n1/jitter-impact").then()
                .statusCode(400).contentType("application/problem+json").body("field", org.hamcrest.Matchers.equalTo("from"))
                .body("detail", org.hamcrest.Matchers.containsString("before the change"));
        given().queryParam("from", "yesterday").get("/api/v1/changes/mig-n1/jitter-impact").then().statusCode(400)
                .body("field", org.hamcrest.Matchers.equalTo("from"));
        given().queryParam("from", at("09:00:00").minus(Duration.ofDays(10)).toString())
                .get("/api/v1/changes/mig-n1/jitter-impact").then().statusCode(400)
                .body("field", org.hamcrest.Matchers.equalTo("from"))
                .body("detail", org.hamcrest.Matchers.containsString("at most P14D"));
    }
}
