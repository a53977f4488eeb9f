package io.gpumeter.alert.security;

import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.AccessCoverage;
import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** alert-service with authentication on: JWT roles for the API, Alertmanager's own token for the webhook. */
@QuarkusTest
@TestProfile(AlertSecurityTest.WithWebhookToken.class)
@WithTestResource(EmbeddedPostgresResource.class)
class AlertSecurityTest {

    private static final String WEBHOOK = "/api/v1/alertmanager/webhook";

    public static class WithWebhookToken extends AuthEnabled {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> config = new HashMap<>(super.getConfigOverrides());
            config.put("gpumeter.alert.webhook.token", "am-static-token");
            return config;
        }
    }

    @Test
    void theWebhookTakesAlertmanagersOwnTokenNotAJwt() {
        given().header("Authorization", "Bearer am-static-token").contentType("application/json")
                .body("{\"version\":\"4\",\"alerts\":[").post(WEBHOOK).then()
                .statusCode(400).contentType("application/problem+json");
        given().contentType("application/json").body("{}").post(WEBHOOK).then()
                .statusCode(401).body("field", equalTo("Authorization"));
        given().header("Authorization", TestTokens.bearer("admin")).contentType("application/json").body("{}")
                .post(WEBHOOK).then().statusCode(401);
    }

    @Test
    void readersSeeRulesButOnlyOperatorsTriggerEvaluations() {
        given().get("/api/v1/rules").then().statusCode(401).contentType("application/problem+json");
        given().header("Authorization", TestTokens.bearer("reader")).get("/api/v1/rules").then().statusCode(200);
        given().header("Authorization", TestTokens.bearer("tenant:acme")).get("/api/v1/actions").then().statusCode(403);
        for (String role : List.of("reader", "service", "tenant:acme")) {
            given().header("Authorization", TestTokens.bearer(role)).post("/api/v1/rules/evaluations").then()
                    .statusCode(403).contentType("application/problem+json");
        }
        int operator = given().header("Authorization", TestTokens.bearer("operator")).post("/api/v1/rules/evaluations")
                .then().extract().statusCode();
        assertFalse(operator == 401 || operator == 403, "an operator may trigger an evaluation: " + operator);
    }

    @Test
    void aBodyOverTheLimitIs413BeforeItIsRead() {
        byte[] big = new byte[1024 * 1024 + 1];
        java.util.Arrays.fill(big, (byte) ' ');
        given().header("Authorization", "Bearer am-static-token").contentType("application/json").body(big)
                .post(WEBHOOK).then().statusCode(413).contentType("application/problem+json")
                .body("field", equalTo("body")).body("detail", org.hamcrest.Matchers.containsString("1048576"));
        Management.given().get("/q/health/live").then().statusCode(200);
    }

    @Test
    void everyAlertOperationBelongsToANamedFamily() {
        String openApi = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().asString();
        assertTrue(AccessCoverage.operations(openApi) >= 6);
        assertEquals(List.of(), AccessCoverage.uncovered(openApi));
    }
}
