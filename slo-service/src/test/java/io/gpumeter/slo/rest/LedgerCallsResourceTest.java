package io.gpumeter.slo.rest;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static com.github.tomakehurst.wiremock.client.WireMock.anyRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * slo-service asks the ledger about pods and cards as sets: a service of N pods, each alone on its card, costs the
 * same ledger calls for N = 3 and N = 6. Service calls-N (namespace calls, tenant t-calls-N) on 2026-10-0N,
 * 10:00-10:05, 3 requests a minute per pod, at 50 ms in 10:00-10:01 and 300 ms from 10:02; SLOs calls-N-ttft (the
 * service) and calls-N-tenant (the tenant), TTFT p99 per minute at most 100 ms.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class LedgerCallsResourceTest {

    private static final String TTFT_MINUTE = "\"sli\": \"TTFT\", \"objective\": {\"percentile\": 99,"
            + " \"thresholdMs\": 100, \"per\": \"MINUTE\"}, \"target\": 0.9, \"window\": \"PT1H\"}";

    static Instant day(int n) {
        return Instant.parse("2026-10-0" + n + "T10:00:00Z");
    }

    static void service(int n) {
        Instant start = day(n);
        List<String> lines = new ArrayList<>();
        List<LedgerStandIn.Unit> held = new ArrayList<>();
        for (int p = 0; p < n; p++) {
            String pod = "calls-" + n + "-" + p;
            held.add(new LedgerStandIn.Unit("calls", pod, "GPU-C" + n + "-" + p, "cn", "Deployment", "calls-" + n,
                    "t-calls-" + n, start.minusSeconds(3600)));
            for (int m = 0; m < 5; m++) {
                for (int i = 0; i < 3; i++) {
                    lines.add("{\"service\":\"calls-" + n + "\",\"namespace\":\"calls\",\"pod\":\"" + pod + "\",\"ts\":\""
                            + start.plusSeconds(60L * m + i + 1) + "\",\"ttftMs\":" + (m >= 2 ? 300 : 50) + ",\"ok\":true}");
                }
            }
        }
        LedgerStandIn.reset();
        LedgerStandIn.heldThroughout(held);
        given().contentType("application/x-ndjson").body(String.join("\n", lines).getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
        SloResourceTest.create("{\"name\": \"calls-" + n + "-ttft\", \"selector\": {\"service\": \"calls-" + n + "\"}, "
                + TTFT_MINUTE);
        SloResourceTest.create("{\"name\": \"calls-" + n + "-tenant\", \"selector\": {\"tenant\": \"t-calls-" + n
                + "\"}, " + TTFT_MINUTE);
    }

    /** Every call the ledger got, oldest first. */
    static List<LoggedRequest> calls() {
        return LedgerStandIn.calls(anyRequestedFor(anyUrl()));
    }

    /** The ledger calls to {@code path} made since {@code before} calls had been made. */
    static long since(int before, String path) {
        List<LoggedRequest> all = calls();
        return all.subList(before, all.size()).stream().filter(r -> r.getUrl().startsWith(path)).count();
    }

    /** The holdings reads since {@code before} that asked pods' tenants (not those placing a burning SLO's pods). */
    static List<String> tenantReads(int before) {
        List<LoggedRequest> all = calls();
        return all.subList(before, all.size()).stream().filter(r -> r.getUrl().startsWith("/api/v1/holdings"))
                .map(LoggedRequest::getBodyAsString).filter(body -> !LedgerStandIn.placesForChanges(body)).toList();
    }

    @ParameterizedTest(name = "{0} pods")
    @ValueSource(ints = {3, 6})
    void eachReadOfPodsOrCardsIsOneCallWhateverTheNumberOfPods(int n) {
        service(n);
        String from = day(n).toString();
        String to = day(n).plusSeconds(600).toString();

        // a tenant SLO's status: one holdings read for all its pods' hours, then remembered; burning (3 of its 5
        // minutes bad), it also places all its pods with one more holdings read and reads the change book once
        int before = calls().size();
        JsonPath status = given().queryParam("at", day(n).plusSeconds(630).toString())
                .get(SloResourceTest.SLOS + "/calls-" + n + "-tenant/status").then().statusCode(200).extract().jsonPath();
        assertEquals(5, status.getLong("totalEvents"), "each of the service's 5 minutes counts once");
        assertEquals(1, tenantReads(before).size());
        assertEquals(1, since(before, "/api/v1/holdings") - tenantReads(before).size(), "the placement of its pods");
        assertEquals(1, since(before, "/api/v1/changes/bulk"));
        String asked = tenantReads(before).get(0);
        for (int p = 0; p < n; p++) {
            assertTrue(asked.contains("\"pod\":\"calls-" + n + "-" + p + "\""), asked);
        }
        before = calls().size();
        given().queryParam("at", day(n).plusSeconds(630).toString())
                .get(SloResourceTest.SLOS + "/calls-" + n + "-tenant/status").then().statusCode(200);
        assertEquals(0, tenantReads(before).size());

        // a breakdown places every pod-minute with one holdings read
        before = calls().size();
        JsonPath b = given().queryParam("from", from).queryParam("to", to)
                .get(SloResourceTest.SLOS + "/calls-" + n + "-ttft/breakdown").then().statusCode(200).extract().jsonPath();
        assertEquals(5L * n, b.getLong("podMinutes"));
        assertEquals(0, b.getLong("unplacedPodMinutes"));
        assertEquals(n, b.getList("byGpu").size());
        assertEquals(1, since(before, "/api/v1/holdings"));
        assertEquals(0, since(before, "/api/v1/card-holdings"));
        // and names every pod's queue with one pod queues read
        assertEquals(1, since(before, "/api/v1/pod-queues"));

        // the interference factor: one read of the pods' holdings, one of their cards' holdings
        before = calls().size();
        JsonPath i = given().queryParam("service", "calls-" + n).queryParam("from", from).queryParam("to", to)
                .get("/api/v1/interference").then().statusCode(200).extract().jsonPath();
        assertEquals(5 * n, i.getInt("podMinutes"));
        assertEquals(1, since(before, "/api/v1/holdings"));
        assertEquals(1, since(before, "/api/v1/card-holdings"));

        // a jitter event's evidence: the pods' cards, the cards' occupants and their usage, the host, one read each
        before = calls().size();
        JsonPath d = given().queryParam("from", from).queryParam("to", to).post("/api/v1/jitter-events/detections")
                .then().statusCode(200).extract().jsonPath();
        int events = d.getList("events").size();
        assertTrue(events >= 1, d.prettify());
        assertEquals(events, since(before, "/api/v1/holdings"));
        assertEquals(events, since(before, "/api/v1/card-holdings"));
        assertEquals(events, since(before, "/api/v1/usage/series"));
        assertEquals(events, since(before, "/api/v1/host/series"), "its pods' and nodes' host series, in one read");
        assertEquals(0, since(before, "/api/v1/occupants"));
    }
}
