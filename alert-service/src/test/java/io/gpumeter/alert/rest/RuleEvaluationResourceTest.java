package io.gpumeter.alert.rest;

import io.gpumeter.common.testing.Management;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;
import io.gpumeter.alert.repository.OutboxRepository;
import io.gpumeter.alert.service.OutboxDelivery;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItems;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The rule engine against a constructed ledger: each checklist-9 alert (GPU lost, driver anomaly, OOM, long idle)
 * fires from its situation and resolves when it clears; sources the suite does not have yet are inactive; a failing
 * ledger holds alerts as they were; an incident still open keeps its alert firing however long ago it started.
 * Alertmanager is stopped at first: alerts wait in the outbox, the backlog gauge shows them, attempts back off, and
 * once a receiver listens every one arrives, resolutions included.
 */
@QuarkusTest
@TestProfile(RuleEvaluationResourceTest.StoppedAlertmanager.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
@WithTestResource(RuleEvaluationResourceTest.ClosedPort.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RuleEvaluationResourceTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration H3 = Duration.ofHours(3);

    /** Short back-off, and a clock the tests move on, so that they need not wait. */
    public static class StoppedAlertmanager implements QuarkusTestProfile {
        @Override
        public Set<Class<?>> getEnabledAlternatives() {
            return Set.of(TestClock.class);
        }

        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.alert.alertmanager.backoff-initial", "300ms",
                    "gpumeter.alert.alertmanager.backoff-max", "1s",
                    "gpumeter.alert.rules.bandwidth.inference-namespaces", "serve-.*");
        }
    }

    /** A port where no Alertmanager listens (yet). */
    public static class ClosedPort implements QuarkusTestResourceLifecycleManager {
        static int port;

        @Override
        public Map<String, String> start() {
            try (ServerSocket s = new ServerSocket(0)) {
                port = s.getLocalPort();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return Map.of("quarkus.rest-client.alertmanager.url", "http://127.0.0.1:" + port,
                    "quarkus.rest-client.alertmanager.connect-timeout", "500");
        }

        @Override
        public void stop() {
        }
    }

    @Inject
    OutboxDelivery delivery;
    @Inject
    OutboxRepository outbox;

    @BeforeEach
    void ledgerSituation() {
        FakeLedger.reset();
    }

    /** GPU-a fell off the bus, GPU-b reported a new Xid 48, GPU-c has idled for 2 h, ml OOMed twice on n2. */
    static void troubled() {
        FakeLedger.nodes("n1", "n2");
        FakeLedger.occupants("n1",
                FakeLedger.occupant("n1", "GPU-a", "train", "trainer-0", "acme", H3),
                FakeLedger.occupant("n1", "GPU-b", "train", "trainer-1", "acme", H3));
        FakeLedger.occupants("n2", FakeLedger.occupant("n2", "GPU-c", "ml", "notebook", "beta", H3));
        double[] newXid = FakeLedger.flat(0, 90);
        java.util.Arrays.fill(newXid, 85, 90, 48);
        FakeLedger.usage("GPU-a", Map.of("XID", new double[]{0, 0, 79, 79}, "SM_ACTIVE", FakeLedger.flat(0.6, 4)));
        FakeLedger.usage("GPU-b", Map.of("XID", newXid, "SM_ACTIVE", FakeLedger.flat(0.7, 90)));
        FakeLedger.usage("GPU-c", Map.of("GR_ENGINE_ACTIVE", FakeLedger.flat(0.01, 125), "SM_ACTIVE", FakeLedger.flat(0.0, 125)));
        Instant now = Instant.now();
        // both ended, both within the 7-day look-back: the window's read has them, the read of open ones none
        FakeLedger.incidents("["
                + incident("oom", "n2", "ml", now.minus(Duration.ofMinutes(3))) + ","
                + incident("oom", "n2", "ml", now.minus(Duration.ofMinutes(12))) + "]", "[]");
        FakeLedger.answer("/api/v1/violations", "[]");
    }

    /** The same fleet, healthy: the Xids cleared by a reset, the notebook at work, no failures. */
    static void healthy() {
        FakeLedger.nodes("n1", "n2");
        FakeLedger.occupants("n1",
                FakeLedger.occupant("n1", "GPU-a", "train", "trainer-0", "acme", H3),
                FakeLedger.occupant("n1", "GPU-b", "train", "trainer-1", "acme", H3));
        FakeLedger.occupants("n2", FakeLedger.occupant("n2", "GPU-c", "ml", "notebook", "beta", H3));
        FakeLedger.usage("GPU-a", Map.of("XID", new double[]{79, 79, 0}, "SM_ACTIVE", FakeLedger.flat(0.6, 3)));
        FakeLedger.usage("GPU-b", Map.of("XID", FakeLedger.flat(0, 90), "SM_ACTIVE", FakeLedger.flat(0.7, 90)));
        double[] working = FakeLedger.flat(0.01, 125);
        working[120] = 0.4;
        FakeLedger.usage("GPU-c", Map.of("GR_ENGINE_ACTIVE", working));
        FakeLedger.incidents("[]", "[]");
        FakeLedger.answer("/api/v1/violations", "[]");
    }

    static String incident(String cause, String node, String ns, Instant started) {
        return "{\"cluster\":\"c1\",\"cause\":\"" + cause + "\",\"rootCauseClass\":\"workload\",\"scope\":\"pod\",\"node\":\""
                + node + "\",\"namespace\":\"" + ns + "\",\"pod\":\"p\",\"startedAt\":\"" + started + "\",\"open\":false}";
    }

    static JsonPath evaluate() {
        return given().post("/api/v1/rules/evaluations").then().statusCode(200).extract().jsonPath();
    }

    static String status(JsonPath rules, String alertname) {
        return rules.getString("find { it.alertname == '" + alertname + "' }.status");
    }

    static double backlogGauge() {
        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith("gpumeter_alert_outbox_alerts")).findFirst()
                .map(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).orElse(-1.0);
    }

    @Test
    @Order(1)
    void beforeTheFirstEvaluationEveryRuleIsListedAsNotEvaluated() {
        given().get("/api/v1/rules").then().statusCode(200)
                .body("alertname", hasItems("GpuFallenOffBus", "GpuDriverXid", "GpuMissing", "GpuWorkloadOom",
                        "GpuAllocationIdle", "GpuDramBandwidthSaturated", "InferenceLatencyP99High", "SloErrorBudgetFastBurn",
                        "GpuQuotaHardViolation", "HamiLedgerDrift", "GpuHealthDegraded"))
                .body("status", org.hamcrest.Matchers.everyItem(equalTo("NOT_EVALUATED")));
    }

    @Test
    @Order(2)
    void eachChecklistAlertFiresFromItsLedgerSituation() {
        troubled();
        JsonPath rules = evaluate();
        assertEquals("FIRING", status(rules, "GpuFallenOffBus"));
        assertEquals("FIRING", status(rules, "GpuDriverXid"));
        assertEquals("FIRING", status(rules, "GpuWorkloadOom"));
        assertEquals("FIRING", status(rules, "GpuAllocationIdle"));
        assertEquals("OK", status(rules, "GpuMissing"));
        assertEquals("OK", status(rules, "GpuDramBandwidthSaturated"));
        assertEquals("OK", status(rules, "GpuQuotaHardViolation"));
        assertEquals("INACTIVE", status(rules, "SloErrorBudgetFastBurn"), "slo-service has no API yet");
        assertTrue(rules.getString("find { it.alertname == 'InferenceLatencyP99High' }.note").contains("source not available"));

        String firing = given().get("/api/v1/alerts").then().statusCode(200).extract().asString();
        Contract.record("alert", "alerts", firing); // the console's Alerts page lists them
        JsonPath alerts = new JsonPath(firing);
        assertEquals(4, alerts.getList("$").size(), alerts.prettify());
        assertEquals("n1", alerts.getString("find { it.alertname == 'GpuFallenOffBus' }.labels.node"));
        assertEquals("GPU-a", alerts.getString("find { it.alertname == 'GpuFallenOffBus' }.labels.gpu_uuid"));
        assertEquals("critical", alerts.getString("find { it.alertname == 'GpuFallenOffBus' }.labels.severity"));
        assertEquals("http://alert-service:8084/api/v1/runbook#GpuFallenOffBus",
                alerts.getString("find { it.alertname == 'GpuFallenOffBus' }.annotations.runbook_url"));
        assertEquals("GPU-b", alerts.getString("find { it.alertname == 'GpuDriverXid' }.labels.gpu_uuid"));
        assertEquals("notebook", alerts.getString("find { it.alertname == 'GpuAllocationIdle' }.labels.pod"));
        assertEquals("beta", alerts.getString("find { it.alertname == 'GpuAllocationIdle' }.labels.tenant"));
        assertEquals("beta", alerts.getString("find { it.alertname == 'GpuWorkloadOom' }.labels.tenant"));
        assertEquals("n2", alerts.getString("find { it.alertname == 'GpuWorkloadOom' }.labels.node"));
        String fp = alerts.getString("find { it.alertname == 'GpuFallenOffBus' }.fingerprint");
        given().get("/api/v1/alerts/" + fp).then().statusCode(200).body("[0].state", equalTo("firing"));
        given().get("/api/v1/alerts/ffffffffffffffff").then().statusCode(404).contentType("application/problem+json");
        given().get("/api/v1/alerts/GPU-a").then().statusCode(400).body("field", equalTo("fingerprint"));
        given().queryParam("state", "pending").get("/api/v1/alerts").then().statusCode(400).body("field", equalTo("state"));
    }

    @Test
    @Order(3)
    void withAlertmanagerDownTheAlertsWaitInTheOutboxWithBackOff() throws InterruptedException {
        assertEquals(4L, outbox.backlog().await().indefinitely().alerts());
        assertEquals(4.0, backlogGauge());
        delivery.deliver().await().indefinitely();
        var first = outbox.due(Instant.now().plusSeconds(3600), 100).await().indefinitely();
        assertEquals(4, first.size());
        int attempts = first.get(0).attempts();
        assertTrue(attempts >= 2, "the evaluation tried once, this delivery again: " + attempts);
        assertTrue(outbox.due(Instant.now(), 100).await().indefinitely().isEmpty(), "nothing due until the back-off passes");
    }

    @Test
    @Order(4)
    void aFailingLedgerHoldsTheAlertsInsteadOfResolvingThem() {
        troubled();
        FakeLedger.fail(FakeLedger.FLEET_OCCUPANTS, 500);
        FakeLedger.fail("/api/v1/failures/incidents", 503);
        JsonPath rules = evaluate();
        assertEquals("HELD", status(rules, "GpuFallenOffBus"));
        assertEquals("HELD", status(rules, "GpuWorkloadOom"));
        assertTrue(rules.getString("find { it.alertname == 'GpuAllocationIdle' }.note").contains("usage source failed"));
        given().get("/api/v1/alerts").then().body("size()", equalTo(4));
    }

    @Test
    @Order(5)
    void theAlertsResolveWhenTheSituationClears() {
        healthy();
        JsonPath rules = evaluate();
        for (String alert : List.of("GpuFallenOffBus", "GpuDriverXid", "GpuWorkloadOom", "GpuAllocationIdle")) {
            assertEquals("OK", status(rules, alert), alert);
        }
        given().get("/api/v1/alerts").then().body("size()", equalTo(0));
        JsonPath all = given().queryParam("state", "all").get("/api/v1/alerts").then().statusCode(200).extract().jsonPath();
        assertEquals(4, all.getList("findAll { it.state == 'resolved' }").size());
        assertTrue(all.getList("endsAt").stream().allMatch(e -> e != null));
        assertEquals(4L, outbox.backlog().await().indefinitely().alerts(), "each episode waits once, now with its end");
    }

    @Test
    @Order(6)
    void onceAlertmanagerListensEveryAlertArrivesResolutionsIncluded() throws Exception {
        StandIn receiver = StandIn.startOn(ClosedPort.port);
        receiver.answer(post(urlPathEqualTo("/api/v2/alerts")), WireMock.aResponse().withStatus(200));
        try {
            TestClock.CLOCK.advance(Duration.ofMillis(1100)); // the longest back-off, 1 s, runs out
            assertEquals(4, delivery.deliver().await().indefinitely());
            List<JsonNode> received = alertsReceived(receiver, 0);
            assertEquals(4, received.size());
            for (JsonNode alert : received) {
                assertTrue(Instant.parse(alert.path("endsAt").asText()).isBefore(Instant.now()), alert.toString());
                assertTrue(alert.path("generatorURL").asText().startsWith("http://alert-service:8084/api/v1/alerts/"));
                assertEquals("true", alert.path("labels").path("gpumeter").asText());
            }
            assertEquals(0L, outbox.backlog().await().indefinitely().alerts());
            assertEquals(0.0, backlogGauge());

            troubled();
            int posted = receiver.count(postRequestedFor(urlPathEqualTo("/api/v2/alerts")));
            evaluate();
            evaluate();
            List<JsonNode> again = alertsReceived(receiver, posted);
            long gpuLost = again.stream().filter(a -> a.path("labels").path("alertname").asText().equals("GpuFallenOffBus")).count();
            assertEquals(2, gpuLost, "a firing alert is sent again on every evaluation");
            JsonNode last = again.get(again.size() - 1);
            assertTrue(Instant.parse(last.path("endsAt").asText()).isAfter(Instant.now().plusSeconds(60)),
                    "a firing alert ends in the future unless it is sent again");
        } finally {
            receiver.close();
        }
    }

    /** The alerts posted to the receiver after its first {@code skipped} posts, in the order posted. */
    private static List<JsonNode> alertsReceived(StandIn receiver, int skipped) throws IOException {
        List<JsonNode> alerts = new ArrayList<>();
        List<LoggedRequest> posts = receiver.calls(postRequestedFor(urlPathEqualTo("/api/v2/alerts")));
        for (LoggedRequest post : posts.subList(skipped, posts.size())) {
            JSON.readTree(post.getBodyAsString()).forEach(alerts::add);
        }
        return alerts;
    }

    @Test
    @Order(7)
    void theSloRulesLightUpOnceSloServiceAnswers() {
        healthy();
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MINUTES);
        // slo-service's own shapes: each SLO with its status's burn-rate alerts and its service's per-minute latency curve.
        StringBuilder minutes = new StringBuilder();
        for (int i = 4; i >= 1; i--) {
            minutes.append(minutes.length() == 0 ? "" : ",").append("{\"minute\":\"").append(now.minusSeconds(60L * i))
                    .append("\",\"latency\":{\"count\":100,\"p99Ms\":").append(i == 4 ? 120 : 450).append("}}");
        }
        FakeLedger.answer("/api/v1/slo-states", "[{\"slo\":{\"name\":\"chat-ttft\",\"selector\":{\"service\":\"chat\","
                + "\"tenant\":\"acme\"},\"sli\":\"TTFT\",\"objective\":{\"percentile\":99,\"thresholdMs\":300},"
                + "\"target\":0.99,\"window\":\"P30D\"},"
                + "\"status\":{\"name\":\"chat-ttft\",\"state\":\"PAGE\",\"alerts\":["
                + "{\"severity\":\"PAGE\",\"factor\":14.4,\"budgetConsumed\":0.02,"
                + "\"longWindow\":{\"window\":\"PT1H\",\"good\":984,\"total\":1000,\"burnRate\":16.0},"
                + "\"shortWindow\":{\"window\":\"PT5M\",\"good\":69,\"total\":100,\"burnRate\":30.5},\"firing\":true}]},"
                + "\"latency\":{\"service\":\"chat\",\"sli\":\"TTFT\",\"minutes\":[" + minutes + "]}}]");
        JsonPath rules = evaluate();
        assertEquals("FIRING", status(rules, "InferenceLatencyP99High"));
        assertEquals("FIRING", status(rules, "SloErrorBudgetFastBurn"));
        JsonPath alerts = given().get("/api/v1/alerts").then().statusCode(200).extract().jsonPath();
        assertEquals("chat-ttft", alerts.getString("find { it.alertname == 'SloErrorBudgetFastBurn' }.labels.slo"));
        assertEquals("acme", alerts.getString("find { it.alertname == 'InferenceLatencyP99High' }.labels.tenant"));

        FakeLedger.fail("/api/v1/slo-states", 404);
        rules = evaluate();
        assertEquals("INACTIVE", status(rules, "SloErrorBudgetFastBurn"));
        given().get("/api/v1/alerts").then().body("findAll { it.alertname.startsWith('Slo') }.size()", equalTo(0));
    }

    @Test
    @Order(8)
    void theCostRulesFireFromBillingsFeedsAndHoldWhileBillingFails() {
        healthy();
        FakeLedger.answer("/api/v1/budget-forecasts", "[{\"tenant\":\"acme\",\"month\":\"2026-03\",\"currency\":\"USD\","
                + "\"budget\":600.00,\"asOf\":\"2026-03-11T00:00:00Z\",\"spentToDate\":205.00,\"elapsedFraction\":0.322581,"
                + "\"forecast\":635.50,\"overrun\":true,\"overrunAmount\":35.50,\"remaining\":395.00,\"closed\":false},"
                + "{\"tenant\":\"beta\",\"month\":\"2026-03\",\"currency\":\"USD\",\"budget\":100.00,\"spentToDate\":20.50,"
                + "\"elapsedFraction\":0.322581,\"forecast\":63.55,\"overrun\":false}]");
        FakeLedger.answer("/api/v1/cost-anomalies", "{\"day\":\"2026-11-15\",\"currency\":\"USD\",\"trailingDays\":14,"
                + "\"tenants\":[{\"tenant\":\"acme\",\"cost\":82.00,\"trailingMean\":45.10,\"trailingStdDev\":4.25,"
                + "\"threshold\":57.86,\"anomalous\":true},{\"tenant\":\"gamma\",\"cost\":61.50,\"trailingMean\":61.50,"
                + "\"trailingStdDev\":0.00,\"threshold\":61.50,\"anomalous\":false}]}");
        JsonPath rules = evaluate();
        assertEquals("FIRING", status(rules, "BudgetForecastOverrun"));
        assertEquals("FIRING", status(rules, "CostAnomaly"));
        JsonPath alerts = given().get("/api/v1/alerts").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("acme"), alerts.getList("findAll { it.alertname == 'BudgetForecastOverrun' }.labels.tenant"));
        assertEquals(List.of("acme"), alerts.getList("findAll { it.alertname == 'CostAnomaly' }.labels.tenant"));
        assertEquals("warning", alerts.getString("find { it.alertname == 'CostAnomaly' }.labels.severity"));
        assertEquals("http://alert-service:8084/api/v1/runbook#BudgetForecastOverrun",
                alerts.getString("find { it.alertname == 'BudgetForecastOverrun' }.annotations.runbook_url"));

        FakeLedger.fail("/api/v1/cost-anomalies", 503);
        rules = evaluate();
        assertEquals("HELD", status(rules, "CostAnomaly"));
        assertEquals(1, alerts(given().get("/api/v1/alerts").then().extract().jsonPath(), "CostAnomaly"), "held, not resolved");

        FakeLedger.answer("/api/v1/budget-forecasts", "[]");
        FakeLedger.fail("/api/v1/cost-anomalies", 404);
        rules = evaluate();
        assertEquals("OK", status(rules, "BudgetForecastOverrun"));
        assertEquals("INACTIVE", status(rules, "CostAnomaly"));
        JsonPath after = given().get("/api/v1/alerts").then().extract().jsonPath();
        assertEquals(0, alerts(after, "BudgetForecastOverrun") + alerts(after, "CostAnomaly"));
    }

    private static int alerts(JsonPath alerts, String alertname) {
        return alerts.getList("findAll { it.alertname == '" + alertname + "' }").size();
    }

    @Test
    @Order(9)
    void anOpenGpuHealthIncidentFiresForHeldAndIdleCardsAndResolvesWithTheRecovery() {
        healthy();
        Instant started = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).minus(Duration.ofHours(2));
        String remapFailed = "DCGM_FI_DEV_ROW_REMAP_FAILURE first read as 1 (a row remap failed: the card needs a reset, "
                + "and a replacement if it fails again)";
        String dbe = "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL changed from 0 to 3 (double-bit ECC errors since the driver loaded)";
        // GPU-a is held by train/trainer-0 (healthy()); GPU-z on n3 is held by nobody; GPU-b's incident has recovered.
        // all three started 2 h ago, within the look-back; GPU-a's and GPU-z's are open
        String incidentA = FakeLedger.cardIncident("gpu-health", "n1", "GPU-a", started, null, remapFailed);
        String incidentZ = FakeLedger.cardIncident("gpu-health", "n3", "GPU-z", started.plusSeconds(60), null, dbe);
        FakeLedger.incidents("[" + FakeLedger.cardIncident("gpu-health", "n1", "GPU-b", started.minusSeconds(600), started, dbe)
                + "," + incidentA + "," + incidentZ + "]", "[" + incidentA + "," + incidentZ + "]");
        JsonPath rules = evaluate();
        assertEquals("FIRING", status(rules, "GpuHealthDegraded"));
        assertEquals("OK", status(rules, "GpuFallenOffBus"), "a health incident is not a lost card");

        JsonPath alerts = given().get("/api/v1/alerts").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("GPU-a", "GPU-z"), alerts.getList("findAll { it.alertname == 'GpuHealthDegraded' }.labels.gpu_uuid")
                .stream().sorted().toList());
        String onA = "find { it.alertname == 'GpuHealthDegraded' && it.labels.gpu_uuid == 'GPU-a' }";
        assertEquals(Map.of("alertname", "GpuHealthDegraded", "severity", "critical", "gpumeter", "true", "node", "n1",
                "gpu_uuid", "GPU-a"), alerts.getMap(onA + ".labels"));
        assertEquals(Map.of("summary", "GPU GPU-a on node n1 reports unhealthy memory",
                "description", "The ledger holds an open gpu-health incident since " + started + ": " + remapFailed
                        + ". Held now by train/trainer-0. Drain the card's pods, then reset the GPU or reload the driver;"
                        + " a failed row remap means a hardware ticket (RMA).",
                "runbook_url", "http://alert-service:8084/api/v1/runbook#GpuHealthDegraded"), alerts.getMap(onA + ".annotations"));
        String onZ = "find { it.alertname == 'GpuHealthDegraded' && it.labels.gpu_uuid == 'GPU-z' }";
        assertEquals("n3", alerts.getString(onZ + ".labels.node"));
        assertEquals("The ledger holds an open gpu-health incident since " + started.plusSeconds(60) + ": " + dbe
                        + ". Drain the card's pods, then reset the GPU or reload the driver; a failed row remap means a hardware"
                        + " ticket (RMA).", alerts.getString(onZ + ".annotations.description"));
        String fpA = alerts.getString(onA + ".fingerprint");
        String fpZ = alerts.getString(onZ + ".fingerprint");

        // GPU-a was reset: the ledger recovered its incident; GPU-z still waits.
        FakeLedger.incidents("["
                + FakeLedger.cardIncident("gpu-health", "n1", "GPU-a", started, Instant.now(), remapFailed) + "," + incidentZ
                + "]", "[" + incidentZ + "]");
        assertEquals("FIRING", status(evaluate(), "GpuHealthDegraded"));
        given().get("/api/v1/alerts/" + fpA).then().statusCode(200).body("[0].state", equalTo("resolved"));
        given().get("/api/v1/alerts/" + fpZ).then().statusCode(200).body("[0].state", equalTo("firing"));

        FakeLedger.incidents("["
                + FakeLedger.cardIncident("gpu-health", "n3", "GPU-z", started.plusSeconds(60), Instant.now(), dbe) + "]", "[]");
        assertEquals("OK", status(evaluate(), "GpuHealthDegraded"));
        given().get("/api/v1/alerts").then().body("findAll { it.alertname == 'GpuHealthDegraded' }.size()", equalTo(0));
        given().get("/api/v1/alerts/" + fpZ).then().statusCode(200).body("[0].state", equalTo("resolved"));

        // Out of the box its actions only record what they would do.
        JsonPath runbook = given().get("/api/v1/runbook").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("dry-run", "dry-run"), runbook.getList("find { it.alertname == 'GpuHealthDegraded' }.actions.mode"));
        assertEquals(false, runbook.getBoolean("find { it.alertname == 'GpuHealthDegraded' }.automatic"));
    }

    @Test
    @Order(10)
    void anIncidentOpenLongerThanTheFailureLookbackKeepsItsAlertFiring() {
        healthy();
        Instant now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        Instant twentyDaysAgo = now.minus(Duration.ofDays(20));
        Instant twelveDaysAgo = now.minus(Duration.ofDays(12));
        String dbe = "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL changed from 0 to 2 (double-bit ECC errors since the driver loaded)";
        // Idle cards on n3: GPU-w's double-bit ECC error 20 days ago still waits for a reset; GPU-y was lost 12 days
        // ago; GPU-x's incident of 20 days ago recovered a day later. All three started before the 7-day lookback, so
        // the window read returns none of them; only the read of open incidents sees GPU-w and GPU-y.
        // (GPU-x's recovered incident is in neither answer)
        FakeLedger.incidents("[]", "["
                + FakeLedger.cardIncident("gpu-health", "n3", "GPU-w", twentyDaysAgo, null, dbe) + ","
                + FakeLedger.cardIncident("gpu-lost", "n3", "GPU-y", twelveDaysAgo, null, null) + "]");
        JsonPath rules = evaluate();
        assertEquals("FIRING", status(rules, "GpuHealthDegraded"));
        assertEquals("FIRING", status(rules, "GpuFallenOffBus"));
        assertEquals(2, FakeLedger.INCIDENT_QUERIES.size(), FakeLedger.INCIDENT_QUERIES.toString());
        assertTrue(FakeLedger.INCIDENT_QUERIES.contains("open=true"), FakeLedger.INCIDENT_QUERIES.toString());

        JsonPath alerts = given().get("/api/v1/alerts").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of("GPU-w"), alerts.getList("findAll { it.alertname == 'GpuHealthDegraded' }.labels.gpu_uuid"));
        String onW = "find { it.alertname == 'GpuHealthDegraded' }";
        assertEquals("The ledger holds an open gpu-health incident since " + twentyDaysAgo + ": " + dbe + ". Drain the"
                        + " card's pods, then reset the GPU or reload the driver; a failed row remap means a hardware ticket (RMA).",
                alerts.getString(onW + ".annotations.description"));
        String onY = "find { it.alertname == 'GpuFallenOffBus' }";
        assertEquals(List.of("GPU-y"), alerts.getList("findAll { it.alertname == 'GpuFallenOffBus' }.labels.gpu_uuid"));
        assertEquals("the ledger holds an open gpu-lost incident since " + twelveDaysAgo + ". Cordon the node, drain its"
                + " GPU pods and open a hardware ticket.", alerts.getString(onY + ".annotations.description"));
        String fpW = alerts.getString(onW + ".fingerprint");
        String fpY = alerts.getString(onY + ".fingerprint");

        // A minute on nothing changed: both keep firing, the same episode.
        assertEquals("FIRING", status(evaluate(), "GpuHealthDegraded"));
        given().get("/api/v1/alerts/" + fpW).then().statusCode(200).body("size()", equalTo(1)).body("[0].state", equalTo("firing"));
        given().get("/api/v1/alerts/" + fpY).then().statusCode(200).body("size()", equalTo(1)).body("[0].state", equalTo("firing"));

        // GPU-w reset and GPU-y back: the ledger recovers both, and the alerts resolve.
        // both recovered now, and both started before the look-back: neither read has them
        FakeLedger.incidents("[]", "[]");
        rules = evaluate();
        assertEquals("OK", status(rules, "GpuHealthDegraded"));
        assertEquals("OK", status(rules, "GpuFallenOffBus"));
        given().get("/api/v1/alerts/" + fpW).then().statusCode(200).body("[0].state", equalTo("resolved"));
        given().get("/api/v1/alerts/" + fpY).then().statusCode(200).body("[0].state", equalTo("resolved"));
    }

    @Test
    @Order(11)
    void metricsCountDeliveries() {
        Management.given().get("/q/metrics").then()
                .body(containsString("gpumeter_alert_delivery_alerts_total{outcome=\"accepted\"}"))
                .body(containsString("gpumeter_alert_delivery_alerts_total{outcome=\"failed\"}"));
    }
}
