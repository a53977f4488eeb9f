package io.gpumeter.collector.rest;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.AccessCoverage;
import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.gpumeter.collector.rest.KubernetesIngestResourceTest.NDJSON;
import static io.gpumeter.collector.rest.KubernetesIngestResourceTest.bytes;
import static io.gpumeter.collector.rest.KubernetesIngestResourceTest.pod;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The collector with authentication on: only admins and services push, and it presents its own token onwards. */
@QuarkusTest
@TestProfile(AuthEnabled.class)
@WithTestResource(LedgerStandIn.class)
class CollectorSecurityTest {

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    @Test
    void readersOperatorsAndTenantsCannotPushAndNothingIsForwarded() {
        for (String role : List.of("reader", "operator", "tenant:acme")) {
            given().header("Authorization", TestTokens.bearer(role)).contentType(NDJSON).body(bytes(pod("u1", "10", "")))
                    .post("/api/v1/ingest/kubernetes").then().statusCode(403).contentType("application/problem+json");
        }
        given().contentType(NDJSON).body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then().statusCode(401);
        given().contentType("text/plain").queryParam("node", "n1").body("x 1\n").post("/api/v1/ingest/dcgm").then().statusCode(401);
        assertEquals(0, LedgerStandIn.metering().size());
    }

    @Test
    void aServiceTokenPushesAndTheCollectorPresentsItsOwnTokenToTheLedger() {
        given().header("Authorization", TestTokens.serviceBearer("collector")).contentType(NDJSON).body(bytes(pod("u1", "10", "")))
                .post("/api/v1/ingest/kubernetes").then().statusCode(200);
        assertEquals(1, LedgerStandIn.metering().size());
        assertEquals(List.of("Bearer " + TestTokens.SERVICE_TOKEN), LedgerStandIn.authorizations());
    }

    @Test
    void anIngestTokenPushesNodeReadingsAndLogsButNeitherReplaysNorReads() {
        String ingest = TestTokens.bearer("ingest");
        given().header("Authorization", ingest).contentType("text/csv").queryParam("node", "n1")
                .body("uuid, timestamp, utilization.gpu [%]\nGPU-N1, 2026/07/03 22:22:01.444, 37 %\n")
                .post("/api/v1/ingest/nvidia-smi").then().statusCode(200);
        given().header("Authorization", ingest).contentType("text/plain").queryParam("node", "n1")
                .body("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-N1\"} 5\n").post("/api/v1/ingest/dcgm").then().statusCode(200);
        given().header("Authorization", ingest).contentType("text/plain").queryParam("node", "n1").body("x")
                .post("/api/v1/ingest/kmsg").then().statusCode(200);
        given().header("Authorization", ingest).contentType(NDJSON).body(bytes(pod("u1", "10", "")))
                .post("/api/v1/ingest/kubernetes").then().statusCode(403).contentType("application/problem+json");
        given().header("Authorization", ingest).get("/api/v1/nothing-to-read").then().statusCode(403)
                .contentType("application/problem+json");
        given().header("Authorization", TestTokens.bearer("ingest", "reader")).contentType("text/plain")
                .queryParam("node", "n1").body("x").post("/api/v1/ingest/kmsg").then().statusCode(403)
                .body("detail", org.hamcrest.Matchers.containsString("ingest role only"));
        assertEquals(0, LedgerStandIn.metering().size(), "no replay went through");
    }

    @Test
    void aServiceTokenAddressedToOtherServicesIsRefused() {
        given().header("Authorization", TestTokens.serviceBearer("ledger", "slo")).contentType(NDJSON)
                .body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then().statusCode(403)
                .contentType("application/problem+json").body("detail", org.hamcrest.Matchers.containsString("collector"));
        assertEquals(0, LedgerStandIn.metering().size());
    }

    @Test
    void everyCollectorOperationBelongsToANamedFamily() {
        String openApi = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().asString();
        assertTrue(AccessCoverage.operations(openApi) >= 5);
        assertEquals(List.of(), AccessCoverage.uncovered(openApi));
    }
}
