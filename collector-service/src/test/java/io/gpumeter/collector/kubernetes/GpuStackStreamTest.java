package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A recorded stream of a node's heartbeats and the GPU stack's objects, read as a replay request reads it: in blocks
 * on several threads, each read against the request's GPU stack, compared within the request in line order.
 */
class GpuStackStreamTest {

    static final Instant AT = Instant.parse("2026-05-01T10:00:00Z");
    private static ExecutorService pool;

    @BeforeAll
    static void start() {
        pool = Executors.newFixedThreadPool(2);
    }

    @AfterAll
    static void stop() {
        pool.shutdownNow();
    }

    static String line(String type, HasMetadata object) {
        return "{\"type\":\"" + type + "\",\"object\":" + Serialization.asJson(object) + "}";
    }

    /** The node at second {@code s}: its kubelet heartbeat moves every second, feature discovery's timestamp too. */
    static Node node(int s, String flap, String allocatable) {
        return new NodeBuilder(NodeStatusTranslatorTest.a100().build()).editMetadata().withResourceVersion(String.valueOf(1000 + s))
                .addToLabels("nvidia.com/gfd.timestamp", String.valueOf(1_777_629_600 + s))
                .addToLabels("nvidia.com/test.flap", flap).endMetadata()
                .editStatus().addToAllocatable("nvidia.com/gpu", new Quantity(allocatable))
                .addNewCondition().withType("Ready").withStatus("True")
                .withLastHeartbeatTime(AT.plusSeconds(s).toString()).endCondition().endStatus().build();
    }

    @Test
    void heartbeatsAcrossBlocksAreOneStatusAndEveryChangeIsOneMore() throws IOException {
        List<String> lines = new ArrayList<>();
        int seconds = WatchStreamReader.BLOCK * 3;
        for (int s = 0; s < seconds; s++) {
            // the flapping label moves every tenth second; every other version is a heartbeat
            lines.add(line(s == 0 ? "ADDED" : "MODIFIED", node(s, String.valueOf(s / 10), "8")));
        }
        lines.add(line("MODIFIED", node(seconds, String.valueOf((seconds - 1) / 10), "0")));
        lines.add(line("MODIFIED", StackTranslatorsTest.dcgmExporter()));
        lines.add(line("MODIFIED", StackTranslatorsTest.devicePluginPod("gpu-operator").build()));
        lines.add(line("MODIFIED", StackTranslatorsTest.devicePluginPod("team-a").build()));
        lines.add(line("MODIFIED", StackTranslatorsTest.devicePluginPod("gpu-operator").editMetadata()
                .withResourceVersion("901").endMetadata().build()));
        byte[] body = String.join("\n", lines).getBytes(StandardCharsets.UTF_8);

        FactSink sink = new FactSink(StackTranslatorsTest.STACK);
        int events = new WatchStreamReader(100_000, pool, 2).read(new ByteArrayInputStream(body), AT, sink);
        assertEquals(lines.size(), events);
        GovernanceBatch batch = sink.governanceBatch("east");
        List<NodeStatusFact> statuses = batch.nodeStatuses();
        assertEquals(seconds / 10 + 1, statuses.size(), "the first version, each change of the label, the drop to 0");
        assertEquals(List.of(8L, 0L), List.of(statuses.get(0).allocatable().get("nvidia.com/gpu"),
                statuses.get(statuses.size() - 1).allocatable().get("nvidia.com/gpu")));
        assertTrue(statuses.stream().noneMatch(f -> f.gpuLabels().containsKey(NodeStatusSettings.GFD_TIMESTAMP)));
        assertEquals(seconds + 1, sink.all().size(), "metering keeps every node version it kept before");
        assertEquals(List.of("dcgm-exporter"), batch.stackWorkloads().stream().map(w -> w.component()).toList());
        assertEquals(List.of("gpu-operator/900"), batch.stackPods().stream()
                .map(p -> p.namespace() + "/" + p.resourceVersion()).toList(),
                "the tenant's namesake is none, and the repeat of the same pod status is not sent twice");
        StackPodFact pod = batch.stackPods().get(0);
        assertEquals(List.of("nvcr.io/nvidia/k8s-device-plugin:v0.18.0", "nvcr.io/nvidia/k8s-device-plugin:v0.18.0"),
                pod.images(), "a pod's images are read on the one-pass path too");
        assertEquals(Map.of("no GPU requested", 1), sink.skippedByReason(), "the tenant's pod, as any pod without a GPU");
    }

    @Test
    void aStackPodReadsTheSameWhicheverWayItsLineIsRead() {
        String line = line("MODIFIED", StackTranslatorsTest.devicePluginPod("gpu-operator").build());
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        FactSink plain = new FactSink(StackTranslatorsTest.STACK);
        assertTrue(WatchEvents.readPlain(bytes, 0, bytes.length, AT, plain), "the one-pass path takes it");
        FactSink tree = new FactSink(StackTranslatorsTest.STACK);
        WatchEvents.read(line, 1, AT, tree);
        assertEquals(tree.governanceFacts(), plain.governanceFacts());
        assertEquals(1, plain.governanceFacts().size());
    }

    @Test
    void aWorkloadOfAnotherApiVersionIsSkippedWithItsReason() {
        String line = "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"extensions/v1beta1\",\"kind\":\"DaemonSet\","
                + "\"metadata\":{\"name\":\"nvidia-dcgm-exporter\",\"namespace\":\"gpu-operator\",\"uid\":\"u\",\"resourceVersion\":\"1\"}}}";
        FactSink sink = new FactSink(StackTranslatorsTest.STACK);
        WatchEvents.read(line.getBytes(StandardCharsets.UTF_8), 0, line.length(), 1, AT, sink);
        assertEquals(Map.of("DaemonSet of extensions/v1beta1 not read; only apps/v1", 1), sink.skippedByReason());
    }
}
