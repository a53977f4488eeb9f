package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.simulator.SimVolcanoJob;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo's Volcano objects: the queue, each Job at each phase change, and each job's PodGroup. */
class DemoVolcanoTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Plan PLAN = new FleetSimulator(42, Instant.parse("2026-12-02T00:15:00Z")).plan();

    static List<JsonNode> events() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (String line : new DemoVolcano(PLAN).ndjson().split("\n")) {
            out.add(JSON.readTree(line));
        }
        return out;
    }

    static List<JsonNode> of(List<JsonNode> events, String kind, String name) {
        return events.stream().map(e -> e.get("object"))
                .filter(o -> o.path("kind").asText().equals(kind) && o.path("metadata").path("name").asText().equals(name)).toList();
    }

    @Test
    void eachJobIsAVersionPerPhaseWithItsTransitionTimeAndRetries() throws Exception {
        List<JsonNode> events = events();
        for (SimVolcanoJob job : PLAN.volcanoJobs()) {
            List<JsonNode> versions = of(events, "Job", job.name());
            assertEquals(job.phases().size(), versions.size(), job.name());
            for (int i = 0; i < versions.size(); i++) {
                JsonNode v = versions.get(i);
                SimVolcanoJob.Phase p = job.phases().get(i);
                assertEquals("batch.volcano.sh/v1alpha1", v.path("apiVersion").asText());
                assertEquals(job.uid(), v.path("metadata").path("uid").asText());
                assertEquals(p.phase(), v.path("status").path("state").path("phase").asText());
                assertEquals(Rfc3339.format(p.at()), v.path("status").path("state").path("lastTransitionTime").asText());
                assertEquals(p.retryCount(), v.path("status").path("retryCount").asInt());
                assertEquals("vision", v.path("spec").path("queue").asText());
                assertEquals(Rfc3339.format(job.createdAt()), v.path("metadata").path("creationTimestamp").asText());
            }
        }
        JsonNode failed = of(events, "Job", "detr-train").get(9);
        assertEquals("Failed", failed.path("status").path("state").path("phase").asText());
        assertEquals("PodFailed", failed.path("status").path("state").path("reason").asText());
        assertEquals(3, failed.path("status").path("retryCount").asInt());
        assertEquals(3, failed.path("spec").path("maxRetry").asInt());
        // resourceVersions rise through the stream
        long last = 0;
        for (JsonNode e : events) {
            long rv = e.get("object").path("metadata").path("resourceVersion").asLong();
            assertTrue(rv > last);
            last = rv;
        }
    }

    @Test
    void theQueueHoldsEightCardsAndTheGangAskingSixteenWaitsUnschedulable() throws Exception {
        List<JsonNode> events = events();
        JsonNode queue = of(events, "Queue", "vision").get(0);
        assertEquals("scheduling.volcano.sh/v1beta1", queue.path("apiVersion").asText());
        assertEquals("8", queue.path("spec").path("capability").path("nvidia.com/gpu").asText());
        SimVolcanoJob waits = PLAN.volcanoJobs().stream().filter(j -> j.name().equals("sam-large")).findFirst().orElseThrow();
        List<JsonNode> group = of(events, "PodGroup", waits.podGroup());
        JsonNode now = group.get(group.size() - 1);
        assertEquals("Pending", now.path("status").path("phase").asText());
        assertEquals("Unschedulable", now.path("status").path("conditions").get(0).path("type").asText());
        assertEquals("NotEnoughResources", now.path("status").path("conditions").get(0).path("reason").asText());
        assertEquals("16", now.path("spec").path("minResources").path("nvidia.com/gpu").asText());
        assertEquals(waits.uid(), now.path("metadata").path("ownerReferences").get(0).path("uid").asText());
        SimVolcanoJob done = PLAN.volcanoJobs().stream().filter(j -> j.name().equals("resnet-sweep")).findFirst().orElseThrow();
        List<String> phases = of(events, "PodGroup", done.podGroup()).stream()
                .map(g -> g.path("status").path("phase").asText()).toList();
        assertEquals(List.of("Pending", "Running", "Completed"), phases);
        assertEquals(Rfc3339.format(done.runningAt()), of(events, "PodGroup", done.podGroup()).get(1).path("status")
                .path("conditions").get(0).path("lastTransitionTime").asText());
    }
}
