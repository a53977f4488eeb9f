package io.gpumeter.slo;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * The service starts on its own schema and serves health and metrics on its management port, its API and the API's
 * description on the main port, and neither port the other's.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SloServiceStartsTest {

    @Test
    void healthIsUpOnTheManagementPort() {
        Management.given().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void metricsAreOnTheManagementPortAndOpenApiBesideTheApi() {
        Management.given().get("/q/metrics").then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
        given().get("/q/openapi").then().statusCode(200).body(containsString("openapi"));
        given().get("/q/swagger-ui/").then().statusCode(200);
    }

    @Test
    void theApiPortServesNeitherHealthNorMetricsAndTheManagementPortNoApi() {
        assertNotEquals(RestAssured.port, Management.port());
        given().get("/q/metrics").then().statusCode(404);
        given().get("/q/health/ready").then().statusCode(404);
        Management.given().get("/api/v1/slos").then().statusCode(404);
    }
}
