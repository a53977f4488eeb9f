package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Pod;
import io.gpumeter.common.fact.WatchEventType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A pod bound field by field gives the facts the whole Kubernetes model gives, or is declined: checked on real pods,
 * then on every one of their values replaced by each kind of JSON value, removed, or named a second time.
 */
class PlainPodsTest {

    private static final Instant AT = Instant.parse("2026-06-01T00:00:00Z");
    private static final ObjectMapper TREE = new ObjectMapper();
    /** The oracle: the whole fabric8 model, as a client binds a pod. */
    private static final ObjectMapper MODEL = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final JsonFactory JSON = new JsonFactory();

    /** A pod with what the others lack: a waiting container, a deletion, a queue label, a gang, a ReplicaSet. */
    private static final String PENDING_POD = """
            {"apiVersion":"v1","kind":"Pod","metadata":{"name":"serve-7d9f-abcde","namespace":"team-b","uid":"u-pend",
            "resourceVersion":"88","creationTimestamp":"2026-05-04T10:00:00+02:00","deletionTimestamp":"2026-05-04T11:00:00.123456Z",
            "labels":{"kueue.x-k8s.io/queue-name":"lq-b","pod-template-hash":"7d9f"},
            "annotations":{"scheduling.k8s.io/group-name":"pg-1","volcano.sh/pod-group":"pg-2"},
            "ownerReferences":[{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"serve-7d9f","uid":"rs","controller":true},
            {"apiVersion":"v1","kind":"Node","name":"n","uid":"nd","controller":false}]},
            "spec":{"schedulerName":"volcano","nodeSelector":{"pool":"a100"},"affinity":{"nodeAffinity":{
            "requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchExpressions":[{"key":"nvidia.com/gpu.product",
            "operator":"In","values":["NVIDIA-A100-SXM4-80GB","NVIDIA-H100"]}],"matchFields":[{"key":"metadata.name","operator":"NotIn",
            "values":["n-1"]}]}]},"preferredDuringSchedulingIgnoredDuringExecution":[{"weight":1,"preference":{}}]},"podAntiAffinity":{}},
            "tolerations":[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"},
            {"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],
            "containers":[{"name":"a","resources":{"requests":{"nvidia.com/gpu":"1"}}},
            {"name":"b","resources":{"limits":{"nvidia.com/mig-1g.10gb":"2","cpu":"500m"},"requests":{"nvidia.com/mig-1g.10gb":"2"}}}],
            "initContainers":[{"name":"i","resources":{"limits":{"nvidia.com/gpu":"3"}}}]},
            "status":{"phase":"Pending","reason":"Unschedulable","message":"0/4 nodes are available",
            "conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"0/4 nodes are available: 4 Insufficient nvidia.com/gpu.",
            "lastTransitionTime":"2026-05-04T10:00:01Z"},
            {"type":"Ready","status":"False","lastTransitionTime":"bad"}],
            "containerStatuses":[{"name":"a","restartCount":0,"state":{"waiting":{"reason":"ContainerCreating","message":"pulling"}},
            "lastState":{}},{"name":"b","restartCount":5,"state":{"running":{"startedAt":"2026-05-04T10:00:09Z"}}}]}}"""
            .replace("\n", "");

    private static List<String> pods() throws IOException {
        List<String> pods = new ArrayList<>(List.of(WatchEventsTest.FULL_POD_OBJECT, PENDING_POD,
                TREE.readTree(WatchStreamReaderTest.GOOD_POD).get("object").toString()));
        try (InputStream in = PlainPodsTest.class.getResourceAsStream("/dra/nvidia-dra-stream.ndjson")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                JsonNode object = line.isBlank() ? null : TREE.readTree(line).get("object");
                if (object != null && "Pod".equals(object.path("kind").asText())) {
                    pods.add(object.toString());
                }
            }
        }
        return pods;
    }

    /** A pod's facts, governance facts and skips, or what its translation threw. */
    private static String outcome(Pod pod) {
        FactSink sink = new FactSink();
        try {
            sink.accept(WatchEventType.MODIFIED, pod, AT);
        } catch (RuntimeException e) {
            return "threw " + e.getClass().getName();
        }
        return sink.all() + " | " + sink.governanceFacts() + " | " + sink.skippedByReason();
    }

    private static Pod plain(String json) {
        byte[] bytes = ("[[" + json + "]]").getBytes(StandardCharsets.UTF_8); // bound from inside a larger buffer
        return PlainPods.read(JSON, bytes, 2, bytes.length - 4);
    }

    private static Pod model(String json) {
        try {
            return MODEL.readValue(json, Pod.class);
        } catch (IOException | IllegalArgumentException e) {
            return null;
        }
    }

    @Test
    void realPodsGiveTheFactsOfTheWholeModel() throws IOException {
        List<String> pods = pods();
        assertTrue(pods.size() >= 8, "the DRA stream's pods are read too: " + pods.size());
        for (String pod : pods) {
            Pod plain = plain(pod);
            assertNotNull(plain, pod);
            assertEquals(outcome(model(pod)), outcome(plain), pod);
        }
        assertTrue(outcome(plain(PENDING_POD)).contains("ContainerCreating"), outcome(plain(PENDING_POD)));
    }

    /** Each value a field may be given instead of its own. */
    private static final List<String> VALUES = List.of("null", "\"\"", "\" \"", "\"x\"", "\"2\"", "\"1Gi\"", "\"abc\"",
            "\"-1\"", "\"2026-05-04T10:43:40Z\"", "\"2026-05-04T12:43:40+02:00\"", "\"True\"", "0", "7", "-1",
            "2147483648", "1.5", "1e2", "true", "false", "{}", "[]", "[null]", "[{}]", "[\"x\"]", "{\"a\":\"b\"}",
            "{\"a\":1}", "{\"terminated\":{\"exitCode\":1}}");

    /** The fields PlainPods reads, from the pod down; {@code *} is any key or index. */
    private static final List<String> READ = List.of("/kind", "/apiVersion",
            "/metadata/name", "/metadata/namespace", "/metadata/uid", "/metadata/resourceVersion",
            "/metadata/creationTimestamp", "/metadata/deletionTimestamp", "/metadata/labels/*", "/metadata/annotations/*",
            "/metadata/ownerReferences/*/apiVersion", "/metadata/ownerReferences/*/kind",
            "/metadata/ownerReferences/*/name", "/metadata/ownerReferences/*/uid", "/metadata/ownerReferences/*/controller",
            "/metadata/managedFields/*/time",
            "/spec/nodeName", "/spec/schedulerName", "/spec/containers/*/name", "/spec/containers/*/image",
            "/spec/containers/*/resources/limits/*", "/spec/containers/*/resources/requests/*",
            "/spec/initContainers/*/name", "/spec/initContainers/*/image",
            "/spec/initContainers/*/resources/limits/*", "/spec/initContainers/*/resources/requests/*",
            "/spec/resourceClaims/*/name", "/spec/resourceClaims/*/resourceClaimName",
            "/spec/resourceClaims/*/resourceClaimTemplateName", "/spec/nodeSelector/*",
            "/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/*/matchExpressions/*/key",
            "/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/*/matchExpressions/*/operator",
            "/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/*/matchExpressions/*/values/*",
            "/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/*/matchFields/*/key",
            "/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/*/matchFields/*/operator",
            "/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/*/matchFields/*/values/*",
            "/spec/tolerations/*/key", "/spec/tolerations/*/operator", "/spec/tolerations/*/value",
            "/spec/tolerations/*/effect", "/status/phase", "/status/reason", "/status/message",
            "/status/conditions/*/type", "/status/conditions/*/status", "/status/conditions/*/reason",
            "/status/conditions/*/message", "/status/conditions/*/lastTransitionTime",
            "/status/containerStatuses/*/name", "/status/containerStatuses/*/restartCount",
            "/status/containerStatuses/*/state/terminated/reason", "/status/containerStatuses/*/state/terminated/message",
            "/status/containerStatuses/*/state/terminated/exitCode", "/status/containerStatuses/*/state/terminated/startedAt",
            "/status/containerStatuses/*/state/terminated/finishedAt", "/status/containerStatuses/*/state/running/startedAt",
            "/status/containerStatuses/*/state/waiting/reason", "/status/containerStatuses/*/state/waiting/message",
            "/status/containerStatuses/*/lastState/terminated/reason",
            "/status/containerStatuses/*/lastState/terminated/message",
            "/status/containerStatuses/*/lastState/terminated/exitCode",
            "/status/containerStatuses/*/lastState/terminated/startedAt",
            "/status/containerStatuses/*/lastState/terminated/finishedAt",
            "/status/containerStatuses/*/lastState/running/startedAt",
            "/status/containerStatuses/*/lastState/waiting/reason",
            "/status/containerStatuses/*/lastState/waiting/message", "/status/initContainerStatuses/*/name",
            "/status/initContainerStatuses/*/restartCount", "/status/initContainerStatuses/*/state/terminated/exitCode",
            "/status/initContainerStatuses/*/state/terminated/reason",
            "/status/initContainerStatuses/*/state/terminated/startedAt",
            "/status/initContainerStatuses/*/state/terminated/finishedAt",
            "/status/resourceClaimStatuses/*/name", "/status/resourceClaimStatuses/*/resourceClaimName");

    /** Whether a value at this path is, or holds, or lies inside a field PlainPods reads. */
    private static boolean read(List<String> path) {
        for (String pattern : READ) {
            String[] steps = pattern.substring(1).split("/");
            boolean matches = true;
            for (int i = 0; i < Math.min(steps.length, path.size()) && matches; i++) {
                matches = steps[i].equals("*") || steps[i].equals(path.get(i));
            }
            if (matches) {
                return true;
            }
        }
        return path.isEmpty();
    }

    private static void paths(JsonNode node, List<String> at, List<List<String>> into) {
        if (node.isObject()) {
            for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
                String name = names.next();
                List<String> path = new ArrayList<>(at);
                path.add(name);
                into.add(path);
                paths(node.get(name), path, into);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                List<String> path = new ArrayList<>(at);
                path.add(String.valueOf(i));
                into.add(path);
                paths(node.get(i), path, into);
            }
        }
    }

    /** The pod with the value at {@code path} replaced by {@code value}, or removed when that is null. */
    private static String replaced(JsonNode pod, List<String> path, JsonNode value) {
        JsonNode copy = pod.deepCopy();
        JsonNode parent = copy;
        for (String step : path.subList(0, path.size() - 1)) {
            parent = parent.isArray() ? parent.get(Integer.parseInt(step)) : parent.get(step);
        }
        String last = path.get(path.size() - 1);
        if (parent instanceof ArrayNode array) {
            if (value == null) {
                array.remove(Integer.parseInt(last));
            } else {
                array.set(Integer.parseInt(last), value);
            }
        } else if (value == null) {
            ((ObjectNode) parent).remove(last);
        } else {
            ((ObjectNode) parent).set(last, value);
        }
        return copy.toString();
    }

    /** The pod's text with the object field at {@code path} named a second time, after its siblings, with {@code value}. */
    private static String namedTwice(JsonNode node, List<String> at, List<String> path, String value) throws IOException {
        if (node.isArray()) {
            List<String> items = new ArrayList<>();
            for (int i = 0; i < node.size(); i++) {
                items.add(namedTwice(node.get(i), with(at, String.valueOf(i)), path, value));
            }
            return "[" + String.join(",", items) + "]";
        }
        if (!node.isObject()) {
            return node.toString();
        }
        List<String> fields = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            fields.add(TREE.writeValueAsString(field.getKey()) + ":" + namedTwice(field.getValue(), with(at, field.getKey()), path, value));
        }
        if (at.equals(path.subList(0, path.size() - 1))) {
            fields.add(TREE.writeValueAsString(path.get(path.size() - 1)) + ":" + value);
        }
        return "{" + String.join(",", fields) + "}";
    }

    private static List<String> with(List<String> at, String step) {
        List<String> path = new ArrayList<>(at);
        path.add(step);
        return path;
    }

    @Test
    void everyValueReplacedRemovedOrNamedTwiceIsBoundAsTheModelBindsItOrDeclined() throws IOException {
        int cases = 0;
        int declined = 0;
        int divergent = 0;
        for (String text : pods()) {
            JsonNode pod = TREE.readTree(text);
            String unchanged = outcome(plain(text));
            List<List<String>> paths = new ArrayList<>();
            paths(pod, List.of(), paths);
            for (List<String> path : paths) {
                List<String> variants = new ArrayList<>();
                variants.add(replaced(pod, path, null));
                for (String value : VALUES) {
                    variants.add(replaced(pod, path, TREE.readTree(value)));
                }
                if (!path.get(path.size() - 1).matches("\\d+")) {
                    for (String value : List.of("\"again\"", "7", "null", "{}", "[{\"name\":\"x\"}]")) {
                        variants.add(namedTwice(pod, List.of(), path, value));
                    }
                }
                for (String variant : variants) {
                    cases++;
                    Pod plain = plain(variant);
                    Pod model = model(variant);
                    String where = String.join("/", path) + " in " + variant;
                    if (plain == null) {
                        declined++;
                        assertTrue(read(path), "a field it does not read cannot decline a pod: " + where);
                    } else if (model == null) {
                        // The accepted difference: a field no translator reads cannot make a pod unreadable.
                        divergent++;
                        assertFalse(read(path), "the model refused what it bound: " + where);
                        assertEquals(unchanged, outcome(plain), where);
                    } else {
                        assertEquals(outcome(model), outcome(plain), where);
                    }
                }
            }
        }
        assertTrue(cases > 10_000, "cases " + cases);
        assertTrue(declined > 1_000 && cases - declined > 10_000, "declined " + declined + " of " + cases);
        assertTrue(divergent > 0, "odd values in fields no translator reads were met");
    }

    @Test
    void whatIsNotOnePodIsDeclined() {
        for (String text : List.of("{}", "[]", "\"Pod\"", "null", PENDING_POD + " {}", PENDING_POD + PENDING_POD)) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            Pod pod = PlainPods.read(JSON, bytes, 0, bytes.length);
            if (text.equals("{}")) {
                assertNotNull(pod, "an empty object is a pod with nothing set, as the model binds it");
                assertEquals(outcome(model("{}")), outcome(pod));
            } else {
                assertNull(pod, text);
            }
        }
    }
}
