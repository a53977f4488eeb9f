package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Pushed usage names its cards' driver versions, which go to the governance intake once per card and version: an
 * exporter repeats the label on every series of every scrape, a version that is no version is a problem in the answer.
 */
@QuarkusTest
@WithTestResource(LedgerStandIn.class)
class DriverSightingPushTest {

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    private static String scrape(String version) {
        return """
                DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-push-0",Hostname="ignored",DCGM_FI_DRIVER_VERSION="%1$s"} 40
                DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-push-0",Hostname="ignored",DCGM_FI_DRIVER_VERSION="%1$s"} 1024
                DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-push-1",Hostname="ignored",DCGM_FI_DRIVER_VERSION="%1$s"} 41
                """.formatted(version);
    }

    private static List<String> sightings() {
        return LedgerStandIn.governance().stream().flatMap(b -> b.path("driverSightings").valueStream())
                .map(s -> s.path("node").asText() + " " + s.path("gpuUuid").asText() + " " + s.path("version").asText()
                        + " " + s.path("source").asText()).toList();
    }

    @Test
    void eachCardsVersionGoesOnceAndAgainOnlyWhenItChanges() {
        given().contentType("text/plain").queryParam("node", "push-node").queryParam("cluster", "west-2")
                .body(scrape("550.54.15")).post("/api/v1/ingest/dcgm").then().statusCode(200)
                .body("samples", equalTo(3)).body("driverSightings", equalTo(2));
        assertEquals(List.of("push-node GPU-push-0 550.54.15 dcgm-exporter", "push-node GPU-push-1 550.54.15 dcgm-exporter"),
                sightings());
        assertEquals("west-2", LedgerStandIn.governance().get(0).path("cluster").asText());

        given().contentType("text/plain").queryParam("node", "push-node").queryParam("cluster", "west-2")
                .body(scrape("550.54.15")).post("/api/v1/ingest/dcgm").then().statusCode(200)
                .body("driverSightings", equalTo(0));
        assertEquals(1, LedgerStandIn.governance().size(), "the next scrape's repeat is not sent");

        given().contentType("text/plain").queryParam("node", "push-node").queryParam("cluster", "west-2")
                .body(scrape("560.35.03")).post("/api/v1/ingest/dcgm").then().statusCode(200)
                .body("driverSightings", equalTo(2));
        assertEquals(4, sightings().size(), "the upgrade goes");
    }

    @Test
    void aVersionThatIsNoVersionIsAProblemAndTheUsageIsStored() {
        JsonNode answer = given().contentType("text/plain").queryParam("node", "other-node")
                .body(scrape("not-a-version")).post("/api/v1/ingest/dcgm").then().statusCode(200)
                .body("samples", equalTo(3)).body("driverSightings", equalTo(0))
                .extract().as(JsonNode.class);
        assertEquals(2, answer.path("problems").size(), "one per card: " + answer.path("problems"));
        assertTrue(answer.path("problems").get(0).asText().contains("\"not-a-version\" is not numbers joined by dots"));
        assertTrue(LedgerStandIn.governance().isEmpty());
        assertEquals(3, LedgerStandIn.usage().stream().mapToInt(b -> b.path("samples").size()).sum());
    }

    @Test
    void nvidiaSmisDriverVersionGoesToo() {
        String csv = """
                timestamp, uuid, driver_version, utilization.gpu [%]
                2026/05/01 10:00:00.000, GPU-smi-0, 535.104.05, 10 %
                2026/05/01 10:00:01.000, GPU-smi-0, 535.104.05, 11 %
                """;
        given().contentType("text/csv").queryParam("node", "smi-node").body(csv).post("/api/v1/ingest/nvidia-smi").then()
                .statusCode(200).body("driverSightings", equalTo(1));
        assertEquals(List.of("smi-node GPU-smi-0 535.104.05 nvidia-smi"), sightings());
    }
}
