package io.gpumeter.collector.governance;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Replay with governance kinds and pushed logs, against a stand-in ledger with both intakes. */
@QuarkusTest
@WithTestResource(GovernanceLedgerStandIn.class)
class GovernanceIngestResourceTest {

    static final String NDJSON = "application/x-ndjson";

    @BeforeEach
    void reset() {
        GovernanceLedgerStandIn.reset();
    }

    static byte[] stream(String... lines) {
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void podFactsGoFirstThenGovernanceFactsAndBothAreCounted() {
        given().contentType(NDJSON).queryParam("cluster", "east-1")
                .body(stream(GovernanceStreamTest.WORKLOAD, GovernanceStreamTest.POD, GovernanceStreamTest.EVENT,
                        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"x\"}}}"))
                .post("/api/v1/ingest/kubernetes").then().statusCode(200)
                .body("events", equalTo(4))
                .body("accepted", equalTo(1))
                .body("governance.accepted", equalTo(3))
                .body("skipped", equalTo(1))
                .body("skippedReasons.'no metadata.namespace'", equalTo(1));
        assertEquals(1, GovernanceLedgerStandIn.METERING.size());
        assertEquals(1, GovernanceLedgerStandIn.GOVERNANCE.size());
        assertEquals("east-1", GovernanceLedgerStandIn.GOVERNANCE.get(0).path("cluster").asText());
        assertEquals(List.of("w1"), GovernanceLedgerStandIn.governance("workloads").stream().map(w -> w.path("uid").asText()).toList());
        assertEquals("p1", GovernanceLedgerStandIn.governance("podStatuses").get(0).path("uid").asText());
    }

    @Test
    void anUnavailableLedgerStoresNeitherHalfAndSaysSo() {
        GovernanceLedgerStandIn.GOVERNANCE_STATUS.set(503);
        given().contentType(NDJSON).body(stream(GovernanceStreamTest.POD)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(503).contentType("application/problem+json")
                .body("detail", containsString("nothing of this request is stored"))
                .body("detail", containsString("send it again"));
        assertTrue(GovernanceLedgerStandIn.METERING.isEmpty());
        assertTrue(GovernanceLedgerStandIn.GOVERNANCE.isEmpty());
        GovernanceLedgerStandIn.GOVERNANCE_STATUS.set(200);
        given().contentType(NDJSON).body(stream(GovernanceStreamTest.POD)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200).body("governance.accepted", equalTo(1));
    }

    @Test
    void aLedgerFailingOnTheRequestIsA500ThatSaysNothingIsStored() {
        GovernanceLedgerStandIn.METERING_STATUS.set(500);
        given().contentType(NDJSON).body(stream(GovernanceStreamTest.POD, GovernanceStreamTest.WORKLOAD))
                .post("/api/v1/ingest/kubernetes").then().statusCode(500).contentType("application/problem+json")
                .body("detail", containsString("the ledger failed on this batch"))
                .body("detail", containsString("nothing of it is stored"));
        assertTrue(GovernanceLedgerStandIn.METERING.isEmpty());
        assertTrue(GovernanceLedgerStandIn.GOVERNANCE.isEmpty());
    }

    @Test
    void onlyGovernanceFactsSendOnlyAGovernanceBatch() {
        given().contentType(NDJSON).body(stream(GovernanceStreamTest.WORKLOAD)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200).body("accepted", equalTo(0)).body("governance.accepted", equalTo(1));
        assertTrue(GovernanceLedgerStandIn.METERING.isEmpty());
    }

    @Test
    void aKernelLogBecomesXidsAttributedToTheCard() throws IOException {
        byte[] log;
        try (InputStream in = getClass().getResourceAsStream("/governance/dmesg-xid-119-gsp-timeout-gpud.log")) {
            log = in.readAllBytes();
        }
        given().contentType("text/plain").queryParam("node", "xe9680-1").queryParam("cluster", "east-1").body(log)
                .post("/api/v1/ingest/kmsg").then().statusCode(200)
                .body("xids", equalTo(5)).body("gpuAddresses", equalTo(1)).body("skipped", equalTo(0))
                .body("governance.accepted", equalTo(6));
        List<String> uuids = GovernanceLedgerStandIn.governance("xids").stream().map(x -> x.path("gpuUuid").asText()).distinct().toList();
        assertEquals(List.of("GPU-509665ad-b600-ac93-3616-d754b23d636d"), uuids);
    }

    @Test
    void kernelLogParametersAreChecked() {
        given().contentType("text/plain").body("x").post("/api/v1/ingest/kmsg").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("node"));
        given().contentType("text/plain").queryParam("node", "n1").queryParam("zone", "Mars/Olympus").body("x")
                .post("/api/v1/ingest/kmsg").then().statusCode(400).body("field", equalTo("zone"));
        given().contentType("text/plain").queryParam("node", "n1").queryParam("bootTime", "at dawn").body("x")
                .post("/api/v1/ingest/kmsg").then().statusCode(400).body("field", equalTo("bootTime"));
        given().contentType("text/plain").queryParam("node", "n1")
                .body("[  1.0] NVRM: Xid (PCI:0000:3b:00): 79, pid=0, GPU has fallen off the bus.").post("/api/v1/ingest/kmsg")
                .then().statusCode(200).body("skippedReasons.'time since boot without bootTime'", equalTo(1));
        assertTrue(GovernanceLedgerStandIn.GOVERNANCE.isEmpty(), "nothing to send, nothing sent");
    }

    @Test
    void containerLogLinesBecomeFailureSignals() {
        given().contentType("text/plain").queryParam("namespace", "ml").queryParam("pod", "llm-0").queryParam("container", "main")
                .body("2026-05-01T10:00:00.123456789Z step 10 loss 1.2\n"
                        + "2026-05-01T10:00:05Z torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
                .post("/api/v1/ingest/container-log").then().statusCode(200)
                .body("lines", equalTo(2)).body("signals", equalTo(1));
        var signal = GovernanceLedgerStandIn.governance("logSignals").get(0);
        assertEquals("cuda-oom", signal.path("signal").asText());
        assertEquals("2026-05-01T10:00:05Z", signal.path("at").asText());
        given().contentType("text/plain").queryParam("pod", "llm-0").body("x").post("/api/v1/ingest/container-log")
                .then().statusCode(400).body("field", equalTo("namespace"));
    }
}
