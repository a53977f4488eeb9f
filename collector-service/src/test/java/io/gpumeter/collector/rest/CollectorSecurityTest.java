package io.gpumeter.collector.rest;

import io.gpumeter.common.testing.AccessCoverage;
import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
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
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
class CollectorSecurityTest {

    @BeforeEach
    void reset() {
        FakeLedger.BATCHES.clear();
        FakeLedger.AUTHORIZATIONS.clear();
        FakeLedger.STATUS.set(200);
    }

    @Test
    void readersOperatorsAndTenantsCannotPushAndNothingIsForwarded() {
        for (String role : List.of("reader", "operator", "tenant:acme")) {
            given().header("Authorization", TestTokens.bearer(role)).contentType(NDJSON).body(bytes(pod("u1", "10", "")))
                    .post("/api/v1/ingest/kubernetes").then().statusCode(403).contentType("application/problem+json");
        }
        given().contentType(NDJSON).body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then().statusCode(401);
        given().contentType("text/plain").queryParam("node", "n1").body("x 1\n").post("/api/v1/ingest/dcgm").then().statusCode(401);
        assertEquals(0, FakeLedger.BATCHES.size());
    }

    @Test
    void aServiceTokenPushesAndTheCollectorPresentsItsOwnTokenToTheLedger() {
        given().header("Authorization", TestTokens.bearer("service")).contentType(NDJSON).body(bytes(pod("u1", "10", "")))
                .post("/api/v1/ingest/kubernetes").then().statusCode(200);
        assertEquals(1, FakeLedger.BATCHES.size());
        assertEquals(List.of("Bearer " + TestTokens.SERVICE_TOKEN), FakeLedger.AUTHORIZATIONS);
    }

    @Test
    void everyCollectorOperationBelongsToANamedFamily() {
        String openApi = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().asString();
        assertTrue(AccessCoverage.operations(openApi) >= 5);
        assertEquals(List.of(), AccessCoverage.uncovered(openApi));
    }
}
