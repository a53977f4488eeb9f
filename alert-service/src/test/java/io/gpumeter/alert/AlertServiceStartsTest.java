package io.gpumeter.alert;

import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/** The service starts on its own schema and serves health, metrics and its API description. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class AlertServiceStartsTest {

    @Test
    void healthIsUp() {
        Management.given().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
    }

    @Test
    void metricsAndOpenApiAreServed() {
        Management.given().get("/q/metrics").then().statusCode(200).body(containsString("jvm_memory_used_bytes"));
        given().get("/q/openapi").then().statusCode(200).body(containsString("openapi"));
    }
}
