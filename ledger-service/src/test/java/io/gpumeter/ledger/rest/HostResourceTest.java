package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.service.HostRetention;
import io.gpumeter.ledger.service.RetentionSweep;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Instant;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostResourceTest {

    @Inject
    HostRetention retention;

    static String container(String pod, String container, String minute, int coveredMs, int samples, double cpu) {
        return "{\"node\":\"gpu-1\",\"namespace\":\"ml\",\"pod\":\"" + pod + "\",\"container\":\"" + container
                + "\",\"minute\":\"" + minute + "\",\"coveredMs\":" + coveredMs + ",\"samples\":" + samples
                + ",\"cpuSeconds\":" + cpu + ",\"cfsPeriods\":600,\"cfsThrottledPeriods\":150,\"cpuLimitCores\":2"
                + (container.isEmpty() ? ",\"netReceiveBytes\":1000" : "") + "}";
    }

    static String node(String node, String minute, int coveredMs, double ioStalled) {
        return "{\"node\":\"" + node + "\",\"minute\":\"" + minute + "\",\"coveredMs\":" + coveredMs
                + ",\"samples\":2,\"cpus\":64,\"cpuIdleSeconds\":1800,\"cpuIowaitSeconds\":300,\"ioPressureStalledSeconds\":"
                + ioStalled + ",\"netReceiveBytes\":5.0e9}";
    }

    static String batch(String cluster, String containers, String nodes) {
        return "{\"cluster\":\"" + cluster + "\",\"containers\":[" + containers + "],\"nodes\":[" + nodes + "]}";
    }

    static ValidatableResponse deliver(String body) {
        return given().contentType(ContentType.JSON).body(body).post("/api/v1/host/minutes").then();
    }

    static ValidatableResponse read(String cluster, String pods, String nodes, String from, String to) {
        return given().contentType(ContentType.JSON).body("{\"cluster\":\"" + cluster + "\",\"from\":\"" + from
                + "\",\"to\":\"" + to + "\",\"pods\":[" + pods + "],\"nodes\":[" + nodes + "]}")
                .post("/api/v1/host/series").then();
    }

    @Test
    @Order(1)
    void aBatchIsStoredOnceAndAMinuteIsReplacedOnlyByOneCoveringMore() {
        String first = batch("h1", container("train-0", "main", "2026-07-01T10:00:00Z", 30_000, 2, 3)
                + "," + container("train-0", "", "2026-07-01T10:00:00Z", 30_000, 2, 3.5), node("gpu-1", "2026-07-01T10:00:00Z", 30_000, 4));
        deliver(first).statusCode(200).body("stored", equalTo(3)).body("unchanged", equalTo(0));
        deliver(first).statusCode(200).body("stored", equalTo(0)).body("unchanged", equalTo(3));
        deliver(batch("h1", container("train-0", "main", "2026-07-01T10:00:00Z", 20_000, 3, 99), ""))
                .statusCode(200).body("stored", equalTo(0));
        deliver(batch("h1", container("train-0", "main", "2026-07-01T10:00:00Z", 60_000, 3, 6)
                        + "," + container("train-0", "main", "2026-07-01T10:00:00Z", 45_000, 3, 4), ""))
                .statusCode(200).body("stored", equalTo(1)).body("unchanged", equalTo(1));
        String example = read("h1", "\"ml/train-0\"", "\"gpu-1\"", "2026-07-01T10:00:00Z", "2026-07-01T11:00:00Z").statusCode(200)
                .body("containers", hasSize(2))
                .body("containers[0].container", equalTo("")).body("containers[0].netReceiveBytes", equalTo(1000.0f))
                .body("containers[1].container", equalTo("main")).body("containers[1].cpuSeconds", equalTo(6.0f))
                .body("containers[1].coveredSeconds", equalTo(60.0f)).body("containers[1].spanSeconds", equalTo(60))
                .body("containers[1].fsReadBytes", nullValue()).body("containers[1].node", equalTo("gpu-1"))
                .body("nodes", hasSize(1)).body("nodes[0].cpus", equalTo(64))
                .body("nodes[0].ioPressureStalledSeconds", equalTo(4.0f)).body("nodes[0].cpuUserSeconds", nullValue()).extract().asString();
        // slo-service reads the host's minutes from this answer
        Contract.record("ledger", "host-series", example);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no cluster | {\"containers\":[]} | cluster",
            "no namespace | {\"cluster\":\"h2\",\"containers\":[{\"node\":\"n\",\"pod\":\"p\",\"container\":\"c\",\"minute\":\"2026-07-01T10:00:00Z\",\"coveredMs\":1,\"samples\":1}]} | containers[1].namespace",
            "minute not whole | {\"cluster\":\"h2\",\"nodes\":[{\"node\":\"n\",\"minute\":\"2026-07-01T10:00:30Z\",\"coveredMs\":1,\"samples\":1}]} | nodes[0].minute",
            "covered over a minute | {\"cluster\":\"h2\",\"nodes\":[{\"node\":\"n\",\"minute\":\"2026-07-01T10:00:00Z\",\"coveredMs\":60001,\"samples\":1}]} | nodes[0].coveredMs",
            "negative amount | {\"cluster\":\"h2\",\"nodes\":[{\"node\":\"n\",\"minute\":\"2026-07-01T10:00:00Z\",\"coveredMs\":1,\"samples\":1,\"netReceiveDrops\":-1}]} | nodes[0].netReceiveDrops",
    })
    @Order(2)
    void aBadBatchIsRefusedNamingTheFieldAndStoresNothing(String name, String body, String field) {
        String withGood = body.contains("\"containers\":[{")
                ? body.replace("\"containers\":[{", "\"containers\":[" + container("p", "c", "2026-07-01T10:00:00Z", 1, 1, 1) + ",{")
                : body;
        deliver(withGood).statusCode(400).contentType("application/problem+json").body("field", equalTo(field));
        read("h2", "\"ml/p\"", "\"n\"", "2026-07-01T00:00:00Z", "2026-07-02T00:00:00Z").statusCode(200)
                .body("containers", hasSize(0)).body("nodes", hasSize(0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no cluster | {\"from\":\"2026-07-01T00:00:00Z\",\"to\":\"2026-07-02T00:00:00Z\",\"pods\":[\"ml/p\"]} | cluster",
            "nothing named | {\"cluster\":\"h1\",\"from\":\"2026-07-01T00:00:00Z\",\"to\":\"2026-07-02T00:00:00Z\"} | pods",
            "a pod without namespace | {\"cluster\":\"h1\",\"from\":\"2026-07-01T00:00:00Z\",\"to\":\"2026-07-02T00:00:00Z\",\"pods\":[\"p\"]} | pods[0]",
            "a window over 7 days | {\"cluster\":\"h1\",\"from\":\"2026-07-01T00:00:00Z\",\"to\":\"2026-07-09T00:00:00Z\",\"nodes\":[\"n\"]} | to",
    })
    @Order(3)
    void aBadReadIsRefusedNamingTheField(String name, String body, String field) {
        given().contentType(ContentType.JSON).body(body).post("/api/v1/host/series").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo(field));
    }

    @Test
    @Order(4)
    void pastTheMinuteRetentionMinutesFoldIntoHoursThatAddUpAndPastTheHourRetentionTheyGo() {
        StringBuilder containers = new StringBuilder();
        StringBuilder nodes = new StringBuilder();
        for (int m = 0; m < 90; m += 3) {
            String minute = Instant.parse("2026-01-10T10:00:00Z").plusSeconds(60L * m).toString();
            containers.append(containers.isEmpty() ? "" : ",").append(container("old-0", "main", minute, 60_000, 2, 1.5));
            nodes.append(nodes.isEmpty() ? "" : ",").append(node("gpu-old", minute, 30_000, 2));
        }
        deliver(batch("h3", containers.toString(), nodes.toString())).statusCode(200).body("stored", equalTo(60));
        RetentionSweep.Report folded = retention.run(Instant.parse("2026-03-01T00:00:00Z")).await().indefinitely();
        assertEquals(1, folded.daysFolded());
        read("h3", "\"ml/old-0\"", "\"gpu-old\"", "2026-01-10T10:30:00Z", "2026-01-10T12:00:00Z").statusCode(200)
                .body("containers", hasSize(2))
                .body("containers[0].at", equalTo("2026-01-10T10:00:00Z")).body("containers[0].spanSeconds", equalTo(3600))
                .body("containers[0].minutes", equalTo(20)).body("containers[0].cpuSeconds", equalTo(30.0f))
                .body("containers[0].coveredSeconds", equalTo(1200.0f)).body("containers[0].cpuLimitCores", equalTo(2.0f))
                .body("containers[1].minutes", equalTo(10))
                .body("nodes[0].minutes", equalTo(20)).body("nodes[0].ioPressureStalledSeconds", equalTo(40.0f))
                .body("nodes[0].coveredSeconds", equalTo(600.0f)).body("nodes[0].cpus", equalTo(64));
        RetentionSweep.Report later = retention.run(Instant.parse("2027-04-01T00:00:00Z")).await().indefinitely();
        assertEquals(1, later.hourMonthsDropped(), "January 2026's hours, past 400 days");
        read("h3", "\"ml/old-0\"", "\"gpu-old\"", "2026-01-10T00:00:00Z", "2026-01-11T00:00:00Z").statusCode(200)
                .body("containers", hasSize(0)).body("nodes", hasSize(0));
    }
}
