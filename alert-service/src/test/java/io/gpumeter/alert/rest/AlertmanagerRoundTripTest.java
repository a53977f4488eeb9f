package io.gpumeter.alert.rest;

import io.gpumeter.common.testing.Management;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.gpumeter.alert.repository.OutboxRepository;
import io.gpumeter.alert.service.OutboxDelivery;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.awaitility.Awaitility.await;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * End to end with the real Alertmanager: alert-service fires from a ledger situation → Alertmanager routes it → its
 * webhook comes back → the runbook cordons the node and freezes decode workloads on the fabric8 mock API server →
 * the audit shows the chain; clearing the situation resolves the alerts, which undoes the freeze and keeps the
 * cordon as the runbook says. With Alertmanager stopped the alert waits in the outbox and arrives after a restart.
 */
@QuarkusTest
@TestProfile(AlertmanagerRoundTripTest.Enforcing.class)
@WithKubernetesTestServer(crud = true)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
@WithTestResource(RealAlertmanager.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class AlertmanagerRoundTripTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration H3 = Duration.ofHours(3);

    /** The node actions enforced, short back-off. */
    public static class Enforcing implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> c = new HashMap<>();
            c.put("gpumeter.alert.actions.cordon.mode", "enforce");
            c.put("gpumeter.alert.actions.freeze-decode.mode", "enforce");
            c.put("gpumeter.alert.alertmanager.backoff-initial", "200ms");
            c.put("gpumeter.alert.alertmanager.backoff-max", "1s");
            c.put("gpumeter.alert.rules.bandwidth.inference-namespaces", "serve-.*");
            return c;
        }
    }

    @KubernetesTestServer
    KubernetesServer server;
    @Inject
    OutboxDelivery delivery;
    @Inject
    OutboxRepository outbox;

    @BeforeEach
    void needsAlertmanager() {
        Assumptions.assumeTrue(RealAlertmanager.available(), "skipped: " + RealAlertmanager.TOOL
                + " is not installed (apt-get install prometheus-alertmanager)");
    }

    /** gpu-1's GPU-a fell off the bus; its GPU-b, serving chat, is bandwidth-bound. */
    static void troubled(boolean xid79, boolean saturated) {
        FakeLedger.reset();
        FakeLedger.nodes("gpu-1", "gpu-2", "gpu-3", "gpu-4", "gpu-5", "gpu-6", "gpu-7", "gpu-8", "gpu-9", "gpu-10");
        FakeLedger.occupants("gpu-1",
                FakeLedger.occupant("gpu-1", "GPU-a", "train", "trainer-0", "acme", H3),
                FakeLedger.occupant("gpu-1", "GPU-b", "serve-chat", "vllm-0", "acme", H3));
        FakeLedger.usage("GPU-a", Map.of("XID", xid79 ? new double[]{0, 79, 79} : new double[]{79, 0, 0},
                "SM_ACTIVE", FakeLedger.flat(0.5, 3)));
        double[] dram = FakeLedger.flat(saturated ? 0.93 : 0.3, 8);
        FakeLedger.usage("GPU-b", Map.of("DRAM_ACTIVE", dram, "SM_ACTIVE", FakeLedger.flat(0.2, 8),
                "GR_ENGINE_ACTIVE", FakeLedger.flat(0.9, 8)));
    }

    private static JsonNode alertmanagerAlerts() {
        try {
            return JSON.readTree(URI.create(RealAlertmanager.url() + "/api/v2/alerts?active=true&silenced=false&inhibited=false")
                    .toURL());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonPath actions() {
        return given().get("/api/v1/actions").then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, Object> action(String alertname, String action) {
        List<Map<String, Object>> rows = actions().getList("findAll { it.alertname == '" + alertname + "' && it.action == '"
                + action + "' }");
        return rows.isEmpty() ? null : rows.get(rows.size() - 1);
    }

    private Node node(String name) {
        return server.getClient().nodes().withName(name).get();
    }

    private static boolean settled(Map<String, Object> action) {
        return action != null && !"PENDING".equals(action.get("result"));
    }

    @Test
    @Order(1)
    void anAlertGoesOutComesBackAndTheRunbookActs() throws InterruptedException {
        for (int i = 1; i <= 2; i++) {
            server.getClient().nodes().resource(new NodeBuilder().withNewMetadata().withName("gpu-" + i).endMetadata()
                    .build()).create();
        }
        troubled(true, true);
        JsonPath rules = given().post("/api/v1/rules/evaluations").then().statusCode(200).extract().jsonPath();
        assertEquals("FIRING", rules.getString("find { it.alertname == 'GpuFallenOffBus' }.status"));
        assertEquals("FIRING", rules.getString("find { it.alertname == 'GpuDramBandwidthSaturated' }.status"));

        JsonPath ours = given().get("/api/v1/alerts").then().statusCode(200).extract().jsonPath();
        String lostFp = ours.getString("find { it.alertname == 'GpuFallenOffBus' }.fingerprint");
        String dramFp = ours.getString("find { it.alertname == 'GpuDramBandwidthSaturated' }.fingerprint");
        await("Alertmanager to hold both alerts").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250))
                .until(() -> alertmanagerAlerts().size() == 2);
        for (JsonNode a : alertmanagerAlerts()) {
            String name = a.path("labels").path("alertname").asText();
            assertEquals(name.equals("GpuFallenOffBus") ? lostFp : dramFp, a.path("fingerprint").asText(),
                    "Alertmanager's fingerprint is alert-service's");
            assertTrue(a.path("generatorURL").asText().endsWith("/api/v1/alerts/" + a.path("fingerprint").asText()));
            assertEquals("gpu-1", a.path("labels").path("node").asText());
            assertTrue(a.path("receivers").toString().contains("gpumeter-alert-service"), a.toString());
        }

        // an action is recorded PENDING first and applied after (the outbox): wait for its outcome, not its record
        await("the webhook to come back and the runbook to act").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250))
                .until(() -> settled(action("GpuFallenOffBus", "cordon")) && settled(action("GpuDramBandwidthSaturated", "freeze-decode")));
        Map<String, Object> cordon = action("GpuFallenOffBus", "cordon");
        assertEquals("APPLIED", cordon.get("result"), cordon.toString());
        assertEquals(lostFp, cordon.get("alertFingerprint"));
        assertEquals("gpu-1", cordon.get("target"));
        Map<String, Object> freeze = action("GpuDramBandwidthSaturated", "freeze-decode");
        assertEquals("APPLIED", freeze.get("result"), freeze.toString());
        assertEquals("DRY_RUN", action("GpuFallenOffBus", "ticket").get("result"), "tickets stay in dry-run here");

        Node n = node("gpu-1");
        assertEquals(Boolean.TRUE, n.getSpec().getUnschedulable(), "cordoned");
        assertEquals("true", n.getMetadata().getLabels().get("gpumeter.io/decode-frozen"), "decode-frozen");
        Node other = node("gpu-2");
        assertTrue(other.getSpec() == null || other.getSpec().getUnschedulable() == null, "nothing else touched");
    }

    @Test
    @Order(2)
    void resolvingUndoesWhatTheRunbookSaysToUndo() throws InterruptedException {
        troubled(false, false);
        JsonPath rules = given().post("/api/v1/rules/evaluations").then().statusCode(200).extract().jsonPath();
        assertEquals("OK", rules.getString("find { it.alertname == 'GpuFallenOffBus' }.status"));
        await("Alertmanager to resolve both alerts").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250))
                .until(() -> alertmanagerAlerts().isEmpty());
        await("the resolved notifications").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250))
                .until(() -> action("GpuDramBandwidthSaturated", "freeze-decode").get("undoResult") != null
                && action("GpuFallenOffBus", "cordon").get("undoResult") != null);

        Map<String, Object> freeze = action("GpuDramBandwidthSaturated", "freeze-decode");
        assertEquals("UNDONE", freeze.get("undoResult"));
        assertTrue(freeze.get("resolvedAt") != null && freeze.get("timeToResolveSeconds") != null, freeze.toString());
        assertEquals("KEPT", action("GpuFallenOffBus", "cordon").get("undoResult"));
        Node n = node("gpu-1");
        assertFalse(n.getMetadata().getLabels() != null && n.getMetadata().getLabels().containsKey("gpumeter.io/decode-frozen"));
        assertEquals(Boolean.TRUE, n.getSpec().getUnschedulable(), "after Xid 79 a person uncordons");
        assertEquals(2, actions().getList("findAll { it.action == 'cordon' || it.action == 'freeze-decode' }").size(),
                "one row per action; resolved notifications add none");
    }

    @Test
    @Order(3)
    void withAlertmanagerStoppedTheAlertWaitsAndArrivesAfterARestart() throws InterruptedException {
        RealAlertmanager.halt();
        try {
            troubled(true, false);
            given().post("/api/v1/rules/evaluations").then().statusCode(200);
            assertEquals(1L, outbox.backlog().await().indefinitely().alerts());
            String metrics = Management.given().get("/q/metrics").then().extract().asString();
            assertTrue(metrics.contains("gpumeter_alert_outbox_alerts 1.0"), "the backlog gauge shows the waiting alert");
        } finally {
            RealAlertmanager.launch();
        }
        await("the outbox to drain").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250)).until(() -> {
            delivery.deliver().await().indefinitely();
            return outbox.backlog().await().indefinitely().alerts() == 0;
        });
        await("Alertmanager to hold the alert again").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250))
                .until(() -> alertmanagerAlerts().size() == 1);
        assertEquals("GpuFallenOffBus", alertmanagerAlerts().get(0).path("labels").path("alertname").asText());
        await("the new episode's webhook").atMost(Duration.ofSeconds(45)).pollInterval(Duration.ofMillis(250))
                .until(() -> actions().getList("findAll { it.alertname == 'GpuFallenOffBus' && it.action == 'cordon' }").size() == 2);
        Map<String, Object> again = action("GpuFallenOffBus", "cordon");
        assertEquals("APPLIED", again.get("result"));
        assertTrue(String.valueOf(again.get("detail")).contains("already cordoned by gpumeter"), String.valueOf(again.get("detail")));
    }
}
