package io.gpumeter.collector.governance;

import io.gpumeter.collector.testing.LedgerStandIn;
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
@WithTestResource(LedgerStandIn.class)
class GovernanceIngestResourceTest {

    static final String NDJSON = "application/x-ndjson";

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    static byte[] stream(String... lines) {
        return (String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void podFactsGoFirstThenGovernanceFactsAndBothAreCounted() {
        LedgerStandIn.bundleReceipt(1, 3);
        given().contentType(NDJSON).queryParam("cluster", "east-1")
                .body(stream(GovernanceStreamTest.WORKLOAD, GovernanceStreamTest.POD, GovernanceStreamTest.EVENT,
                        "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"kueue.x-k8s.io/v1beta1\",\"kind\":\"Workload\",\"metadata\":{\"name\":\"x\"}}}"))
                .post("/api/v1/ingest/kubernetes").then().statusCode(200)
                .body("events", equalTo(4))
                .body("accepted", equalTo(1))
                .body("governance.accepted", equalTo(3))
                .body("skipped", equalTo(1))
                .body("skippedReasons.'no metadata.namespace'", equalTo(1));
        assertEquals(1, LedgerStandIn.metering().size());
        assertEquals(1, LedgerStandIn.governance().size());
        assertEquals(1, LedgerStandIn.facts(LedgerStandIn.metering().get(0)), "the pod");
        assertEquals(3, LedgerStandIn.facts(LedgerStandIn.governance().get(0)),
                "the workload, the pod's view, the event");
        assertEquals("east-1", LedgerStandIn.governance().get(0).path("cluster").asText());
        assertEquals(List.of("w1"), LedgerStandIn.governance("workloads").stream().map(w -> w.path("uid").asText()).toList());
        assertEquals("p1", LedgerStandIn.governance("podStatuses").get(0).path("uid").asText());
    }

    @Test
    void anUnavailableLedgerStoresNeitherHalfAndSaysSo() {
        LedgerStandIn.refuse(503, LedgerStandIn.GOVERNANCE, LedgerStandIn.BUNDLES);
        given().contentType(NDJSON).body(stream(GovernanceStreamTest.POD)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(503).contentType("application/problem+json")
                .body("detail", containsString("nothing of this request is stored"))
                .body("detail", containsString("send it again"));
        assertTrue(LedgerStandIn.metering().isEmpty());
        assertTrue(LedgerStandIn.governance().isEmpty());
        LedgerStandIn.answerAgain();
        LedgerStandIn.bundleReceipt(1, 1);
        given().contentType(NDJSON).body(stream(GovernanceStreamTest.POD)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200).body("governance.accepted", equalTo(1));
        assertEquals(1, LedgerStandIn.facts(LedgerStandIn.governance().get(0)), "the pod's view");
    }

    @Test
    void aLedgerFailingOnTheRequestIsA500ThatSaysNothingIsStored() {
        LedgerStandIn.refuse(500, LedgerStandIn.FACTS, LedgerStandIn.BUNDLES);
        given().contentType(NDJSON).body(stream(GovernanceStreamTest.POD, GovernanceStreamTest.WORKLOAD))
                .post("/api/v1/ingest/kubernetes").then().statusCode(500).contentType("application/problem+json")
                .body("detail", containsString("the ledger failed on this batch"))
                .body("detail", containsString("nothing of it is stored"));
        assertTrue(LedgerStandIn.metering().isEmpty());
        assertTrue(LedgerStandIn.governance().isEmpty());
    }

    @Test
    void onlyGovernanceFactsSendOnlyAGovernanceBatch() {
        LedgerStandIn.bundleReceipt(0, 1);
        given().contentType(NDJSON).body(stream(GovernanceStreamTest.WORKLOAD)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200).body("accepted", equalTo(0)).body("governance.accepted", equalTo(1));
        assertTrue(LedgerStandIn.metering().isEmpty());
        assertEquals(1, LedgerStandIn.facts(LedgerStandIn.governance().get(0)), "the workload");
    }

    @Test
    void aKernelLogBecomesXidsAttributedToTheCard() throws IOException {
        LedgerStandIn.receipt(LedgerStandIn.GOVERNANCE, "{\"accepted\":6,\"duplicates\":0}");
        byte[] log;
        try (InputStream in = getClass().getResourceAsStream("/governance/dmesg-xid-119-gsp-timeout-gpud.log")) {
            log = in.readAllBytes();
        }
        given().contentType("text/plain").queryParam("node", "xe9680-1").queryParam("cluster", "east-1").body(log)
                .post("/api/v1/ingest/kmsg").then().statusCode(200)
                .body("xids", equalTo(5)).body("gpuAddresses", equalTo(1)).body("skipped", equalTo(0))
                .body("governance.accepted", equalTo(6));
        List<String> uuids = LedgerStandIn.governance("xids").stream().map(x -> x.path("gpuUuid").asText()).distinct().toList();
        assertEquals(List.of("GPU-509665ad-b600-ac93-3616-d754b23d636d"), uuids);
        assertEquals(6, LedgerStandIn.governance().stream().mapToInt(LedgerStandIn::facts).sum(),
                "the five Xids and what the log said of the card's address");
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
        assertTrue(LedgerStandIn.governance().isEmpty(), "nothing to send, nothing sent");
    }

    @Test
    void containerLogLinesBecomeFailureSignals() {
        given().contentType("text/plain").queryParam("namespace", "ml").queryParam("pod", "llm-0").queryParam("container", "main")
                .body("2026-05-01T10:00:00.123456789Z step 10 loss 1.2\n"
                        + "2026-05-01T10:00:05Z torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n")
                .post("/api/v1/ingest/container-log").then().statusCode(200)
                .body("lines", equalTo(2)).body("signals", equalTo(1));
        var signal = LedgerStandIn.governance("logSignals").get(0);
        assertEquals("cuda-oom", signal.path("signal").asText());
        assertEquals("2026-05-01T10:00:05Z", signal.path("at").asText());
        given().contentType("text/plain").queryParam("pod", "llm-0").body("x").post("/api/v1/ingest/container-log")
                .then().statusCode(400).body("field", equalTo("namespace"));
    }
}
