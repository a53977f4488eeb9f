package io.gpumeter.collector.rest;

import io.gpumeter.collector.testing.LedgerStandIn;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

/** Without a reachable cluster the collector stays healthy and says its watch is degraded. */
@QuarkusTest
@TestProfile(WatchDegradedTest.NoCluster.class)
@WithTestResource(LedgerStandIn.class)
class WatchDegradedTest {

    /** Points the watch at a port nothing listens on. */
    public static class NoCluster implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.collector.watch.enabled", "true",
                    "quarkus.kubernetes-client.api-server-url", "https://127.0.0.1:1",
                    "quarkus.kubernetes-client.request-timeout", "PT1S",
                    "quarkus.kubernetes-client.connection-timeout", "PT1S",
                    "quarkus.kubernetes-client.request-retry-backoff-limit", "0");
        }
    }

    @Test
    void healthIsUpAndTheWatchReportsDegraded() throws InterruptedException {
        await("the watch to report degraded").atMost(Duration.ofSeconds(10)).until(() -> Management.given()
                .get("/q/health/ready").jsonPath().getString("checks.find { it.name == 'kubernetes-watch' }.data.state"),
                equalTo("degraded"));
        Management.given().get("/q/health/ready").then().statusCode(200).body("status", equalTo("UP"))
                .body("checks.find { it.name == 'kubernetes-watch' }.data.state", equalTo("degraded"))
                .body("checks.find { it.name == 'kubernetes-watch' }.data.problem", notNullValue());
    }
}
