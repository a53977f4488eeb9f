package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A line read from its bytes comes out as the JSON tree reads it: plain lines are bound straight from the bytes
 * (wherever in a buffer they lie), and every other line is left to the tree.
 */
class WatchEventsTest {

    private static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");
    private static final String POD = WatchStreamReaderTest.GOOD_POD;
    private static final String GPU_POD_OBJECT = "{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"metadata\":"
            + "{\"name\":\"p\",\"namespace\":\"n\",\"uid\":\"u\",\"resourceVersion\":\"7\",\"labels\":{\"a\":\"é\"}},"
            + "\"spec\":{\"nodeName\":\"node-1\",\"containers\":[{\"name\":\"a\",\"resources\":{\"limits\":{\"nvidia.com/gpu\":\"2\"}}}]},"
            + "\"status\":{\"phase\":\"Running\"}}";

    /** The line placed inside a larger buffer, between bytes that are not part of it. */
    private static byte[] embedded(String line) {
        return ("}{\"x\":\n" + line + "\n]]").getBytes(StandardCharsets.UTF_8);
    }

    private static final int OFFSET = 7;

    private static int length(String line) {
        return line.getBytes(StandardCharsets.UTF_8).length;
    }

    /** What the sink holds, as text: its facts and governance facts, and its skips by reason. */
    private static String outcome(FactSink sink) {
        return sink.all() + " | " + sink.governanceFacts() + " | " + sink.skippedByReason();
    }

    private static String viaBytes(String line) {
        FactSink sink = new FactSink();
        try {
            WatchEvents.read(embedded(line), OFFSET, length(line), 3, AT, sink);
        } catch (WatchStreamReader.MalformedLine e) {
            return e.getMessage();
        }
        return outcome(sink);
    }

    private static String viaTree(String line) {
        FactSink sink = new FactSink();
        try {
            WatchEvents.read(line, 3, AT, sink);
        } catch (WatchStreamReader.MalformedLine e) {
            return e.getMessage();
        }
        return outcome(sink);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            POD,
            "{\"type\":\"MODIFIED\",\"object\":" + GPU_POD_OBJECT + "}",
            "{\"object\":" + GPU_POD_OBJECT + ",\"extra\":[1,{\"b\":[]}],\"type\":\"DELETED\"}",
            " \t{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT + "}  ",
    })
    void plainLinesAreBoundFromTheirBytesAsTheTreeBindsThem(String line) {
        assertTrue(WatchEvents.readPlain(embedded(line), OFFSET, length(line), AT, new FactSink()), line);
        assertEquals(viaTree(line), viaBytes(line));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"type\":\"ADDED\",\"object\":{",
            "{\"type\":\"ADDED\",\"object\":{}} {}",
            "[1,2]",
            "null",
            "{\"type\":\"ADDED\",\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"},\"object\":{\"kind\":\"ConfigMap\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"kind\":\"Node\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":5}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":1}}",
            "{\"type\":1,\"object\":{\"kind\":\"Pod\"}}",
            "{\"type\":\"added\",\"object\":{\"kind\":\"Pod\"}}",
            "{\"type\":\"BOOKMARK\",\"object\":{\"kind\":\"Pod\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ConfigMap\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"ResourceClaim\",\"apiVersion\":\"resource.k8s.io/v1beta1\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":\"oops\"}}",
            "{\"type\":\"ADDED\",\"object\":{\"kind\":Pod}}",
            "{\"type\":\"ADDED\"}",
            "\uFEFF{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"}}",
    })
    void everyOtherLineIsLeftToTheTree(String line) {
        FactSink sink = new FactSink();
        assertFalse(WatchEvents.readPlain(embedded(line), OFFSET, length(line), AT, sink), line);
        assertEquals("[] | [] | {}", outcome(sink), "nothing added before handing the line over");
        assertEquals(viaTree(line), viaBytes(line));
    }

    @ParameterizedTest
    @ValueSource(strings = {"{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"metadata\":{\"name\":\"\u00ff"})
    void bytesThatAreNotUtf8AreReadAsTheTextTheyDecodeTo(String prefix) {
        byte[] good = (prefix + "\"}}}").getBytes(StandardCharsets.ISO_8859_1); // \u00ff as one byte: not UTF-8
        FactSink sink = new FactSink();
        assertFalse(WatchEvents.readPlain(good, 0, good.length, AT, sink));
        FactSink viaBytes = new FactSink();
        WatchEvents.read(good, 0, good.length, 3, AT, viaBytes);
        FactSink viaTree = new FactSink();
        WatchEvents.read(new String(good, StandardCharsets.UTF_8), 3, AT, viaTree);
        assertEquals(outcome(viaTree), outcome(viaBytes));
        assertEquals(1, viaBytes.skippedCount(), "a pod without a GPU, with its name decoded");
    }

    /** A pod as an API server's watch prints it: managed fields, volumes, probes, environment and all. */
    static final String FULL_POD_OBJECT = """
            {"kind":"Pod","apiVersion":"v1","metadata":{"name":"trainer-0","namespace":"team-a","uid":"u-full",
            "resourceVersion":"41092552","creationTimestamp":"2026-05-04T10:43:36Z",
            "labels":{"job-name":"trainer","pod-template-hash":"x1"},
            "annotations":{"hami.io/vgpu-devices-allocated":"GPU-29d5fa0d-935b-2966-aff8-483a174d61d1,NVIDIA,1024,20:;",
            "hami.io/bind-phase":"success"},
            "ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":"trainer","uid":"j1","controller":true}],
            "managedFields":[{"manager":"kube-scheduler","operation":"Update","apiVersion":"v1","time":"2026-05-04T10:43:36Z",
            "fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{".":{},"k:{\\"type\\":\\"PodScheduled\\"}":{}}}}}]},
            "spec":{"volumes":[{"name":"data","persistentVolumeClaim":{"claimName":"data"}},
            {"name":"token","projected":{"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}}]}}],
            "initContainers":[{"name":"fetch","image":"busybox","command":["sh","-c","true"],
            "resources":{"limits":{"nvidia.com/gpu":"1"}}}],
            "containers":[{"name":"main","image":"pytorch/pytorch","command":["bash"],"args":["-c","train"],
            "env":[{"name":"RANK","value":"0"},{"name":"POD","valueFrom":{"fieldRef":{"fieldPath":"metadata.name"}}}],
            "ports":[{"containerPort":23456,"protocol":"TCP"}],
            "resources":{"limits":{"nvidia.com/gpu":"2","nvidia.com/gpumem":"1024"},"requests":{"cpu":"4"}},
            "volumeMounts":[{"name":"data","mountPath":"/data"}],
            "livenessProbe":{"exec":{"command":["true"]},"periodSeconds":10},
            "securityContext":{"privileged":false}}],
            "nodeName":"worker-a800-1","schedulerName":"hami-scheduler",
            "tolerations":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}],
            "affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":
            [{"matchExpressions":[{"key":"gpu","operator":"In","values":["a800"]}]}]}}}},
            "status":{"phase":"Failed","reason":"Evicted","message":"out of memory","hostIP":"10.0.0.1","podIP":"10.233.97.184",
            "conditions":[{"type":"PodScheduled","status":"True","lastTransitionTime":"2026-05-04T10:43:40Z"},
            {"type":"Ready","status":"False","lastTransitionTime":"2026-05-04T11:00:00Z"}],
            "initContainerStatuses":[{"name":"fetch","restartCount":0,"image":"busybox","imageID":"docker://sha256:1",
            "state":{"terminated":{"exitCode":0,"reason":"Completed","startedAt":"2026-05-04T10:43:41Z","finishedAt":"2026-05-04T10:43:42Z"}}}],
            "containerStatuses":[{"name":"main","restartCount":2,"image":"pytorch/pytorch","imageID":"docker://sha256:2",
            "containerID":"containerd://c1","ready":false,
            "lastState":{"terminated":{"exitCode":137,"reason":"OOMKilled","startedAt":"2026-05-04T10:50:00Z","finishedAt":"2026-05-04T10:55:00Z"}},
            "state":{"terminated":{"exitCode":137,"reason":"OOMKilled","startedAt":"2026-05-04T10:56:00Z","finishedAt":"2026-05-04T11:00:00Z"}}}]}}"""
            .replace("\n", "");

    @Test
    void aFullPodGivesTheFactsOfItsWholeModel() throws Exception {
        String line = "{\"type\":\"MODIFIED\",\"object\":" + FULL_POD_OBJECT + "}";
        Pod whole = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .readValue(FULL_POD_OBJECT, Pod.class);
        FactSink expected = new FactSink();
        expected.accept(WatchEventType.MODIFIED, whole, AT);

        assertTrue(WatchEvents.readPlain(embedded(line), OFFSET, length(line), AT, new FactSink()));
        assertEquals(outcome(expected), viaBytes(line));
        assertEquals(outcome(expected), viaTree(line));
        assertEquals(1, expected.facts(), outcome(expected));
        assertTrue(outcome(expected).contains("OOMKilled"), "the governance view keeps the container states");
    }

    private static final String POD_REST = GPU_POD_OBJECT.substring("{\"kind\":\"Pod\",\"apiVersion\":\"v1\",".length());

    static List<String> podLinesInTheApiServersOrder() {
        return List.of(
                POD,
                "{\"type\":\"MODIFIED\",\"object\":" + GPU_POD_OBJECT + "}",
                "{\"type\":\"DELETED\",\"object\":" + FULL_POD_OBJECT + "}",
                " {\"type\":\"ADDED\" , \"object\" : " + GPU_POD_OBJECT + " }\t",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v2\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\"," + POD_REST + "}");
    }

    @ParameterizedTest
    @MethodSource("podLinesInTheApiServersOrder")
    void aPodInTheApiServersOrderIsReadInOnePass(String line) {
        FactSink sink = new FactSink();
        assertTrue(WatchEvents.readPod(embedded(line), OFFSET, length(line), AT, sink), line);
        assertEquals(viaTree(line), outcome(sink));
        assertTrue(outcome(sink).startsWith("[PodFact["), outcome(sink));
    }

    static List<String> otherLines() {
        return List.of(
                "{\"object\":" + GPU_POD_OBJECT + ",\"type\":\"ADDED\"}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"kind\":\"Pod\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"apiVersion\":\"v1\",\"kind\":\"Pod\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"apiVersion\":\"v1\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":{\"apiVersion\":\"v1\",\"metadata\":{},\"kind\":\"Pod\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT + ",\"extra\":1}",
                "{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT + ",\"type\":\"DELETED\"}",
                "{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT + ",\"object\":{}}",
                "{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT + "} {}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"kind\":\"Node\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"v1\",\"apiVersion\":\"v2\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":\"kueue.x-k8s.io/v1beta1\"," + POD_REST + "}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Pod\",\"apiVersion\":7," + POD_REST + "}",
                "{\"type\":\"BOOKMARK\",\"object\":" + GPU_POD_OBJECT + "}",
                "{\"type\":\"added\",\"object\":" + GPU_POD_OBJECT + "}",
                "{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT.replace("\"resourceVersion\":\"7\"", "\"resourceVersion\":7") + "}",
                "{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT.replace("}}", "}") + "}",
                "{\"type\":\"ADDED\",\"object\":{\"kind\":\"Node\",\"apiVersion\":\"v1\",\"metadata\":{\"name\":\"n\",\"resourceVersion\":\"1\"}}}");
    }

    @ParameterizedTest
    @MethodSource("otherLines")
    void everyOtherLineIsWalkedWithTheSameOutcome(String line) {
        FactSink sink = new FactSink();
        assertFalse(WatchEvents.readPod(embedded(line), OFFSET, length(line), AT, sink), line);
        assertEquals("[] | [] | {}", outcome(sink), "nothing added before handing the line over");
        assertEquals(viaTree(line), viaBytes(line));
    }

    @ParameterizedTest
    @ValueSource(strings = {"\"volumes\":\"oops\"", "\"topologySpreadConstraints\":{\"a\":1}",
            "\"affinity\":{\"podAntiAffinity\":7,\"nodeAffinity\":{\"preferredDuringSchedulingIgnoredDuringExecution\":\"x\"}}"})
    void aFieldNoTranslatorReadsCannotMakeAPodUnreadable(String odd) {
        String line = "{\"type\":\"ADDED\",\"object\":" + GPU_POD_OBJECT.replace("\"spec\":{", "\"spec\":{" + odd + ",") + "}";
        assertEquals(viaTree(line), viaBytes(line));
        assertTrue(viaBytes(line).startsWith("[PodFact["), viaBytes(line));
    }
}
