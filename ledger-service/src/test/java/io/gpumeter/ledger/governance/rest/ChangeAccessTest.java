package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;

/**
 * The GPU stack's state and the change book are fleet reads: admins, operators, readers and the services' own
 * tokens read them; a tenant's token, which sees only its own rows elsewhere, is refused every one of them.
 */
@QuarkusTest
@TestProfile(AuthEnabled.class)
@WithTestResource(EmbeddedPostgresResource.class)
class ChangeAccessTest {

    static final String WINDOW = "?from=2025-01-01T00:00:00Z&to=2025-02-01T00:00:00Z";
    static final String BULK = "{\"scopes\":[{\"cluster\":\"acc\",\"from\":\"2025-01-01T00:00:00Z\",\"to\":\"2025-02-01T00:00:00Z\"}]}";

    static RequestSpecification as(String bearer) {
        return given().header("Authorization", bearer).contentType(ContentType.JSON);
    }

    static void answers(String bearer, int list, int bulk, int impact, int stack) {
        as(bearer).get("/api/v1/changes" + WINDOW).then().statusCode(list);
        as(bearer).body(BULK).post("/api/v1/changes/bulk").then().statusCode(bulk);
        as(bearer).get("/api/v1/changes/none/impact").then().statusCode(impact);
        as(bearer).get("/api/v1/nodes/n1/gpu-stack?cluster=acc").then().statusCode(stack);
    }

    @Test
    void fleetRolesAndServicesReadThem() {
        for (String role : new String[]{"admin", "operator", "reader"}) {
            // The reads pass the access check: an empty book, an unknown change and an unknown node.
            answers(TestTokens.bearer(role), 200, 200, 404, 404);
        }
        answers(TestTokens.serviceBearer("ledger"), 200, 200, 404, 404);
    }

    @Test
    void aTenantIsRefusedEveryOne() {
        answers(TestTokens.bearer("tenant:acme"), 403, 403, 403, 403);
        as(TestTokens.bearer("tenant:acme")).get("/api/v1/changes" + WINDOW).then().contentType("application/problem+json");
        given().get("/api/v1/changes" + WINDOW).then().statusCode(401);
        answers(TestTokens.bearer("ingest"), 403, 403, 403, 403);
    }
}
