package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimPod;
import io.gpumeter.launcher.simulator.SimVolcanoJob;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo's Volcano Jobs through the ledger's read: every job the history finished is there with the figures the
 * simulator made — how it ended, its retries, its pods, their GPU-hours (cards × bound to finished), how long it
 * queued — grouped per namespace with the success rate they give; the gang that waits is pending in its queue and
 * counted nowhere; and a tenant reads its own namespaces' jobs only.
 */
@ExtendWith(DemoSuite.Start.class)
@Order(DemoSuite.ORDER)
class DemoVolcanoEndToEndTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Suite suite;
    static Plan plan;

    @BeforeAll
    static void readTheDemo() {
        DemoSuite demo = DemoSuite.started();
        suite = demo.suite;
        plan = demo.plan;
    }

    static JsonNode read(String token, Map<String, String> query) {
        Map<String, String> q = new HashMap<>(Map.of("from", Rfc3339.format(plan.start()), "to", Rfc3339.format(plan.end()),
                "cluster", Demo.CLUSTER, "jobsPerGroup", "1000"));
        q.putAll(query);
        String body = given().header("Authorization", "Bearer " + token).queryParams(q)
                .get(suite.url(Service.LEDGER).resolve("/api/v1/volcano-jobs").toString())
                .then().statusCode(200).extract().asString();
        try {
            return JSON.readTree(body);
        } catch (java.io.IOException e) {
            throw new AssertionError(body, e);
        }
    }

    static List<JsonNode> jobs(JsonNode groups) {
        List<JsonNode> out = new ArrayList<>();
        groups.forEach(g -> g.path("jobs").forEach(out::add));
        return out;
    }

    static List<SimVolcanoJob> finished() {
        return plan.volcanoJobs().stream().filter(SimVolcanoJob::finished).toList();
    }

    /** Its pods' whole cards from binding to release, in hours to six decimals, as the ledger lists them. */
    static BigDecimal gpuHours(SimVolcanoJob job) {
        long cardSeconds = 0;
        for (String uid : job.podUids()) {
            SimPod p = plan.pod(uid).orElseThrow();
            cardSeconds += p.grants().size() * Duration.between(p.scheduledAt(), p.releasedAt()).toSeconds();
        }
        return BigDecimal.valueOf(cardSeconds).divide(BigDecimal.valueOf(3600), 6, RoundingMode.HALF_EVEN);
    }

    static String tenant(String namespace, Instant at) {
        return plan.namespace(namespace).orElseThrow().tenantAt(at);
    }

    @Test
    void everyJobTheHistoryFinishedIsReadWithTheSimulatedFigures() throws InterruptedException {
        List<SimVolcanoJob> expected = finished();
        assertTrue(expected.stream().anyMatch(j -> j.state().equals("Completed")), "a job completed");
        assertTrue(expected.stream().anyMatch(j -> j.state().equals("Failed") && j.retries() > 0), "a job failed after retries");
        JsonNode groups = DemoEndToEndTest.eventually(Duration.ofSeconds(90),
                () -> read(suite.adminToken(), Map.of("groupBy", "namespace")), g -> jobs(g).size() == expected.size());
        List<JsonNode> read = jobs(groups);
        assertEquals(expected.size(), read.size(), groups.toPrettyString());
        for (SimVolcanoJob job : expected) {
            JsonNode row = read.stream().filter(r -> r.path("uid").asText().equals(job.uid())).findFirst()
                    .orElseThrow(() -> new AssertionError(job.name() + " missing: " + groups.toPrettyString()));
            assertEquals(job.state(), row.path("state").asText(), row.toPrettyString());
            assertEquals(job.retries(), row.path("retries").asInt(), row.toPrettyString());
            assertEquals(job.podUids().size(), row.path("pods").asInt(), row.toPrettyString());
            assertEquals(0, gpuHours(job).compareTo(row.path("gpuHours").decimalValue()),
                    job.name() + ": " + gpuHours(job) + " GPU-hours, read " + row.toPrettyString());
            assertEquals(Duration.between(job.createdAt(), job.runningAt()).toSeconds(), row.path("waitSeconds").asLong(),
                    row.toPrettyString());
            assertEquals(Rfc3339.format(job.last().at()), row.path("finishedAt").asText());
            assertEquals(job.queue(), row.path("queue").asText());
            assertEquals(tenant(job.namespace(), job.last().at()), row.path("tenant").asText());
        }
        // per namespace: how many finished, how they ended, the success rate and the GPU-hours they sum to
        Map<String, List<SimVolcanoJob>> byNamespace = new TreeMap<>();
        expected.forEach(j -> byNamespace.computeIfAbsent(j.namespace(), k -> new ArrayList<>()).add(j));
        assertEquals(List.copyOf(byNamespace.keySet()), groups.findValuesAsText("key"));
        for (JsonNode g : groups) {
            List<SimVolcanoJob> mine = byNamespace.get(g.path("key").asText());
            long completed = mine.stream().filter(j -> j.state().equals("Completed")).count();
            assertEquals(mine.size(), g.path("finished").asInt(), g.toPrettyString());
            assertEquals(completed, g.path("states").path("Completed").asLong(), g.toPrettyString());
            assertEquals(0, BigDecimal.valueOf(completed).divide(BigDecimal.valueOf(mine.size()), 6, RoundingMode.HALF_EVEN)
                    .compareTo(g.path("successRate").decimalValue()), g.toPrettyString());
            BigDecimal hours = mine.stream().map(DemoVolcanoEndToEndTest::gpuHours).reduce(BigDecimal.ZERO, BigDecimal::add);
            assertEquals(0, hours.compareTo(g.path("gpuHours").decimalValue()), g.toPrettyString());
            assertEquals(mine.stream().mapToInt(SimVolcanoJob::retries).sum(), g.path("retries").asInt(), g.toPrettyString());
        }
    }

    @Test
    void theGangTheQueueCannotHoldWaitsInItsQueueAndIsCountedNowhere() {
        SimVolcanoJob waits = plan.volcanoJobs().stream().filter(j -> !j.finished() && j.runningAt() == null)
                .findFirst().orElseThrow();
        JsonNode all = read(suite.adminToken(), Map.of());
        assertFalse(jobs(all).stream().anyMatch(r -> r.path("name").asText().equals(waits.name())), all.toPrettyString());
        JsonNode pending;
        try {
            pending = JSON.readTree(given().header("Authorization", "Bearer " + suite.adminToken())
                    .get(suite.url(Service.LEDGER).resolve("/api/v1/queue-wait/pending").toString())
                    .then().statusCode(200).extract().asString());
        } catch (java.io.IOException e) {
            throw new AssertionError(e);
        }
        JsonNode gang = null;
        for (JsonNode p : pending) {
            if (p.path("name").asText().equals(waits.podGroup())) {
                gang = p;
            }
        }
        assertTrue(gang != null, pending.toPrettyString());
        assertEquals("volcano", gang.path("source").asText());
        assertEquals(waits.queue(), gang.path("volcanoQueue").asText());
        assertEquals(waits.namespace(), gang.path("namespace").asText());
    }

    @Test
    void aTenantReadsTheJobsOfItsOwnNamespacesOnly() {
        String acme = suite.token("volcano-test", List.of("tenant:acme"), Duration.ofMinutes(10));
        List<String> acmeJobs = finished().stream().filter(j -> tenant(j.namespace(), j.last().at()).equals("acme"))
                .map(SimVolcanoJob::name).sorted().toList();
        assertFalse(acmeJobs.isEmpty(), "acme has a Volcano Job");
        JsonNode own = read(acme, Map.of("groupBy", "tenant"));
        assertEquals(List.of("acme"), own.findValuesAsText("key"));
        assertEquals(acmeJobs, jobs(own).stream().map(r -> r.path("name").asText()).sorted().toList());
        given().header("Authorization", "Bearer " + acme).queryParam("from", Rfc3339.format(plan.start()))
                .queryParam("to", Rfc3339.format(plan.end())).queryParam("tenant", "umbrella")
                .get(suite.url(Service.LEDGER).resolve("/api/v1/volcano-jobs").toString()).then().statusCode(403);
    }
}
