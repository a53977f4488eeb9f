package io.gpumeter.collector.kubernetes;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.gpumeter.collector.testing.GpuStackObjects;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.NodeTaint;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a node offers the GPU stack, read off a Node; and each bad node, stored or skipped for a clear reason. */
class NodeStatusTranslatorTest {

    static final Instant AT = Instant.parse("2026-05-01T10:00:00Z");

    static NodeBuilder a100() {
        return GpuStackObjects.a100();
    }

    @Test
    void itKeepsTheGpuResourcesCordonTaintsGpuLabelsAndTheSuitesAnnotations() {
        NodeStatusFact fact = NodeStatusTranslator.translate(a100().build(), WatchEventType.MODIFIED, AT,
                new NodeStatusSettings(List.of("amd.com/gpu"), Set.of(NodeStatusSettings.GFD_TIMESTAMP)));
        assertEquals("gpu-a100-1", fact.name());
        assertEquals("node-uid-1", fact.uid());
        assertEquals(Instant.parse("2026-04-01T00:00:00Z"), fact.createdAt());
        assertEquals(Map.of("nvidia.com/gpu", 8L, "amd.com/gpu", 2L), fact.capacity());
        assertEquals(Map.of("nvidia.com/gpu", 0L, "amd.com/gpu", 2L), fact.allocatable(), "the device plugin is down");
        assertTrue(fact.unschedulable());
        assertEquals(List.of(new NodeTaint("nvidia.com/gpu", "present", "NoSchedule")), fact.taints());
        assertEquals(Set.of("nvidia.com/gpu.product", "nvidia.com/gpu.count", "nvidia.com/cuda.driver.major",
                "nvidia.com/cuda.driver.minor", "nvidia.com/cuda.driver.rev", "nvidia.com/mig.config",
                "nvidia.com/mig.config.state"), fact.gpuLabels().keySet(), "no timestamp, no other domain");
        assertEquals(Map.of("gpumeter.io/cordoned-by", "runbook cordon xid-79"), fact.suiteAnnotations());
    }

    @Test
    void resourcesOfAConfiguredDomainCountAndOthersDoNot() {
        Node node = a100().editStatus().addToCapacity("example.com/vgpu", new Quantity("16"))
                .addToCapacity("example.com.evil/vgpu", new Quantity("1")).endStatus().build();
        NodeStatusFact fact = NodeStatusTranslator.translate(node, WatchEventType.ADDED, AT,
                new NodeStatusSettings(List.of("example.com/"), Set.of()));
        assertEquals(Map.of("nvidia.com/gpu", 8L, "example.com/vgpu", 16L), fact.capacity());
        assertTrue(fact.gpuLabels().containsKey(NodeStatusSettings.GFD_TIMESTAMP), "none ignored: the timestamp stays");
    }

    @Test
    void aNodeWithTenThousandLabelsKeepsItsGpuLabelsAndItsMetering() {
        Map<String, String> labels = new HashMap<>();
        for (int i = 0; i < 10_000; i++) {
            labels.put("example.com/label-" + i, "v" + i);
        }
        labels.put("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3");
        Node node = a100().editMetadata().withLabels(labels).endMetadata().build();
        FactSink sink = new FactSink();
        sink.accept(WatchEventType.ADDED, node, AT);
        NodeStatusFact status = (NodeStatusFact) sink.governanceFacts().get(0);
        assertEquals(Map.of("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3"), status.gpuLabels());
        assertEquals(10_001, ((NodeFact) sink.all().get(0)).labels().size(), "metering keeps what it kept");
        assertEquals(0, sink.skippedCount());
    }

    static Stream<Arguments> badNodes() {
        return Stream.of(
                bad("over a thousand labels of nvidia.com/", b -> {
                    Map<String, String> labels = new HashMap<>();
                    for (int i = 0; i <= NodeStatusTranslator.MAX_GPU_LABELS; i++) {
                        labels.put("nvidia.com/x-" + i, "1");
                    }
                    return b.editMetadata().withLabels(labels).endMetadata();
                }, "node status: more than 1000 labels of nvidia.com/"),
                bad("a label value longer than the API server takes", b -> b.editMetadata()
                        .addToLabels("nvidia.com/gpu.product", "x".repeat(64)).endMetadata(),
                        "node status: a label of nvidia.com/ longer than the API server allows"),
                bad("half a GPU", b -> b.editStatus().addToAllocatable("nvidia.com/gpu", new Quantity("500m")).endStatus(),
                        "node status: a GPU resource in status.allocatable is not a whole, non-negative count"),
                bad("minus one GPU", b -> b.editStatus().addToCapacity("nvidia.com/gpu", new Quantity("-1")).endStatus(),
                        "node status: a GPU resource in status.capacity is not a whole, non-negative count"),
                bad("a quantity that is none", b -> b.editStatus().addToCapacity("nvidia.com/gpu", new Quantity("lots"))
                        .endStatus(), "node status: a GPU resource in status.capacity is not a whole, non-negative count"),
                bad("a taint without key", b -> b.editSpec().addNewTaint().withEffect("NoSchedule").endTaint().endSpec(),
                        "node status: spec.taints[] without key"),
                bad("a suite annotation of 5,000 characters", b -> b.editMetadata()
                        .addToAnnotations("gpumeter.io/alert-x", "y".repeat(5_000)).endMetadata(),
                        "node status: an annotation of gpumeter.io/ longer than 4096 characters"),
                bad("a creation time that is none", b -> b.editMetadata().withCreationTimestamp("yesterday").endMetadata(),
                        "node status: bad timestamp in metadata.creationTimestamp"));
    }

    private static Arguments bad(String what, UnaryOperator<NodeBuilder> garble, String reason) {
        return Arguments.of(what, garble, reason);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badNodes")
    void aBadNodeLosesOnlyItsStatusWithAReasonAndNothingElseOfTheBatch(String what, UnaryOperator<NodeBuilder> garble,
                                                                         String reason) {
        FactSink sink = new FactSink();
        sink.accept(WatchEventType.MODIFIED, a100().editMetadata().withName("gpu-ok").endMetadata().build(), AT);
        sink.accept(WatchEventType.MODIFIED, garble.apply(a100()).build(), AT);
        assertEquals(Map.of(reason, 1), sink.skippedByReason(), what);
        assertEquals(List.of("gpu-ok"), sink.governanceFacts().stream().map(f -> ((NodeStatusFact) f).name()).toList());
        assertEquals(2, sink.all().size(), "both nodes keep their metering fact");
    }

    @Test
    void aNodeWithoutItsNameIsOneSkippedEvent() {
        FactSink sink = new FactSink();
        sink.accept(WatchEventType.ADDED, a100().editMetadata().withName(null).endMetadata().build(), AT);
        assertEquals(Map.of("no metadata.name", 1), sink.skippedByReason());
        assertTrue(sink.governanceFacts().isEmpty());
        assertFalse(sink.skippedByReason().containsKey("node status: no metadata.name"));
    }

    @Test
    void aWholeCountIsReadHoweverWritten() {
        assertEquals(8, NodeStatusTranslator.whole(new Quantity("8"), "f"));
        assertEquals(1000, NodeStatusTranslator.whole(new Quantity("1k"), "f"));
        assertEquals(2, NodeStatusTranslator.whole(new Quantity("2000m"), "f"));
        assertThrows(Skip.class, () -> NodeStatusTranslator.whole(new Quantity("1500m"), "f"));
    }
}
