package io.gpumeter.slo.rest;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.matchingJsonPath;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Tenant SLOs against a stand-in ledger. TTFT objectives are p99 at most 100 ms.
 * <p>
 * 2026-09-01, minutes 10:00-10:09 (evaluated at 10:10:30, so over the minutes starting before 10:10):
 * <ul>
 * <li>service ask, acme-ml/ask-0 (tenant acme, GPU-T1): 10 requests a minute at 50 ms, at 400 ms from 10:07;</li>
 * <li>service rank, acme-web/rank-0 (tenant acme, GPU-T2): 5 a minute at 80 ms, at 250 ms in 10:09 when two of
 * them fail;</li>
 * <li>service ask, beta-ml/ask-b0 (tenant beta, GPU-T3): 10 a minute at 900 ms;</li>
 * <li>service ask, acme-ml/ask-9, which the ledger does not know: 3 requests at 900 ms in 10:00.</li>
 * </ul>
 * 2026-09-02, service sum of tenant acme: acme-ml/sum-0 (GPU-S1, node n9) 4 requests at 300 ms in 10:00, 10:01,
 * 10:02 and 10:06; acme-ml/sum-1 (GPU-S2, node n10, scheduled 10:03) 4 at 40 ms in 10:03-10:06; beta-ml/sum-b0
 * (tenant beta, GPU-S3) 4 at 900 ms in 10:03. The ledger holds no scheduling record of these pods.
 * <p>
 * 2026-09-03, tenant acme, with the queues the ledger's scheduling decisions name:
 * <ul>
 * <li>service talk, acme-ml/talk-0 (GPU-Q1, n12, ClusterQueue cq-serve via LocalQueue lq-serve): 4 requests a minute
 * in 10:00-10:03 at 50 ms, at 300 ms in 10:02;</li>
 * <li>service talk, acme-ml/talk-1 (GPU-Q2, n12, through no queue): 4 a minute in 10:01-10:03 at 40 ms;</li>
 * <li>service index, acme-batch/index-0 (GPU-Q3, n13, ClusterQueue cq-batch via lq-batch): 2 a minute in
 * 10:00-10:03 at 80 ms, at 500 ms in 10:02 and 10:03.</li>
 * </ul>
 * 2026-09-04, acme-ml/flaky-0 (GPU-Q9) 2 requests at 50 ms in 10:00; the ledger fails to give its decision.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class TenantSloResourceTest {

    private static final String SLOS = SloResourceTest.SLOS;
    private static final Instant DAY1 = Instant.parse("2026-09-01T10:00:00Z");
    private static final Instant DAY2 = Instant.parse("2026-09-02T10:00:00Z");
    private static final Instant DAY3 = Instant.parse("2026-09-03T10:00:00Z");
    private static final Instant DAY4 = Instant.parse("2026-09-04T10:00:00Z");
    private static final String AT = "2026-09-01T10:10:30Z";
    private static final String TTFT_MINUTE = "\"sli\": \"TTFT\", \"objective\": {\"percentile\": 99,"
            + " \"thresholdMs\": 100, \"per\": \"MINUTE\"}, \"target\": 0.9, \"window\": \"PT1H\"}";

    private static boolean stored;

    @BeforeEach
    void buildTheScenarioOnce() {
        if (stored) {
            return;
        }
        stored = true;
        Instant nine = DAY1.minusSeconds(3600);
        Instant nineNext = DAY2.minusSeconds(3600);
        LedgerStandIn.reset();
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("acme-ml", "ask-0", "GPU-T1", "n7", "Deployment", "ask", "acme", nine),
                new LedgerStandIn.Unit("acme-web", "rank-0", "GPU-T2", "n7", "Deployment", "rank", "acme", nine),
                new LedgerStandIn.Unit("beta-ml", "ask-b0", "GPU-T3", "n8", "Deployment", "ask", "beta", nine),
                new LedgerStandIn.Unit("acme-ml", "sum-0", "GPU-S1", "n9", "Deployment", "sum", "acme", nineNext)
                        .leavingAt(DAY2.plusSeconds(7 * 60)),
                new LedgerStandIn.Unit("acme-ml", "sum-1", "GPU-S2", "n10", "Deployment", "sum", "acme",
                        DAY2.plusSeconds(3 * 60)).arrivingInTheWindow(),
                new LedgerStandIn.Unit("beta-ml", "sum-b0", "GPU-S3", "n11", "Deployment", "sum", "beta", nineNext)));
        Instant nineDay3 = DAY3.minusSeconds(3600);
        LedgerStandIn.heldThroughout(List.of(
                new LedgerStandIn.Unit("acme-ml", "talk-0", "GPU-Q1", "n12", "Deployment", "talk", "acme", nineDay3),
                new LedgerStandIn.Unit("acme-ml", "talk-1", "GPU-Q2", "n12", "Deployment", "talk", "acme", nineDay3),
                new LedgerStandIn.Unit("acme-batch", "index-0", "GPU-Q3", "n13", "Deployment", "index", "acme", nineDay3),
                new LedgerStandIn.Unit("acme-ml", "flaky-0", "GPU-Q9", "n14", "Deployment", "flaky", "acme",
                        DAY4.minusSeconds(3600))));
        // the queues the talk and index pods went through (talk-1 none); the sum pods' are unknown to the ledger
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/pod-queues"))
                .withRequestBody(matchingJsonPath("$.pods[?(@.pod == 'talk-0')]")), "pod-queues", """
                [{"namespace": "acme-ml", "pod": "talk-0", "known": true,
                  "queue": {"clusterQueue": "cq-serve", "localQueue": "lq-serve", "volcanoQueue": null}, "createdAt": null},
                 {"namespace": "acme-ml", "pod": "talk-1", "known": true, "queue": null, "createdAt": null},
                 {"namespace": "acme-batch", "pod": "index-0", "known": true,
                  "queue": {"clusterQueue": "cq-batch", "localQueue": "lq-batch", "volcanoQueue": null},
                  "createdAt": null}]""");
        LedgerStandIn.answer(post(urlPathEqualTo("/api/v1/pod-queues"))
                .withRequestBody(matchingJsonPath("$.pods[?(@.pod == 'sum-0' || @.pod == 'sum-1')]")), "pod-queues", """
                [{"namespace": "acme-ml", "pod": "sum-0", "known": false, "queue": null},
                 {"namespace": "acme-ml", "pod": "sum-1", "known": false, "queue": null}]""");
        // the ledger cannot say where flaky-0 queued
        LedgerStandIn.failing(post(urlPathEqualTo("/api/v1/pod-queues"))
                .withRequestBody(matchingJsonPath("$.pods[?(@.pod == 'flaky-0')]")));
        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            Instant minute = DAY3.plusSeconds(60L * m);
            for (int i = 0; i < 4; i++) {
                lines.add(line("talk", "acme-ml", "talk-0", minute.plusSeconds(i + 1), m == 2 ? 300 : 50, true));
                if (m >= 1) {
                    lines.add(line("talk", "acme-ml", "talk-1", minute.plusSeconds(i + 1), 40, true));
                }
            }
            for (int i = 0; i < 2; i++) {
                lines.add(line("index", "acme-batch", "index-0", minute.plusSeconds(i + 1), m >= 2 ? 500 : 80, true));
            }
        }
        for (int i = 0; i < 2; i++) {
            lines.add(line("flaky", "acme-ml", "flaky-0", DAY4.plusSeconds(i + 1), 50, true));
        }
        for (int m = 0; m < 10; m++) {
            Instant minute = DAY1.plusSeconds(60L * m);
            for (int i = 0; i < 10; i++) {
                lines.add(line("ask", "acme-ml", "ask-0", minute.plusSeconds(i + 1), m >= 7 ? 400 : 50, true));
                lines.add(line("ask", "beta-ml", "ask-b0", minute.plusSeconds(i + 1), 900, true));
            }
            for (int i = 0; i < 5; i++) {
                lines.add(line("rank", "acme-web", "rank-0", minute.plusSeconds(i + 1), m == 9 ? 250 : 80,
                        !(m == 9 && i < 2)));
            }
        }
        for (int i = 0; i < 3; i++) {
            lines.add(line("ask", "acme-ml", "ask-9", DAY1.plusSeconds(i + 1), 900, true));
        }
        for (int m = 0; m < 7; m++) {
            Instant minute = DAY2.plusSeconds(60L * m);
            for (int i = 0; i < 4; i++) {
                if (m <= 2 || m == 6) {
                    lines.add(line("sum", "acme-ml", "sum-0", minute.plusSeconds(i + 1), 300, true));
                }
                if (m >= 3) {
                    lines.add(line("sum", "acme-ml", "sum-1", minute.plusSeconds(i + 1), 40, true));
                }
                if (m == 3) {
                    lines.add(line("sum", "beta-ml", "sum-b0", minute.plusSeconds(i + 1), 900, true));
                }
            }
        }
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        SloResourceTest.create("{\"name\": \"acme-ttft\", \"selector\": {\"tenant\": \"acme\"}, " + TTFT_MINUTE);
        SloResourceTest.create("""
                {"name": "acme-ask-requests", "selector": {"tenant": "acme", "service": "ask"}, "sli": "TTFT",
                 "objective": {"percentile": 99, "thresholdMs": 100, "per": "REQUEST"}, "target": 0.9, "window": "PT1H"}""");
        SloResourceTest.create("""
                {"name": "acme-web-up", "selector": {"tenant": "acme", "namespace": "acme-web"}, "sli": "AVAILABILITY",
                 "target": 0.9, "window": "PT1H"}""");
        SloResourceTest.create("{\"name\": \"acme-sum\", \"selector\": {\"tenant\": \"acme\", \"service\": \"sum\"}, "
                + TTFT_MINUTE);
        SloResourceTest.create("{\"name\": \"beta-ttft\", \"selector\": {\"tenant\": \"beta\"}, " + TTFT_MINUTE);
        SloResourceTest.create("{\"name\": \"ask-acme\", \"selector\": {\"service\": \"ask\", \"namespace\":"
                + " \"acme-ml\"}, " + TTFT_MINUTE);
    }

    private static String line(String service, String namespace, String pod, Instant ts, double ttftMs, boolean ok) {
        return "{\"service\":\"" + service + "\",\"namespace\":\"" + namespace + "\",\"pod\":\"" + pod + "\",\"ts\":\""
                + ts + "\",\"ttftMs\":" + ttftMs + ",\"ok\":" + ok + "}";
    }

    private static JsonPath status(String name) {
        return given().queryParam("at", AT).get(SLOS + "/" + name + "/status")
                .then().statusCode(200).extract().jsonPath();
    }

    private static void assertDecimal(String expected, JsonPath json, String path) {
        assertEquals(0, new BigDecimal(expected).compareTo(new BigDecimal(json.getString(path))),
                path + ": expected " + expected + ", got " + json.getString(path));
    }

    /** The holdings reads that named the pod. */
    /** The holdings reads that asked the tenant of a pod (not those placing a burning SLO's pods for its changes). */
    private static long ledgerAsked(String namespace, String pod) {
        return asked("/api/v1/holdings", namespace, pod).stream().filter(body -> !LedgerStandIn.placesForChanges(body))
                .count();
    }

    /** The bodies of the reads of this path that named the pod. */
    private static List<String> asked(String path, String namespace, String pod) {
        return LedgerStandIn.calls(postRequestedFor(urlPathEqualTo(path))).stream().map(LoggedRequest::getBodyAsString)
                .filter(body -> body.contains("{\"namespace\":\"" + namespace + "\",\"pod\":\"" + pod + "\"}")).toList();
    }

    @Test
    void aTenantSloCountsEachOfItsServicesMinutesOverItsOwnPodsOnly() {
        JsonPath s = status("acme-ttft");
        // ask (ask-0 alone): 10:00-10:06 good, 10:07-10:09 bad; rank: bad in 10:09 only. 20 service-minutes, 4 bad.
        // beta's ask-b0 (900 ms every minute) or the unknown ask-9 (900 ms in 10:00) would have made ask's minutes bad.
        assertEquals("acme", s.getString("tenant"));
        assertNull(s.getString("service"));
        assertEquals(20, s.getLong("totalEvents"));
        assertEquals(16, s.getLong("goodEvents"));
        assertDecimal("0.8", s, "attainment");
        // 0.1 x 20 = 2 bad allowed, 4 spent
        assertDecimal("2", s, "errorBudget.allowedBad");
        assertDecimal("-1", s, "errorBudget.remaining");
        // 5m = 10:05-10:09: 10 events, 4 bad = 40% / 10% = 4x; every longer window: 20% / 10% = 2x
        assertDecimal("2", s, "alerts[0].longWindow.burnRate");
        assertDecimal("4", s, "alerts[0].shortWindow.burnRate");
        assertDecimal("2", s, "alerts[2].shortWindow.burnRate");
        assertEquals(List.of(false, false, true), s.getList("alerts.firing"));
        assertEquals("TICKET", s.getString("state"));
        // the minutes read are the 3 days the ticket alert needs: 10 + 10 + 10 + 1 pod-minutes with requests
        assertEquals("2026-08-29T10:10:00Z", s.getString("selection.from"));
        assertEquals(31, s.getLong("selection.podMinutes"));
        assertEquals(20, s.getLong("selection.tenantPodMinutes"));
        assertEquals(10, s.getLong("selection.otherPodMinutes"));
        assertEquals(1, s.getLong("selection.unknownPodMinutes"));
        assertEquals(0, s.getLong("selection.unresolvedPodMinutes"));
        assertEquals(List.of("acme-ml/ask-9"), s.getList("selection.unknownPods"));
    }

    @Test
    void aTenantSelectorNarrowsToOneServiceOrNamespace() {
        JsonPath ask = status("acme-ask-requests");
        // ask-0's 100 requests, 30 at 400 ms; not beta's 100 at 900 ms, not ask-9's 3, not rank's 50
        assertEquals(100, ask.getLong("totalEvents"));
        assertEquals(70, ask.getLong("goodEvents"));
        assertDecimal("0.7", ask, "attainment");
        assertEquals(false, ask.getBoolean("meetsTarget"), "0.7 is under its target of 0.9");
        assertEquals(21, ask.getLong("selection.podMinutes"));
        assertEquals(10, ask.getLong("selection.tenantPodMinutes"));

        JsonPath web = status("acme-web-up");
        // rank-0's 50 requests, 2 failed; ask-0's 100 in acme-ml are left out
        assertEquals(50, web.getLong("totalEvents"));
        assertEquals(48, web.getLong("goodEvents"));
        assertDecimal("0.96", web, "attainment");
        assertEquals(true, web.getBoolean("meetsTarget"), "0.96 is over its target of 0.9");
        assertEquals("acme-web", web.getString("namespace"));
        assertEquals(10, web.getLong("selection.podMinutes"));

        JsonPath beta = status("beta-ttft");
        assertEquals(10, beta.getLong("totalEvents"));
        assertEquals(0, beta.getLong("goodEvents"));

        JsonPath service = status("ask-acme");
        // a service SLO takes every pod of the service in its namespace, never beta's pods of the same name (900 ms
        // every minute); ask-9 (900 ms in 10:00) makes 10:00 bad, ask-0 10:07-10:09
        assertEquals("acme-ml", service.getString("namespace"));
        assertEquals(10, service.getLong("totalEvents"));
        assertEquals(6, service.getLong("goodEvents"));
        assertFalse(service.getMap("").containsKey("selection"));
    }

    @Test
    void aServiceNamedWithoutItsNamespaceWhereTwoNamespacesReportItIsRefused() {
        given().contentType("application/json").body("{\"name\": \"ask-all\", \"selector\": {\"service\": \"ask\"}, "
                        + TTFT_MINUTE).post(SLOS).then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("selector.namespace"))
                .body("detail", containsString("acme-ml, beta-ml"));
        given().get(SLOS + "/ask-all").then().statusCode(404);
    }

    @Test
    void aPodsTenantIsAskedOncePerHourHoweverOftenSlosAreEvaluated() {
        status("acme-ttft");
        status("acme-ttft");
        status("acme-ask-requests");
        assertEquals(1, ledgerAsked("acme-ml", "ask-0"));
        assertEquals(1, ledgerAsked("acme-web", "rank-0"));
        // unknown: one read covers the minute's first and last millisecond, then remembered, the hour being long over
        assertEquals(1, ledgerAsked("acme-ml", "ask-9"));
    }

    @Test
    void theListFiltersOnTheTenantExactly() {
        assertEquals(List.of("acme-ask-requests", "acme-sum", "acme-ttft", "acme-web-up"), names(Map.of("tenant", "acme")));
        assertEquals(List.of("beta-ttft"), names(Map.of("tenant", "beta")));
        assertEquals(List.of(), names(Map.of("tenant", "acm")));
        assertEquals(List.of(), names(Map.of("tenant", "ACME")));
        given().queryParam("tenant", "").get(SLOS).then().statusCode(200)
                .body("name", hasItems("acme-ttft", "beta-ttft", "ask-acme"));
        given().get(SLOS).then().statusCode(200).body("name", hasItems("acme-ttft", "beta-ttft", "ask-acme"));
        // every value of a repeated parameter must hold, and an SLO names one tenant
        given().queryParam("tenant", "acme", "beta").get(SLOS).then().statusCode(200).body("size()", equalTo(0));
        given().queryParam("tenant", "acme", "acme").get(SLOS).then().statusCode(200).body("size()", equalTo(4));
        given().queryParam("tenant", "beta").get(SLOS).then().statusCode(200)
                .body("[0].selector.tenant", equalTo("beta"))
                .body("[0].selector.containsKey('service')", equalTo(false));
    }

    /** alert-service's SLO rules read every SLO's state in one read; a tenant's SLOs carry their whole selectors. */
    @Test
    void theStatesOfATenantsSlosCarryTheirSelectors() {
        String answer = given().queryParam("from", "2026-09-01T10:00:00Z").queryParam("to", AT).queryParam("tenant", "acme")
                .get("/api/v1/slo-states").then().statusCode(200)
                .body("slo.name", hasItems("acme-ask-requests", "acme-sum", "acme-ttft", "acme-web-up"))
                .body("find { it.slo.name == 'acme-ask-requests' }.slo.selector.tenant", equalTo("acme"))
                .body("find { it.slo.name == 'acme-ask-requests' }.slo.selector.service", equalTo("ask"))
                .body("find { it.slo.name == 'acme-web-up' }.slo.selector.namespace", equalTo("acme-web"))
                .extract().asString();
        Contract.record("slo", "slo-states", answer);
    }

    private static List<String> names(Map<String, String> query) {
        return given().queryParams(query).get(SLOS).then().statusCode(200).extract().jsonPath().getList("name");
    }

    @Test
    void theBreakdownShowsTheBadMinutesRanOnOneCardAndTheGoodOnesOnAnother() {
        JsonPath b = given().queryParam("from", "2026-09-02T10:00:00Z").queryParam("to", "2026-09-02T10:10:00Z")
                .get(SLOS + "/acme-sum/breakdown").then().statusCode(200).extract().jsonPath();
        // service-minutes 10:00-10:06; bad: 10:00, 10:01, 10:02 (sum-0 alone at 300 ms) and 10:06 (8 requests, 4 at
        // 300 ms: p99 300); beta's sum-b0 (900 ms in 10:03) is left out, so 10:03 is good
        assertEquals(7, b.getLong("minutes"));
        assertEquals(4, b.getLong("badMinutes"));
        assertEquals(8, b.getLong("podMinutes"));
        assertEquals(5, b.getLong("badPodMinutes"));
        assertEquals(0, b.getLong("unplacedPodMinutes"));
        assertEquals(List.of("GPU-S1", "GPU-S2"), b.getList("byGpu.gpuUuid"));
        assertEquals(List.of("n9", "n10"), b.getList("byGpu.node"));
        assertEquals(List.of(List.of("acme-ml/sum-0"), List.of("acme-ml/sum-1")), b.getList("byGpu.pods"));
        assertEquals(List.of(4, 4), b.getList("byGpu.podMinutes"));
        // sum-1 was on GPU-S2 during the bad 10:06, but its own requests there were all fast
        assertEquals(List.of(4, 1), b.getList("byGpu.badPodMinutes"));
        assertEquals(List.of(4, 4), b.getList("byGpu.events"));
        assertEquals(List.of(4, 0), b.getList("byGpu.badEvents"));
        assertEquals(List.of("n9", "n10"), b.getList("byNode.node"));
        assertEquals(List.of(4, 1), b.getList("byNode.badPodMinutes"));
        assertEquals(9, b.getLong("selection.podMinutes"));
        assertEquals(1, b.getLong("selection.otherPodMinutes"));
        // the ledger has no scheduling record of sum-0 or sum-1 (it answers 404): all 8 pod-minutes, queue unknown
        assertEquals(List.of("unknown"), b.getList("byQueue.kind"));
        assertEquals(List.of(8), b.getList("byQueue.podMinutes"));
        assertEquals(List.of(5), b.getList("byQueue.badPodMinutes"));
    }

    @Test
    void theBreakdownShowsWhichQueueTheBadMinutesWentThrough() {
        JsonPath b = given().queryParam("from", "2026-09-03T10:00:00Z").queryParam("to", "2026-09-03T10:10:00Z")
                .get(SLOS + "/acme-ttft/breakdown").then().statusCode(200).extract().jsonPath();
        // talk: 10:00 (talk-0 alone, 50 ms) good; 10:01 good; 10:02 bad (8 requests, 4 at 300 ms: p99 300); 10:03 good.
        // index: 10:00, 10:01 good; 10:02, 10:03 bad (500 ms). 8 service-minutes, 3 bad, one event each.
        assertEquals(8, b.getLong("minutes"));
        assertEquals(3, b.getLong("badMinutes"));
        assertEquals(8, b.getLong("events"));
        assertEquals(3, b.getLong("badEvents"));
        // 4 + 3 + 4 pod-minutes; in bad service-minutes: talk-0 10:02, talk-1 10:02, index-0 10:02 and 10:03
        assertEquals(11, b.getLong("podMinutes"));
        assertEquals(4, b.getLong("badPodMinutes"));
        // sorted by bad pod-minutes, then pod-minutes; every pod-minute under one queue: 4 + 4 + 3 = 11
        assertEquals(List.of("cq-batch", "cq-serve", "none"), b.getList("byQueue.queue"));
        assertEquals(List.of("clusterQueue", "clusterQueue", "none"), b.getList("byQueue.kind"));
        assertEquals(List.of(List.of("acme-batch/index-0"), List.of("acme-ml/talk-0"), List.of("acme-ml/talk-1")),
                b.getList("byQueue.pods"));
        assertEquals(List.of(4, 4, 3), b.getList("byQueue.podMinutes"));
        assertEquals(List.of(2, 1, 1), b.getList("byQueue.badPodMinutes"));
        assertEquals(List.of(4, 4, 3), b.getList("byQueue.events"));
        // talk-1 shared the bad 10:02 but its own requests (40 ms) were all fast
        assertEquals(List.of(2, 1, 0), b.getList("byQueue.badEvents"));
        // every pod's queue comes from one read, however many pods and minutes
        assertEquals(1, queueReadsNaming("acme-ml", "talk-0"));
        assertEquals(1, queueReadsNaming("acme-ml", "talk-1"));
        assertEquals(1, queueReadsNaming("acme-batch", "index-0"));
    }

    @Test
    void aLedgerThatCannotNameAPodsQueueMakesTheBreakdownA503() {
        given().queryParam("from", "2026-09-04T10:00:00Z").queryParam("to", "2026-09-04T10:10:00Z")
                .get(SLOS + "/acme-ttft/breakdown").then().statusCode(503).contentType("application/problem+json")
                .body("detail", containsString("queues"));
    }

    private static long queueReadsNaming(String namespace, String pod) {
        return asked("/api/v1/pod-queues", namespace, pod).size();
    }

    @Test
    void badBreakdownParametersAreA400NamingTheFieldAndAnUnknownSloA404() {
        problem(Map.of("to", "2026-09-02T10:10:00Z"), "acme-sum", 400, "from");
        problem(Map.of("from", "yesterday", "to", "2026-09-02T10:10:00Z"), "acme-sum", 400, "from");
        problem(Map.of("from", "2026-09-02T10:00:00Z"), "acme-sum", 400, "to");
        problem(Map.of("from", "2026-09-02T10:00:00Z", "to", "2026-09-02T10:00:00Z"), "acme-sum", 400, "to");
        problem(Map.of("from", "2026-09-01T00:00:00Z", "to", "2026-09-09T00:00:00Z"), "acme-sum", 400, "to");
        problem(Map.of("from", "2026-09-02T10:00:00Z", "to", "2026-09-02T10:10:00Z"), "nothing", 404, "name");
    }

    private static void problem(Map<String, String> query, String slo, int status, String field) {
        given().queryParams(query).get(SLOS + "/" + slo + "/breakdown").then().statusCode(status)
                .contentType("application/problem+json").body("field", equalTo(field));
    }

    @Test
    void aTenantSloReadsBackAsSentAndLabelsAreRefused() {
        given().get(SLOS + "/acme-web-up").then().statusCode(200)
                .body("selector.tenant", equalTo("acme"))
                .body("selector.namespace", equalTo("acme-web"))
                .body("selector.containsKey('service')", equalTo(false));
        given().contentType(ContentType.JSON).body("{\"name\": \"acme-labels\", \"selector\": {\"tenant\": \"acme\","
                        + " \"labels\": {\"team\": \"search\"}}, " + TTFT_MINUTE).post(SLOS)
                .then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("selector.labels"))
                .body("detail", containsString("not supported"));
        given().get(SLOS + "/acme-labels").then().statusCode(404);
    }

    @Test
    void tenantSlosStayOutOfThePrometheusRules() {
        given().get(SLOS + "/rules").then().statusCode(200)
                .body(containsString("# acme-ttft skipped: a tenant selector"))
                .body(containsString("- name: slo-ask-acme"));
    }
}
