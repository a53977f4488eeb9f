package io.gpumeter.collector.rest;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@WithTestResource(LedgerStandIn.class)
class KubernetesIngestResourceTest {

    static final String NDJSON = "application/x-ndjson";

    static String pod(String uid, String rv, String padding) {
        return "{\"type\":\"MODIFIED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"p-" + uid
                + "\",\"namespace\":\"ml\",\"uid\":\"" + uid + "\",\"resourceVersion\":\"" + rv + "\",\"annotations\":{\"note\":\""
                + padding + "\"}},\"spec\":{\"nodeName\":\"n1\",\"containers\":[{\"name\":\"a\",\"resources\":{\"limits\":"
                + "{\"nvidia.com/gpu\":\"1\"}}}]},\"status\":{\"conditions\":[{\"type\":\"PodScheduled\",\"status\":\"True\","
                + "\"lastTransitionTime\":\"2026-05-01T00:00:00Z\"}]}}}";
    }

    static final String NAMESPACE = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Namespace\",\"apiVersion\":\"v1\",\"metadata\":"
            + "{\"name\":\"ml\",\"uid\":\"ns\",\"resourceVersion\":\"1\",\"labels\":{\"gpumeter.io/tenant\":\"acme\"}}}}";
    static final String CPU_POD = "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"web\",\"namespace\":\"ml\","
            + "\"uid\":\"w\",\"resourceVersion\":\"3\"},\"spec\":{\"containers\":[{\"name\":\"a\"}]}}}";

    @TestHTTPResource
    URL url;

    static byte[] bytes(Object body) {
        return body.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    @Test
    void replayDeliversOneBatchAndCountsWhatItSkipped() {
        LedgerStandIn.bundleReceipt(3, 0); // the namespace and both pods
        String body = String.join("\n", NAMESPACE, pod("u1", "10", ""), CPU_POD, pod("u2", "11", "")) + "\n";
        given().contentType(NDJSON).queryParam("cluster", "east-1").body(bytes(body)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200)
                .body("cluster", equalTo("east-1"))
                .body("events", equalTo(4))
                .body("accepted", equalTo(3))
                .body("duplicates", equalTo(0))
                .body("skipped", equalTo(1))
                .body("skippedReasons.'no GPU requested'", equalTo(1));
        assertEquals(1, LedgerStandIn.metering().size());
        assertEquals(3, LedgerStandIn.facts(LedgerStandIn.metering().get(0)), "the namespace and both pods");
        assertEquals("east-1", LedgerStandIn.metering().get(0).path("cluster").asText());
        assertEquals(List.of("u1", "u2"), LedgerStandIn.pods().stream().map(p -> p.path("uid").asText()).toList());
        assertEquals("2026-05-01T00:00:00Z", LedgerStandIn.pods().get(0).path("scheduledAt").asText());
    }

    @Test
    void clusterDefaultsToConfiguration() {
        given().contentType(NDJSON).body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200).body("cluster", equalTo("default"));
    }

    @Test
    void aMalformedLineRefusesTheWholeRequestAndSendsNothing() {
        String body = String.join("\n", NAMESPACE, pod("u1", "10", ""), "{\"type\":\"ADDED\",", pod("u2", "11", ""));
        given().contentType(NDJSON).body(bytes(body)).post("/api/v1/ingest/kubernetes").then()
                .statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo("line 3"))
                .body("detail", containsString("line 3"));
        assertTrue(LedgerStandIn.metering().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"East", "a_b", "-x", "way-too-long-cluster-name-that-goes-past-sixty-three-characters-in-all"})
    void aBadClusterNameIsRefused(String cluster) {
        given().contentType(NDJSON).queryParam("cluster", cluster).body(bytes(pod("u1", "1", ""))).post("/api/v1/ingest/kubernetes")
                .then().statusCode(400).contentType("application/problem+json").body("field", equalTo("cluster"));
        assertTrue(LedgerStandIn.metering().isEmpty());
    }

    @Test
    void anUnavailableLedgerIsA503AndTheSenderMayRetry() {
        LedgerStandIn.refuse(503);
        given().contentType(NDJSON).body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then()
                .statusCode(503).contentType("application/problem+json").body("detail", containsString("send it again"));
        // The delivery's own settings (application.properties), not common's read defaults (two retries).
        assertEquals(5, LedgerStandIn.calls(LedgerStandIn.BUNDLES).size(), "one delivery and four retries");
        LedgerStandIn.answerAgain();
        LedgerStandIn.bundleReceipt(1, 0);
        given().contentType(NDJSON).body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200).body("accepted", equalTo(1));
    }

    @Test
    void aLedgerFailingOnTheBatchIsA500ThatIsNotRetried() {
        LedgerStandIn.refuse(500);
        given().contentType(NDJSON).body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then()
                .statusCode(500).contentType("application/problem+json")
                .body("detail", containsString("the ledger failed on this batch"))
                .body("detail", containsString("nothing of it is stored"));
        assertEquals(1, LedgerStandIn.calls(LedgerStandIn.BUNDLES).size(), "a failure on the batch is not retried");
        LedgerStandIn.answerAgain();
        LedgerStandIn.bundleReceipt(1, 0);
        given().contentType(NDJSON).body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then()
                .statusCode(200).body("accepted", equalTo(1));
    }

    @Test
    void aBatchTheLedgerRefusesIsA422WithoutTheLedgersRawAnswer() {
        LedgerStandIn.refuse(400); // its answer is no problem document: nothing of it is passed on
        given().contentType(NDJSON).body(bytes(pod("u1", "10", ""))).post("/api/v1/ingest/kubernetes").then()
                .statusCode(422).contentType("application/problem+json")
                .body("detail", equalTo("the ledger refused the batch (HTTP 400)"));
    }

    @Test
    void wrongContentTypeIsRefused() {
        given().contentType("application/xml").body("<pods/>").post("/api/v1/ingest/kubernetes").then()
                .statusCode(415).contentType("application/problem+json")
                .body("detail", equalTo("The body's media type is not accepted here."));
    }

    @Test
    void fiftyThousandLinesAndTwentyMegabytesAreAccepted() throws Exception {
        LedgerStandIn.bundleReceipt(50_000, 0);
        String padding = "x".repeat(150);
        StringBuilder body = new StringBuilder(21 * 1024 * 1024);
        for (int i = 0; i < 50_000; i++) {
            body.append(pod("u" + i, Integer.toString(100 + i), padding)).append('\n');
        }
        assertTrue(body.length() >= 20 * 1000 * 1000, "body is " + body.length() + " bytes");
        // REST Assured needs tens of seconds to send 20 MB; the JDK client sends it as a user's tool would.
        long t0 = System.nanoTime();
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(url + "api/v1/ingest/kubernetes"))
                .header("Content-Type", NDJSON).POST(HttpRequest.BodyPublishers.ofString(body.toString())).build(),
                HttpResponse.BodyHandlers.ofString());
        System.out.printf("50,000 lines / %d bytes replayed in %d ms%n", body.length(), (System.nanoTime() - t0) / 1_000_000);
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("\"events\":50000"), response.body());
        assertTrue(response.body().contains("\"accepted\":50000"), response.body());
        assertEquals(50_000, LedgerStandIn.pods().size());
        List<LoggedRequest> bundles = LedgerStandIn.calls(LedgerStandIn.BUNDLES);
        LoggedRequest last = bundles.get(bundles.size() - 1);
        assertTrue(last.getBody().length > 20 * 1000 * 1000, "the bundle arrived whole");
        assertEquals("null", String.valueOf(last.getHeader("Content-Length")),
                "sent in pieces as it is written, so without a length: the ledger reads its start meanwhile");
    }
}
