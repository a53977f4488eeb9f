package io.gpumeter.alert.rest;

import io.gpumeter.common.testing.Management;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.gpumeter.alert.domain.Fingerprint;
import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Alertmanager's webhook into the runbook, against the fabric8 mock API server: authentication and bad bodies, one
 * action per alert episode however often it is delivered, cordons within the blast radius, never undoing what
 * someone else did, dry-run that only records, nothing done to a node or card the ledger does not know, resolves
 * honoured only with the labels the alert fired with, and the audit of it all.
 */
@QuarkusTest
@TestProfile(WebhookResourceTest.Enforcing.class)
@WithKubernetesTestServer(crud = true)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeLedger.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class) // cordons held by earlier tests count for the blast radius
class WebhookResourceTest {

    private static final String WEBHOOK = "/api/v1/alertmanager/webhook";
    private static final String TOKEN = "s3cret-token";
    private static final Instant T0 = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(600);

    /** Cordon, annotate, ticket and trace snapshots enforced; freeze-decode left in dry-run. */
    public static class Enforcing implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            Map<String, String> c = new HashMap<>();
            c.put("gpumeter.alert.webhook.token", TOKEN);
            c.put("gpumeter.alert.actions.cordon.mode", "enforce");
            c.put("gpumeter.alert.actions.cordon.max-share", "0.2");
            // Room for every cordon the suite attempts within the hour, so that the blast radius is what refuses.
            c.put("gpumeter.alert.actions.cordon.max-per-hour", "10");
            c.put("gpumeter.alert.actions.annotate.mode", "enforce");
            c.put("gpumeter.alert.actions.ticket.mode", "enforce");
            c.put("gpumeter.alert.actions.ticket.token", "ticket-token");
            c.put("gpumeter.alert.actions.trace-snapshot.mode", "enforce");
            c.put("gpumeter.alert.runbook.GpuMissing.undo-on-resolve", "cordon");
            return c;
        }
    }

    @KubernetesTestServer
    KubernetesServer server;

    @BeforeAll
    static void fleetOfTen() {
        FakeLedger.reset();
        FakeLedger.nodes("gpu-1", "gpu-2", "gpu-3", "gpu-4", "gpu-5", "gpu-6", "gpu-7", "gpu-8", "gpu-9", "gpu-10");
        FakeLedger.cards("GPU-8a", "GPU-9a");
    }

    private static RequestSpecification authed() {
        return given().header("Authorization", "Bearer " + TOKEN).contentType("application/json");
    }

    private static JsonPath deliver(String body) {
        return authed().body(body).post(WEBHOOK).then().statusCode(200).extract().jsonPath();
    }

    private KubernetesClient kube() {
        return server.getClient();
    }

    private void node(String name, boolean cordoned) {
        kube().nodes().resource(new NodeBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withUnschedulable(cordoned ? Boolean.TRUE : null).endSpec().build()).create();
    }

    private Node read(String name) {
        return kube().nodes().withName(name).get();
    }

    /** What reached the API server since the last call: method and path of each request. */
    private List<String> apiCalls() throws InterruptedException {
        List<String> calls = new ArrayList<>();
        for (RecordedRequest r = server.getKubernetesMockServer().takeRequest(50, TimeUnit.MILLISECONDS); r != null;
             r = server.getKubernetesMockServer().takeRequest(50, TimeUnit.MILLISECONDS)) {
            calls.add(r.getMethod() + " " + r.getPath());
        }
        return calls;
    }

    private static JsonPath actions() {
        return given().get("/api/v1/actions").then().statusCode(200).extract().jsonPath();
    }

    private static Map<String, Object> action(String alertname, String node, String action) {
        List<Map<String, Object>> rows = actions().getList("findAll { it.alertname == '" + alertname + "' && it.action == '"
                + action + "' && it.target.contains('" + node + "') }");
        assertEquals(1, rows.size(), alertname + " " + action + " on " + node + ": " + rows);
        return rows.get(0);
    }

    @Test
    @Order(1)
    void anUnauthenticatedOrMalformedWebhookIsA4xxProblem() {
        String body = Notifications.firing(Notifications.labels("GpuMissing", "gpu-1"), T0);
        given().contentType("application/json").body(body).post(WEBHOOK).then().statusCode(401)
                .contentType("application/problem+json").header("WWW-Authenticate", "Bearer")
                .body("field", equalTo("Authorization"));
        given().header("Authorization", "Bearer wrong").contentType("application/json").body(body).post(WEBHOOK)
                .then().statusCode(401).contentType("application/problem+json");
        authed().body("{\"version\":\"4\",\"alerts\":[").post(WEBHOOK).then().statusCode(400)
                .contentType("application/problem+json");
        authed().body(body.replace("\"version\":\"4\"", "\"version\":\"3\"")).post(WEBHOOK).then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("version"));
        authed().body(body.replace(T0.toString(), "not-a-time")).post(WEBHOOK).then().statusCode(400)
                .body("field", equalTo("alerts[0].startsAt"));
        authed().body("").post(WEBHOOK).then().statusCode(400).contentType("application/problem+json");
        given().header("Authorization", "Bearer " + TOKEN).contentType("text/plain").body("hello").post(WEBHOOK)
                .then().statusCode(415).contentType("application/problem+json");
        given().get("/api/v1/actions").then().body("size()", equalTo(0));
    }

    @Test
    @Order(2)
    void aRealAlertmanagerBodyIsStoredOnceAndHasNoRunbookActions() throws IOException {
        String fixture;
        try (InputStream in = getClass().getResourceAsStream("/fixtures/alertmanager-webhook-v4-alerta-test.json")) {
            fixture = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        JsonPath first = deliver(fixture);
        assertEquals(1, first.getInt("fired"));
        assertEquals(0, first.getInt("actions"));
        assertEquals(1, deliver(fixture).getInt("duplicates"));
    }

    @Test
    @Order(3)
    void aFiringAlertCordonsTheNodeOnceHoweverOftenItIsDelivered() throws InterruptedException {
        node("gpu-1", false);
        apiCalls();
        String body = Notifications.firing(Notifications.labels("GpuMissing", "gpu-1"), T0);
        JsonPath receipt = deliver(body);
        assertEquals(1, receipt.getInt("fired"));
        assertEquals(1, receipt.getInt("actions"));
        assertEquals(1, deliver(body).getInt("duplicates"));
        List<String> calls = apiCalls();
        assertFalse(calls.isEmpty());
        assertTrue(calls.stream().allMatch(c -> c.startsWith("PATCH /api/v1/nodes/gpu-1")),
                "only PATCH on the node, never a GET: " + calls);

        Node n = read("gpu-1");
        assertEquals(Boolean.TRUE, n.getSpec().getUnschedulable());
        assertEquals("alert-service", n.getMetadata().getAnnotations().get("gpumeter.io/cordoned-by"));
        Map<String, Object> row = action("GpuMissing", "gpu-1", "cordon");
        assertEquals("APPLIED", row.get("result"));
        assertEquals("enforce", row.get("mode"));
        assertEquals(Fingerprint.of(Notifications.labels("GpuMissing", "gpu-1")), row.get("alertFingerprint"));
        assertEquals(T0.toString(), row.get("startsAt"));
        assertNull(row.get("resolvedAt"));
    }

    @Test
    @Order(4)
    void aNodeSomeoneElseCordonedIsNeverUncordoned() {
        node("gpu-2", true);
        Map<String, String> labels = Notifications.labels("GpuMissing", "gpu-2");
        deliver(Notifications.firing(labels, T0));
        assertEquals("ALREADY_IN_PLACE", action("GpuMissing", "gpu-2", "cordon").get("result"));
        deliver(Notifications.resolved(labels, T0, T0.plusSeconds(300)));
        Map<String, Object> row = action("GpuMissing", "gpu-2", "cordon");
        assertEquals("NOT_OURS", row.get("undoResult"));
        assertEquals(Boolean.TRUE, read("gpu-2").getSpec().getUnschedulable());
    }

    @Test
    @Order(5)
    void theBlastRadiusGuardRefusesTheCordonPastItsShare() {
        // Ten GPU nodes, at most 20% cordoned by gpumeter: gpu-1 is held, gpu-3 is the second, gpu-4 one too many.
        node("gpu-3", false);
        node("gpu-4", false);
        deliver(Notifications.firing(Notifications.labels("GpuMissing", "gpu-3"), T0));
        assertEquals("APPLIED", action("GpuMissing", "gpu-3", "cordon").get("result"));
        deliver(Notifications.firing(Notifications.labels("GpuMissing", "gpu-4"), T0));
        Map<String, Object> refused = action("GpuMissing", "gpu-4", "cordon");
        assertEquals("REFUSED_BLAST_RADIUS", refused.get("result"));
        assertTrue(String.valueOf(refused.get("detail")).contains("at most 2"), String.valueOf(refused.get("detail")));
        assertNull(read("gpu-4").getSpec().getUnschedulable());
    }

    @Test
    @Order(6)
    void resolvingUndoesGpumetersOwnCordonAndFreesTheBlastRadius() {
        Map<String, String> labels = Notifications.labels("GpuMissing", "gpu-1");
        JsonPath receipt = deliver(Notifications.resolved(labels, T0, T0.plusSeconds(420)));
        assertEquals(1, receipt.getInt("resolved"));
        Node n = read("gpu-1");
        assertEquals(Boolean.FALSE, n.getSpec().getUnschedulable());
        assertFalse(n.getMetadata().getAnnotations().containsKey("gpumeter.io/cordoned-by"));
        Map<String, Object> row = action("GpuMissing", "gpu-1", "cordon");
        assertEquals("UNDONE", row.get("undoResult"));
        assertThat(row.get("resolvedAt"));
        assertThat(row.get("undoneAt"));
        assertThat(row.get("timeToResolveSeconds"));
        assertEquals(1, deliver(Notifications.resolved(labels, T0, T0.plusSeconds(420))).getInt("duplicates"));

        Instant again = T0.plusSeconds(60);
        deliver(Notifications.firing(Notifications.labels("GpuMissing", "gpu-4"), again));
        List<Map<String, Object>> gpu4 = actions().getList("findAll { it.target == 'gpu-4' }");
        assertEquals(2, gpu4.size());
        assertEquals("APPLIED", gpu4.get(1).get("result"), "a new episode with room in the blast radius");
        assertEquals(Boolean.TRUE, read("gpu-4").getSpec().getUnschedulable());
    }

    @Test
    @Order(7)
    void aNodeHeldForTwoAlertsStaysCordonedUntilTheLastResolvesAndTicketsFollowTheAlert() {
        Map<String, String> lost = Notifications.labels("GpuFallenOffBus", "gpu-3");
        lost.put("severity", "critical");
        deliver(Notifications.firing(lost, T0));
        assertEquals("SHARED", action("GpuFallenOffBus", "gpu-3", "cordon").get("result"));
        Map<String, Object> ticket = actions().getList("findAll { it.alertname == 'GpuFallenOffBus' && it.action == 'ticket' }",
                Map.class).get(0);
        assertEquals("APPLIED", ticket.get("result"));
        assertEquals(1, FakeLedger.TICKETS.size());
        assertEquals("Bearer ticket-token", FakeLedger.TICKETS.get(0).get(0));
        assertTrue(FakeLedger.TICKETS.get(0).get(1).contains("\"status\":\"firing\""));
        assertTrue(FakeLedger.TICKETS.get(0).get(1).contains("/api/v1/runbook#GpuFallenOffBus"));

        deliver(Notifications.resolved(Notifications.labels("GpuMissing", "gpu-3"), T0, T0.plusSeconds(500)));
        assertEquals("KEPT_SHARED", action("GpuMissing", "gpu-3", "cordon").get("undoResult"));
        assertEquals(Boolean.TRUE, read("gpu-3").getSpec().getUnschedulable());

        deliver(Notifications.resolved(lost, T0, T0.plusSeconds(900)));
        assertEquals("KEPT", action("GpuFallenOffBus", "gpu-3", "cordon").get("undoResult"),
                "after Xid 79 the runbook wants a person to uncordon");
        assertEquals(Boolean.TRUE, read("gpu-3").getSpec().getUnschedulable());
        assertEquals(2, FakeLedger.TICKETS.size());
        assertTrue(FakeLedger.TICKETS.get(1).get(1).contains("\"status\":\"resolved\""));
    }

    @Test
    @Order(8)
    void dryRunChangesNothingButIsAudited() throws InterruptedException {
        node("gpu-5", false);
        apiCalls();
        deliver(Notifications.firing(Notifications.labels("GpuDramBandwidthSaturated", "gpu-5"), T0));
        assertTrue(apiCalls().isEmpty(), "dry-run calls nothing");
        Map<String, Object> row = action("GpuDramBandwidthSaturated", "gpu-5", "freeze-decode");
        assertEquals("DRY_RUN", row.get("result"));
        assertEquals("dry-run", row.get("mode"));
        Node n = read("gpu-5");
        assertTrue(n.getMetadata().getLabels() == null || !n.getMetadata().getLabels().containsKey("gpumeter.io/decode-frozen"));
    }

    @Test
    @Order(9)
    void anAnnotationComesAndGoesWithItsAlert() {
        node("gpu-6", false);
        Map<String, String> labels = Notifications.labels("GpuDriverXid", "gpu-6");
        deliver(Notifications.firing(labels, T0));
        assertTrue(read("gpu-6").getMetadata().getAnnotations().get("gpumeter.io/alert-GpuDriverXid").contains("GpuDriverXid on gpu-6"));
        deliver(Notifications.resolved(labels, T0, T0.plusSeconds(60)));
        assertFalse(read("gpu-6").getMetadata().getAnnotations().containsKey("gpumeter.io/alert-GpuDriverXid"));
        assertEquals("UNDONE", action("GpuDriverXid", "gpu-6", "annotate").get("undoResult"));
    }

    @Test
    @Order(10)
    void aLatencyAlertStartsOneTraceSnapshotJobOnItsNode() throws InterruptedException {
        apiCalls();
        String body = Notifications.firing(Notifications.labels("InferenceLatencyP99High", "gpu-7"), T0);
        deliver(body);
        deliver(body);
        List<String> calls = apiCalls();
        assertEquals(List.of("POST /apis/batch/v1/namespaces/test/jobs"), calls);
        List<Job> jobs = kube().batch().v1().jobs().inNamespace("test").list().getItems();
        assertEquals(1, jobs.size());
        Job job = jobs.get(0);
        assertEquals("gpu-7", job.getSpec().getTemplate().getSpec().getNodeName());
        assertTrue(job.getMetadata().getName().startsWith("gpumeter-trace-"));
        assertEquals("Never", job.getSpec().getTemplate().getSpec().getRestartPolicy());
        assertTrue(String.join(" ", job.getSpec().getTemplate().getSpec().getContainers().get(0).getCommand()).contains("-c 100"));
        assertEquals("APPLIED", action("InferenceLatencyP99High", "gpu-7", "trace-snapshot").get("result"));
    }

    @Test
    @Order(11)
    void theAuditAnswersByTimeWindowAndRejectsBadWindows() {
        String audit = given().queryParam("from", Instant.now().minusSeconds(3600).toString())
                .queryParam("to", Instant.now().plusSeconds(5).toString())
                .get("/api/v1/actions").then().statusCode(200).body("size()", equalTo(actions().getList("$").size()))
                .body("[0].id", notNullValue()).body("[0].alertFingerprint", notNullValue()).extract().asString();
        Contract.record("alert", "actions", audit); // the console's Alerts page lists the actions taken and planned
        given().queryParam("from", Instant.now().plusSeconds(3600).toString()).queryParam("to", Instant.now().plusSeconds(7200).toString())
                .get("/api/v1/actions").then().statusCode(200)
                .body("size()", equalTo(0));
        given().queryParam("from", "yesterday").get("/api/v1/actions").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("from"));
        given().queryParam("from", "2026-05-02T00:00:00Z").queryParam("to", "2026-05-01T00:00:00Z").get("/api/v1/actions")
                .then().statusCode(400).body("field", equalTo("to"));
        Management.given().get("/q/metrics").then().body(containsString("gpumeter_alert_actions_total{action=\"cordon\",result=\"APPLIED\"}"));
    }

    @Test
    @Order(12)
    void theRunbookIsServedAsJsonAndMarkdown() {
        JsonPath runbook = given().get("/api/v1/runbook").then().statusCode(200).contentType("application/json").extract().jsonPath();
        // The fourteen rules alert-service raises and the Prometheus-only collector backlog.
        assertEquals(15, runbook.getList("$").size());
        String health = "find { it.alertname == 'GpuHealthDegraded' }";
        assertEquals("critical", runbook.getString(health + ".severity"));
        assertEquals("alert-service", runbook.getString(health + ".raisedBy"));
        assertEquals(List.of("cordon", "ticket"), runbook.getList(health + ".actions.action"));
        assertEquals(List.of("enforce", "enforce"), runbook.getList(health + ".actions.mode"));
        assertEquals(List.of(false, true), runbook.getList(health + ".actions.undoOnResolve"));
        assertEquals(true, runbook.getBoolean(health + ".automatic"));
        assertEquals(4, runbook.getList(health + ".manual").size());
        assertTrue(runbook.getString(health + ".manual[2]").contains("RMA"));
        assertEquals("FinOps; the tenant's budget owner",
                runbook.getString("find { it.alertname == 'BudgetForecastOverrun' }.who"));
        assertEquals("alert-service", runbook.getString("find { it.alertname == 'CostAnomaly' }.raisedBy"));
        assertEquals("enforce", runbook.getString("find { it.alertname == 'GpuFallenOffBus' }.actions.find { it.action == 'cordon' }.mode"));
        assertEquals(true, runbook.getBoolean("find { it.alertname == 'GpuFallenOffBus' }.automatic"));
        assertEquals(false, runbook.getBoolean("find { it.alertname == 'GpuAllocationIdle' }.automatic"));
        assertEquals("prometheus", runbook.getString("find { it.alertname == 'GpumeterCollectorBacklog' }.raisedBy"));
        assertEquals("alert-service", runbook.getString("find { it.alertname == 'GpuWorkloadOom' }.raisedBy"));
        assertFalse(runbook.getList("find { it.alertname == 'GpuDriverXid' }.evidence").isEmpty());
        String md = given().queryParam("format", "markdown").get("/api/v1/runbook").then().statusCode(200)
                .contentType(containsString("text/markdown")).extract().asString();
        assertTrue(md.contains("<a id=\"GpuFallenOffBus\"></a>"));
        assertTrue(md.contains("## GpuDramBandwidthSaturated"));
        assertTrue(md.contains("gpumeter.io/decode-frozen NotIn"));
        given().header("Accept", "text/html,application/xhtml+xml,*/*;q=0.8").get("/api/v1/runbook").then().statusCode(200)
                .contentType(containsString("text/markdown"));
        given().queryParam("format", "xml").get("/api/v1/runbook").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("format"));
    }

    @Test
    @Order(13)
    void unhealthyGpuMemoryCordonsWithinTheBlastRadiusKeepsTheCordonAndFollowsWithATicket() {
        // Held by firing alerts now: gpu-4 (GpuMissing). Ten nodes at 20%: room for one more.
        node("gpu-8", false);
        node("gpu-9", false);
        int tickets = FakeLedger.TICKETS.size();
        Map<String, String> gpu8 = health("gpu-8", "GPU-8a");
        deliver(Notifications.firing(gpu8, T0));
        assertEquals("APPLIED", action("GpuHealthDegraded", "gpu-8", "cordon").get("result"));
        assertEquals("enforce", action("GpuHealthDegraded", "gpu-8", "cordon").get("mode"));
        assertEquals(Boolean.TRUE, read("gpu-8").getSpec().getUnschedulable());
        assertEquals(tickets + 1, FakeLedger.TICKETS.size());
        assertTrue(FakeLedger.TICKETS.get(tickets).get(1).contains("/api/v1/runbook#GpuHealthDegraded"));

        deliver(Notifications.firing(health("gpu-9", "GPU-9a"), T0));
        assertEquals("REFUSED_BLAST_RADIUS", action("GpuHealthDegraded", "gpu-9", "cordon").get("result"));
        assertNull(read("gpu-9").getSpec().getUnschedulable());

        deliver(Notifications.resolved(gpu8, T0, T0.plusSeconds(1800)));
        assertEquals("KEPT", action("GpuHealthDegraded", "gpu-8", "cordon").get("undoResult"),
                "a reset card is uncordoned by a person after diagnostics");
        assertEquals(Boolean.TRUE, read("gpu-8").getSpec().getUnschedulable());
        assertTrue(FakeLedger.TICKETS.get(FakeLedger.TICKETS.size() - 1).get(1).contains("\"status\":\"resolved\""));
        assertTrue(FakeLedger.TICKETS.get(FakeLedger.TICKETS.size() - 1).get(1).contains("GPU-8a"));
        List<Map<String, Object>> healthTickets = actions().getList(
                "findAll { it.alertname == 'GpuHealthDegraded' && it.action == 'ticket' }");
        assertEquals(2, healthTickets.size());
        assertEquals("UNDONE", healthTickets.get(0).get("undoResult"),
                "gpu-9's open ticket does not keep gpu-8's from being resolved: a ticket is its own alert's");
        assertNull(healthTickets.get(1).get("undoResult"));
    }

    @Test
    @Order(14)
    void anAlertOnANodeOrCardTheLedgerDoesNotKnowTouchesNothingAndIsAuditedWithTheReason() throws InterruptedException {
        // The node exists in Kubernetes, so a cordon would succeed; only the ledger's word stops it.
        node("gpu-ghost", false);
        apiCalls();
        int tickets = FakeLedger.TICKETS.size();
        JsonPath receipt = deliver(Notifications.firing(Notifications.labels("GpuMissing", "gpu-ghost"), T0));
        assertEquals(1, receipt.getInt("fired"));
        Map<String, Object> cordon = action("GpuMissing", "gpu-ghost", "cordon");
        assertEquals("REFUSED_UNKNOWN_TARGET", cordon.get("result"));
        assertTrue(String.valueOf(cordon.get("detail")).contains("does not know node 'gpu-ghost'"), String.valueOf(cordon.get("detail")));
        assertNull(read("gpu-ghost").getSpec().getUnschedulable());

        // A known node with a card the ledger never saw: neither the cordon nor the ticket.
        node("gpu-10", false);
        Map<String, String> forgedCard = health("gpu-10", "GPU-not-in-the-inventory");
        deliver(Notifications.firing(forgedCard, T0));
        Map<String, Object> healthCordon = action("GpuHealthDegraded", "gpu-10", "cordon");
        assertEquals("REFUSED_UNKNOWN_TARGET", healthCordon.get("result"));
        assertTrue(String.valueOf(healthCordon.get("detail")).contains("does not know GPU 'GPU-not-in-the-inventory'"));
        List<Map<String, Object>> ticketRows = actions().getList("findAll { it.alertname == 'GpuHealthDegraded' "
                + "&& it.action == 'ticket' && it.result == 'REFUSED_UNKNOWN_TARGET' }");
        assertEquals(1, ticketRows.size());
        assertEquals(tickets, FakeLedger.TICKETS.size(), "no ticket for a card the ledger does not know");
        assertNull(read("gpu-10").getSpec().getUnschedulable());

        // A ledger that cannot answer vouches for nothing.
        node("gpu-dark", false);
        FakeLedger.fail("/api/v1/nodes/gpu-dark/occupants", 503);
        deliver(Notifications.firing(Notifications.labels("GpuDriverXid", "gpu-dark"), T0));
        Map<String, Object> annotate = action("GpuDriverXid", "gpu-dark", "annotate");
        assertEquals("REFUSED_UNKNOWN_TARGET", annotate.get("result"));
        assertTrue(String.valueOf(annotate.get("detail")).contains("could not confirm node 'gpu-dark'"));
        Map<String, String> annotations = read("gpu-dark").getMetadata().getAnnotations();
        assertTrue(annotations == null || !annotations.containsKey("gpumeter.io/alert-GpuDriverXid"));
        List<String> calls = apiCalls();
        assertTrue(calls.stream().noneMatch(c -> c.startsWith("PATCH") || c.contains("/jobs")),
                "no node patched, no Job created: " + calls);
    }

    @Test
    @Order(15)
    void aResolveWhoseLabelsDifferFromTheFiringAlertChangesNothing() {
        node("gpu-5x", false);
        FakeLedger.answer("/api/v1/nodes/gpu-5x/occupants", "[]");
        Map<String, String> labels = Notifications.labels("GpuDriverXid", "gpu-5x");
        deliver(Notifications.firing(labels, T0));
        assertTrue(read("gpu-5x").getMetadata().getAnnotations().containsKey("gpumeter.io/alert-GpuDriverXid"));

        // Same fingerprint and startsAt, other labels: a resolve someone made up.
        Map<String, String> forged = new java.util.TreeMap<>(labels);
        forged.put("node", "gpu-6");
        String forgedBody = Notifications.resolved(forged, T0, T0.plusSeconds(60))
                .replace(Fingerprint.of(forged), Fingerprint.of(labels));
        JsonPath refused = deliver(forgedBody);
        assertEquals(1, refused.getInt("refused"));
        assertEquals(0, refused.getInt("resolved"));
        assertEquals(0, refused.getInt("actions"));
        Map<String, String> extra = new java.util.TreeMap<>(labels);
        extra.put("tenant", "acme");
        assertEquals(1, deliver(Notifications.resolved(extra, T0, T0.plusSeconds(60))
                .replace(Fingerprint.of(extra), Fingerprint.of(labels))).getInt("refused"), "an added label is other labels too");
        assertTrue(read("gpu-5x").getMetadata().getAnnotations().containsKey("gpumeter.io/alert-GpuDriverXid"),
                "the annotation stays while the alert fires");
        Map<String, Object> row = action("GpuDriverXid", "gpu-5x", "annotate");
        assertNull(row.get("resolvedAt"));
        assertNull(row.get("undoResult"));
        Management.given().get("/q/metrics").then()
                .body(containsString("gpumeter_alert_webhook_refused_total{reason=\"resolve-labels-differ\"} 2.0"));

        JsonPath genuine = deliver(Notifications.resolved(labels, T0, T0.plusSeconds(60)));
        assertEquals(1, genuine.getInt("resolved"));
        assertEquals(0, genuine.getInt("refused"));
        assertFalse(read("gpu-5x").getMetadata().getAnnotations().containsKey("gpumeter.io/alert-GpuDriverXid"));
        assertEquals("UNDONE", action("GpuDriverXid", "gpu-5x", "annotate").get("undoResult"));
    }

    private static Map<String, String> health(String node, String gpu) {
        Map<String, String> labels = Notifications.labels("GpuHealthDegraded", node);
        labels.put("severity", "critical");
        labels.put("gpu_uuid", gpu);
        return labels;
    }

    private static void assertThat(Object value) {
        assertTrue(value != null, "expected a value");
    }
}
