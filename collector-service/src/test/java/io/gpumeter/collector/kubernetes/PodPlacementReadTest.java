package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.gpumeter.common.fact.LabelRequirement;
import io.gpumeter.common.fact.NodeSelectorTerm;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.PodPlacement;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.PodToleration;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scheduler's refusal and the placement of a GPU pod as the API server serves it are read into its governance
 * view, alike on every path a pod is bound by: the one-pass reading of a watch line, the walked one, the tree, and the
 * whole model an informer binds.
 */
class PodPlacementReadTest {

    private static final Instant AT = Instant.parse("2026-05-04T09:00:00Z");

    private static String pod() throws IOException {
        try (InputStream in = PodPlacementReadTest.class.getResourceAsStream("/governance/unschedulable-gpu-pod.json")) {
            // one line, as a watch stream writes an object
            return new ObjectMapper().readTree(new String(in.readAllBytes(), StandardCharsets.UTF_8)).toString();
        }
    }

    private static PodStatusFact view(FactSink sink) {
        List<PodStatusFact> views = sink.governanceFacts().stream().filter(PodStatusFact.class::isInstance)
                .map(PodStatusFact.class::cast).toList();
        assertEquals(1, views.size(), sink.governanceFacts().toString());
        return views.get(0);
    }

    private static PodStatusFact onePass(String object) {
        String line = "{\"type\":\"MODIFIED\",\"object\":" + object + "}";
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        FactSink sink = new FactSink();
        assertTrue(WatchEvents.readPod(bytes, 0, bytes.length, AT, sink), "read in one pass");
        return view(sink);
    }

    private static PodStatusFact walked(String object) {
        String line = "{\"object\":" + object + ",\"type\":\"MODIFIED\"}"; // not the API server's order: walked
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        FactSink sink = new FactSink();
        assertTrue(WatchEvents.readPlain(bytes, 0, bytes.length, AT, sink), "read by the walk");
        return view(sink);
    }

    private static PodStatusFact walkedLean(String object) {
        // a null where PlainPods reads a string declines it, so the lean model binds the object
        String line = "{\"object\":" + object.replace("\"restartPolicy\":\"Never\"", "\"restartPolicy\":\"Never\",\"nodeName\":null")
                + ",\"type\":\"MODIFIED\"}";
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        FactSink sink = new FactSink();
        assertTrue(WatchEvents.readPlain(bytes, 0, bytes.length, AT, sink), "bound by the lean model");
        return view(sink);
    }

    private static PodStatusFact tree(String object) {
        FactSink sink = new FactSink();
        WatchEvents.read("{\"type\":\"MODIFIED\",\"object\":" + object + "}", 1, AT, sink);
        return view(sink);
    }

    private static PodStatusFact informer(String object) throws IOException {
        Pod pod = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).readValue(object, Pod.class);
        FactSink sink = new FactSink();
        sink.accept(WatchEventType.MODIFIED, pod, AT);
        return view(sink);
    }

    @Test
    void theRefusalAndThePlacementAreReadOnEveryPath() throws IOException {
        String object = pod();
        PodStatusFact expected = informer(object);

        assertEquals(new NotScheduled("Unschedulable", "0/6 nodes are available: 2 node(s) didn't match Pod's node"
                        + " affinity/selector, 4 Insufficient nvidia.com/gpu. preemption: 0/6 nodes are available: 2 Preemption"
                        + " is not helpful for scheduling, 4 No preemption victims found for incoming pod.",
                        Instant.parse("2026-05-04T08:12:04Z")), expected.scheduling());
        PodPlacement placement = expected.placement();
        assertEquals(Map.of("gpu-pool", "training"), placement.nodeSelector());
        assertEquals(List.of(new NodeSelectorTerm(List.of(
                new LabelRequirement("nvidia.com/gpu.product", "In", List.of("NVIDIA-H100-80GB-HBM3", "NVIDIA-A100-SXM4-80GB")),
                new LabelRequirement("node-role.kubernetes.io/control-plane", "DoesNotExist", List.of())), List.of())),
                placement.nodeAffinity(), "the required term alone; what is only preferred is left out");
        assertEquals(List.of(new PodToleration("nvidia.com/gpu", "Exists", null, "NoSchedule"),
                        new PodToleration("dedicated", "Equal", "training", "NoSchedule")), placement.tolerations(),
                "its own tolerations; the not-ready and unreachable ones every pod is given are left out");
        assertEquals(Map.of("nvidia.com/gpu", 4L), expected.gpuResources());

        assertEquals(expected, onePass(object));
        assertEquals(expected, walked(object));
        assertEquals(expected, walkedLean(object));
        assertEquals(expected, tree(object));
    }

    @Test
    void aScheduledPodCarriesNoRefusalAndAPodThatMayGoAnywhereNoPlacement() throws IOException {
        String object = pod().replace("\"status\":\"False\"", "\"status\":\"True\"")
                .replaceAll("\"nodeSelector\":\\{[^}]*},", "")
                .replaceAll("\"tolerations\":\\[[^\\]]*],", "\"tolerations\":[{\"effect\":\"NoExecute\","
                        + "\"key\":\"node.kubernetes.io/not-ready\",\"operator\":\"Exists\",\"tolerationSeconds\":300}],");
        object = object.substring(0, object.indexOf("\"affinity\"")) + object.substring(object.indexOf("\"containers\""));
        PodStatusFact view = onePass(object);
        assertNull(view.scheduling());
        assertNull(view.placement());
        assertEquals(view, informer(object));
    }
}
