package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recorded history of one GPU node and its GPU Operator, replayed through the collector long after it happened: a
 * driver upgrade, the device plugin crash-looping with the node's GPUs gone from allocatable, and a dcgm-exporter
 * image update. The ledger's change book and the node's gpu-stack read must tell each at the instant it happened (the
 * versions' managedFields times), not at the replay's.
 */
@ExtendWith(GpuStackEndToEndTest.StartSuite.class)
class GpuStackEndToEndTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String CLUSTER = "stack";
    static final String NODE = "gpu-s1";

    static Suite suite;

    static final class StartSuite implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            suite = SuiteExtension.suite(context);
        }
    }

    static String url(Service service, String path) {
        return suite.url(service).resolve(path).toString();
    }

    static ObjectNode line(String type, ObjectNode object) {
        ObjectNode line = JSON.createObjectNode().put("type", type);
        line.set("object", object);
        return line;
    }

    /** Who last wrote a version, and when: what an API server's watch output carries. */
    static void written(ObjectNode meta, String manager, String at) {
        meta.putArray("managedFields").addObject().put("manager", manager).put("operation", "Update")
                .put("apiVersion", "v1").put("time", at).put("fieldsType", "FieldsV1").putObject("fieldsV1");
    }

    static ObjectNode node(String rv, String driver, String cuda, String allocatable, String at) {
        ObjectNode o = JSON.createObjectNode().put("kind", "Node").put("apiVersion", "v1");
        ObjectNode meta = o.putObject("metadata").put("name", NODE).put("uid", "node-s1").put("resourceVersion", rv)
                .put("creationTimestamp", "2026-09-01T00:00:00Z");
        String[] d = driver.split("\\.");
        String[] c = cuda.split("\\.");
        meta.putObject("labels").put("nvidia.com/gpu.product", "NVIDIA-A100-SXM4-80GB").put("nvidia.com/gpu.count", "8")
                .put("nvidia.com/cuda.driver.major", d[0]).put("nvidia.com/cuda.driver.minor", d[1])
                .put("nvidia.com/cuda.driver.rev", d[2]).put("nvidia.com/cuda.runtime.major", c[0])
                .put("nvidia.com/cuda.runtime.minor", c[1])
                .put("nvidia.com/gfd.timestamp", at);
        written(meta, "gpu-feature-discovery", at);
        ObjectNode status = o.putObject("status");
        status.putObject("capacity").put("cpu", "96").put("nvidia.com/gpu", "8");
        status.putObject("allocatable").put("cpu", "96").put("nvidia.com/gpu", allocatable);
        return line(rv.equals("100") ? "ADDED" : "MODIFIED", o);
    }

    static ObjectNode daemonSet(String name, String rv, String image, String at) {
        ObjectNode o = JSON.createObjectNode().put("kind", "DaemonSet").put("apiVersion", "apps/v1");
        ObjectNode meta = o.putObject("metadata").put("name", name).put("namespace", "gpu-operator").put("uid", "ds-" + name)
                .put("resourceVersion", rv);
        written(meta, "gpu-operator", at);
        ArrayNode containers = o.putObject("spec").putObject("template").putObject("spec").putArray("containers");
        containers.addObject().put("name", name).put("image", image);
        return line(rv.startsWith("2") ? "ADDED" : "MODIFIED", o);
    }

    static ObjectNode pluginPod(String rv, boolean ready, int restarts, String waiting, String at) {
        ObjectNode o = JSON.createObjectNode().put("kind", "Pod").put("apiVersion", "v1");
        ObjectNode meta = o.putObject("metadata").put("name", "nvidia-device-plugin-daemonset-x7k2p")
                .put("namespace", "gpu-operator").put("uid", "dp-s1").put("resourceVersion", rv)
                .put("creationTimestamp", "2026-09-01T00:05:00Z");
        written(meta, "kubelet", at);
        meta.putArray("ownerReferences").addObject().put("apiVersion", "apps/v1").put("kind", "DaemonSet")
                .put("name", "nvidia-device-plugin-daemonset").put("uid", "ds-nvidia-device-plugin-daemonset")
                .put("controller", true);
        o.putObject("spec").put("nodeName", NODE).putArray("containers").addObject()
                .put("name", "nvidia-device-plugin").put("image", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0");
        ObjectNode status = o.putObject("status").put("phase", "Running");
        status.putArray("conditions").addObject().put("type", "Ready").put("status", ready ? "True" : "False")
                .put("lastTransitionTime", "2026-09-02T10:00:00Z");
        ObjectNode container = status.putArray("containerStatuses").addObject().put("name", "nvidia-device-plugin")
                .put("ready", ready).put("restartCount", restarts).put("image", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0");
        if (waiting != null) {
            container.putObject("state").putObject("waiting").put("reason", waiting);
        } else {
            container.putObject("state").putObject("running").put("startedAt", "2026-09-01T00:06:00Z");
        }
        return line("MODIFIED", o);
    }

    /** The history in one request, as `./gpumeter replay` sends a recorded watch stream. */
    static void replay(ObjectNode... lines) {
        StringBuilder body = new StringBuilder();
        for (ObjectNode l : lines) {
            body.append(l).append('\n');
        }
        given().contentType("application/x-ndjson").queryParam("cluster", CLUSTER)
                .body(body.toString().getBytes(StandardCharsets.UTF_8))
                .post(url(Service.COLLECTOR, "/api/v1/ingest/kubernetes")).then().statusCode(200);
    }

    @BeforeAll
    static void history() {
        replay(node("100", "550.54.15", "12.4", "8", "2026-09-01T00:00:00Z"),
                daemonSet("nvidia-dcgm-exporter", "200", "nvcr.io/nvidia/k8s/dcgm-exporter:3.3.9-3.6.1-ubuntu22.04",
                        "2026-09-01T00:01:00Z"),
                daemonSet("nvidia-device-plugin-daemonset", "201", "nvcr.io/nvidia/k8s-device-plugin:v0.17.0",
                        "2026-09-01T00:01:00Z"),
                pluginPod("300", true, 0, null, "2026-09-01T00:06:00Z"),
                // a heartbeat: only feature discovery's timestamp moves
                node("101", "550.54.15", "12.4", "8", "2026-09-02T00:00:00Z"),
                // the driver upgrade
                node("102", "560.35.03", "12.6", "8", "2026-09-03T08:00:00Z"),
                // the device plugin crash-loops and the node offers no GPU
                pluginPod("301", false, 3, "CrashLoopBackOff", "2026-09-04T10:00:00Z"),
                node("103", "560.35.03", "12.6", "0", "2026-09-04T10:00:05Z"),
                // recovered twenty minutes later, and dcgm-exporter updated the next day
                pluginPod("302", true, 4, null, "2026-09-04T10:20:00Z"),
                node("104", "560.35.03", "12.6", "8", "2026-09-04T10:20:05Z"),
                daemonSet("nvidia-dcgm-exporter", "202", "nvcr.io/nvidia/k8s/dcgm-exporter:4.1.1-4.0.4-ubuntu22.04",
                        "2026-09-05T09:00:00Z"));
    }

    static List<Map<String, Object>> changes(String kind) {
        return given().queryParam("from", "2026-01-01T00:00:00Z").queryParam("to", "2027-12-31T00:00:00Z")
                .queryParam("cluster", CLUSTER).queryParam("kind", kind).queryParam("limit", 1000)
                .get(url(Service.LEDGER, "/api/v1/changes")).then().statusCode(200).extract().jsonPath().getList("$");
    }

    @Test
    void theBookTellsTheDriverUpgradeAndNotTheHeartbeat() {
        List<Map<String, Object>> driver = changes("DRIVER_VERSION");
        assertEquals(1, driver.size(), driver.toString());
        assertEquals("550.54.15", driver.get(0).get("before"));
        assertEquals("560.35.03", driver.get(0).get("after"));
        assertEquals(NODE, driver.get(0).get("node"));
        assertEquals("2026-09-03T08:00:00Z", driver.get(0).get("at"), "the instant the upgrade was written, not replayed");
        List<Map<String, Object>> cuda = changes("CUDA_VERSION");
        assertEquals(List.of("12.6"), cuda.stream().map(c -> c.get("after")).toList(), cuda.toString());
        List<Map<String, Object>> labels = changes("NODE_LABEL");
        assertTrue(labels.stream().noneMatch(c -> "nvidia.com/gfd.timestamp".equals(c.get("subject"))), labels.toString());
    }

    @Test
    void theBookTellsTheAllocatableDropAndTheCrashLoop() {
        List<String> allocatable = changes("GPU_ALLOCATABLE").stream()
                .map(c -> c.get("subject") + " " + c.get("before") + "->" + c.get("after")).toList();
        assertEquals(List.of("nvidia.com/gpu 8->0", "nvidia.com/gpu 0->8"), allocatable);
        assertEquals(List.of("2026-09-04T10:00:05Z", "2026-09-04T10:20:05Z"),
                changes("GPU_ALLOCATABLE").stream().map(c -> c.get("at")).toList());
        List<String> health = changes("COMPONENT_HEALTH").stream()
                .filter(c -> NODE.equals(c.get("node")))
                .map(c -> c.get("subject") + " " + c.get("before") + "->" + c.get("after")).toList();
        assertTrue(health.stream().anyMatch(h -> h.endsWith("Ready->CrashLoopBackOff")), health.toString());
        assertTrue(health.stream().anyMatch(h -> h.endsWith("CrashLoopBackOff->Ready")), health.toString());
    }

    @Test
    void theBookTellsTheImageUpdate() {
        List<Map<String, Object>> versions = changes("COMPONENT_VERSION");
        assertTrue(versions.stream().anyMatch(c -> String.valueOf(c.get("after")).contains("4.1.1-4.0.4")
                && String.valueOf(c.get("before")).contains("3.3.9-3.6.1")), versions.toString());
    }

    @Test
    void theNodesGpuStackAfterTheUpgrade() {
        JsonPath stack = given().queryParam("cluster", CLUSTER).get(url(Service.LEDGER, "/api/v1/nodes/" + NODE + "/gpu-stack"))
                .then().statusCode(200).extract().jsonPath();
        assertEquals("560.35.03", stack.getString("gpuLabels.driverVersion"), stack.prettify());
        assertTrue(stack.prettify().contains("nvidia.com/gpu"), stack.prettify());
    }
}
