package io.gpumeter.alert.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** alert-service started with no webhook token: the webhook refuses every call, whatever it carries. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class WebhookWithoutTokenTest {

    private static final String WEBHOOK = "/api/v1/alertmanager/webhook";

    @Test
    void everyCallIsRefusedWithAProblemSayingNoTokenIsConfigured() {
        String body = Notifications.firing(Notifications.labels("GpuMissing", "gpu-1"),
                Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60));
        for (String authorization : Arrays.asList(null, "Bearer ", "Bearer anything", "Bearer null", "Bearer undefined")) {
            var request = given().contentType("application/json").body(body);
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            // A GpuMissing alert that got through would leave a cordon row in the audit, refused or not.
            request.post(WEBHOOK).then().statusCode(401).contentType("application/problem+json")
                    .header("WWW-Authenticate", "Bearer")
                    .body("field", equalTo("Authorization"))
                    .body("detail", containsString("no token configured"))
                    .body("detail", containsString("GPUMETER_ALERT_WEBHOOK_TOKEN"));
        }
        given().get("/api/v1/actions").then().statusCode(200).body("size()", equalTo(0));
    }
}
