package io.gpumeter.e2e;

import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.demo.DemoSignals;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimPod;
import io.gpumeter.launcher.simulator.StackPlan;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's stories, each triaged through alert-service as an operator asks: the over-quota workload, the pod that
 * waited through the device plugin's crash loop, the embedding job that ran out of card memory under its neighbour's
 * pressure, the chat service's jitter episode, the MIG reconfiguration, and every pod still waiting at the end — each
 * to the cause the history put there, with evidence and the runbook's fix; and a tenant's answer about its own pod
 * names no other tenant.
 */
@ExtendWith(DemoSuite.Start.class)
@Order(DemoSuite.ORDER)
class DemoTriageEndToEndTest {

    static Suite suite;
    static Plan plan;
    static DemoSignals signals;

    @BeforeAll
    static void readTheDemo() {
        DemoSuite demo = DemoSuite.started();
        suite = demo.suite;
        plan = demo.plan;
        signals = demo.signals;
    }

    static JsonPath triage(String token, Map<String, String> query) {
        Map<String, String> q = new HashMap<>(query);
        q.putIfAbsent("cluster", Demo.CLUSTER);
        var response = given().header("Authorization", "Bearer " + token).queryParams(q)
                .get(suite.url(Service.ALERT).resolve("/api/v1/triage").toString());
        assertEquals(200, response.statusCode(), q + ": " + response.body().asString());
        return response.jsonPath();
    }

    static JsonPath triage(Map<String, String> query) {
        return triage(suite.adminToken(), query);
    }

    /** Polls, since the last facts of the demo may still be on their way. */
    static JsonPath triageUntil(Map<String, String> query, String cause) {
        return DemoEndToEndTest.eventually(Duration.ofSeconds(60), () -> triage(query),
                answer -> cause.equals(answer.getString("cause")));
    }

    /** Every answer that names a cause carries the facts that decided it, with commands, and the runbook's fix. */
    static void withEvidenceAndFix(JsonPath answer) {
        List<Map<String, Object>> evidence = answer.getList("evidence");
        assertFalse(evidence.isEmpty(), answer.prettify());
        assertTrue(evidence.stream().anyMatch(e -> e.get("command") != null), answer.prettify());
        assertNotNull(answer.getString("fix.action"), answer.prettify());
        assertNotNull(answer.getString("fix.verify"), answer.prettify());
        assertNotNull(answer.getString("layer"), answer.prettify());
    }

    @Test
    void theOverQuotaWorkloadWaitsForQuota() throws Exception {
        JsonPath a = triageUntil(Map.of("namespace", "acme-training", "workload", "job-train-xl"), "quota");
        assertEquals("PENDING", a.getString("symptom"), a.prettify());
        assertEquals("quota", a.getString("cause"), a.prettify());
        withEvidenceAndFix(a);
    }

    @Test
    void thePodThatWaitedThroughTheCrashLoopWaitedForTheDevicePlugin() throws Exception {
        StackPlan.CrashLoop loop = plan.stack().crashLoop();
        SimPod waiting = plan.pod(loop.waitingPod()).orElseThrow();
        Instant during = loop.allocatableDownAt().plus(Duration.between(loop.allocatableDownAt(), loop.allocatableUpAt())
                .dividedBy(2));
        JsonPath a = triageUntil(Map.of("namespace", waiting.namespace(), "pod", waiting.name(),
                "at", Rfc3339.format(during)), "no-device");
        assertEquals("PENDING", a.getString("symptom"), a.prettify());
        assertEquals("no-device", a.getString("cause"), a.prettify());
        assertTrue(a.prettify().contains(loop.node()), "names the node whose plugin did not report: " + a.prettify());
        List<Map<String, Object>> ruledOut = a.getList("alternatives");
        assertTrue(ruledOut.stream().anyMatch(r -> "cluster-full".equals(r.get("cause"))), a.prettify());
        withEvidenceAndFix(a);
    }

    @Test
    void theEmbeddingJobRanOutOfCardMemoryUnderItsNeighboursPressure() throws Exception {
        String[] pod = signals.oomPodKey().split("/");
        Map<String, String> query = Map.of("namespace", pod[0], "pod", pod[1],
                "at", Rfc3339.format(signals.oomAt().plus(Duration.ofMinutes(1))));
        JsonPath a = triageUntil(query, "neighbour-memory-pressure");
        assertEquals("OOM", a.getString("symptom"), a.prettify());
        assertEquals("neighbour-memory-pressure", a.getString("cause"), a.prettify());
        assertTrue(a.prettify().contains("stream-bench-0"), "names the neighbour to an operator: " + a.prettify());
        withEvidenceAndFix(a);

        // the job's own tenant asks: the neighbour is another tenant's pod, never named
        String tenant = suite.token("acme-dev", List.of("tenant:acme"), Duration.ofMinutes(10));
        JsonPath own = triage(tenant, query);
        assertEquals("neighbour-memory-pressure", own.getString("cause"), own.prettify());
        assertFalse(own.prettify().contains("stream-bench-0"), own.prettify());
        assertFalse(own.prettify().contains("umbrella"), own.prettify());
    }

    @Test
    void theChatServicesJitterIsItsNeighbours() throws Exception {
        DemoSignals.InferenceService chat = signals.services().get(0);
        JsonPath a = triageUntil(Map.of("namespace", chat.pod().namespace(), "service", chat.name(),
                "at", Rfc3339.format(signals.jitterEnd())), "neighbour-interference");
        assertEquals("PERFORMANCE", a.getString("symptom"), a.prettify());
        assertEquals("neighbour-interference", a.getString("cause"), a.prettify());
        assertTrue(a.prettify().contains("stream-bench-0"), a.prettify());
        withEvidenceAndFix(a);
    }

    @Test
    void theMigNodeWasReconfiguring() throws Exception {
        StackPlan.MigReconfiguration mig = plan.stack().mig();
        Instant during = mig.pendingAt().plus(Duration.between(mig.pendingAt(), mig.appliedAt()).dividedBy(2));
        JsonPath a = triageUntil(Map.of("node", mig.node(), "at", Rfc3339.format(during)), "mig-reconfiguration");
        assertEquals("MIG", a.getString("symptom"), a.prettify());
        assertEquals("mig-reconfiguration", a.getString("cause"), a.prettify());
        withEvidenceAndFix(a);
    }

    /** The pods still waiting at the end of the history each get a cause of their own, not "other". */
    @Test
    void everyPodStillWaitingHasARealCause() {
        JsonPath pending = given().header("Authorization", "Bearer " + suite.adminToken())
                .get(suite.url(Service.LEDGER).resolve("/api/v1/queue-wait/pending").toString())
                .then().statusCode(200).extract().jsonPath();
        List<Map<String, Object>> pods = pending.<Map<String, Object>>getList("$").stream()
                .filter(p -> "pod".equals(String.valueOf(p.get("source")).toLowerCase(Locale.ROOT))).toList();
        assertFalse(pods.isEmpty(), pending.prettify());
        for (Map<String, Object> p : pods) {
            assertNotEquals("other", p.get("reasonClass"), "the pending read: " + p);
            JsonPath a = triage(Map.of("namespace", (String) p.get("namespace"), "pod", (String) p.get("name")));
            assertEquals("PENDING", a.getString("symptom"), a.prettify());
            assertNotEquals("other", a.getString("cause"), a.prettify());
            assertEquals(p.get("reasonClass"), a.getString("cause"), "the pending read and the triage agree: " + a.prettify());
            withEvidenceAndFix(a);
        }
    }
}
