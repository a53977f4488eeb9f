package io.gpumeter.ledger.triage.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.everyItem;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;
import static org.hamcrest.Matchers.startsWith;

/**
 * The ledger's triage over facts sent through its intakes, cluster "tri" (no other test writes there), 2026-03-10,
 * asked at 12:00. Namespaces ml (tenant acme) and other (tenant globex); three nodes of one 81920 MiB card each.
 * <pre>
 * ml/lost   HAMi share of GPU-T1 (gpu-t1) from 09:00; the kernel reports Xid 79 on GPU-T1 at 11:30: FAILED gpu-lost.
 * ml/oomed  HAMi share of 40960 MiB of GPU-T2 (gpu-t2) from 09:00; other/hog a share of 60000 MiB beside it. At 10:21
 *           ml/oomed uses 20000 MiB; at 10:30 30000 MiB while other/hog uses 51000 and the card 81500 of 81920; its
 *           container logs "CUDA out of memory" at 10:30:20: OOM, neighbour-memory-pressure, naming other/hog.
 * ml/lost-wl the admitted Kueue Workload of ml/lost's Job: FAILED gpu-lost through its pod.
 * ml/fine   HAMi share of GPU-T3 (gpu-t3), running: NONE.
 * ml/cpu    a pod asking for no GPU: NONE, saying so.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class TriageResourceTest {

    static final String AT = "2026-03-10T12:00:00Z";

    static String node(String name) {
        String card = "GPU-" + name.substring(4).toUpperCase();
        return """
                {"name":"%s","uid":"u-%s","resourceVersion":"1","type":"ADDED","observedAt":"2026-03-10T00:00:00Z",
                 "labels":{"nvidia.com/gpu.product":"NVIDIA-A100-SXM4-80GB"},
                 "gpus":[{"uuid":"%s","model":"NVIDIA-A100-SXM4-80GB","memoryMib":81920,"cores":100,"splitCount":10}]}
                """.formatted(name, name, card);
    }

    static String share(String uid, String ns, String name, String node, String card, long mib) {
        return """
                {"uid":"%s","namespace":"%s","name":"%s","resourceVersion":"r-%s","type":"MODIFIED","observedAt":"2026-03-10T09:00:01Z",
                 "createdAt":"2026-03-10T08:59:00Z","scheduledAt":"2026-03-10T09:00:00Z","nodeName":"%s","phase":"Running",
                 "schedulerName":"hami-scheduler","allTerminated":false,"owner":{"kind":"Job","name":"%s-job"},
                 "gpuResources":{"nvidia.com/gpu":1,"nvidia.com/gpumem":%d,"nvidia.com/gpucores":50},
                 "vgpus":[{"container":0,"uuid":"%s","type":"NVIDIA","memoryMib":%d,"cores":50}],
                 "hamiBindPhase":"success","hamiNode":"%s"}
                """.formatted(uid, ns, name, uid, node, name, mib, card, mib, node);
    }

    static String status(String uid, String ns, String name, String node, String resources, int restarts, String started) {
        return """
                {"uid":"%s","namespace":"%s","name":"%s","resourceVersion":"s-%s","type":"MODIFIED","observedAt":"2026-03-10T11:59:00Z",
                 "createdAt":"2026-03-10T08:59:00Z","scheduledAt":"2026-03-10T09:00:00Z","nodeName":"%s",
                 "schedulerName":"hami-scheduler","phase":"Running","owner":{"kind":"Job","name":"%s-job"},
                 "gpuResources":%s,"readyChangedAt":"%s",
                 "containers":[{"name":"main","init":false,"restartCount":%d,"state":{"state":"running","startedAt":"%s"},"lastState":null}]}
                """.formatted(uid, ns, name, uid, node, name, resources, started, restarts, started);
    }

    static final String FACTS = "{\"cluster\":\"tri\",\"namespaces\":["
            + "{\"name\":\"ml\",\"uid\":\"tri-ml\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-03-01T00:00:00Z\","
            + "\"labels\":{\"gpumeter.io/tenant\":\"acme\"},\"labelTimes\":{\"gpumeter.io/tenant\":\"2026-03-01T00:00:00Z\"}},"
            + "{\"name\":\"other\",\"uid\":\"tri-other\",\"resourceVersion\":\"2\",\"type\":\"ADDED\",\"observedAt\":\"2026-03-01T00:00:00Z\","
            + "\"labels\":{\"gpumeter.io/tenant\":\"globex\"},\"labelTimes\":{\"gpumeter.io/tenant\":\"2026-03-01T00:00:00Z\"}}],"
            + "\"nodes\":[" + node("gpu-t1") + "," + node("gpu-t2") + "," + node("gpu-t3") + "],"
            + "\"pods\":[" + share("tr-lost", "ml", "lost", "gpu-t1", "GPU-T1", 20480) + ","
            + share("tr-oomed", "ml", "oomed", "gpu-t2", "GPU-T2", 40960) + ","
            + share("tr-hog", "other", "hog", "gpu-t2", "GPU-T2", 60000) + ","
            + share("tr-fine", "ml", "fine", "gpu-t3", "GPU-T3", 20480) + "]}";

    static final String GPU = "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":20480,\"nvidia.com/gpucores\":50}";

    static final String GOVERNANCE = "{\"cluster\":\"tri\",\"podStatuses\":["
            + status("tr-lost", "ml", "lost", "gpu-t1", GPU, 0, "2026-03-10T09:00:30Z") + ","
            + status("tr-oomed", "ml", "oomed", "gpu-t2", GPU, 1, "2026-03-10T10:31:00Z") + ","
            + status("tr-fine", "ml", "fine", "gpu-t3", GPU, 0, "2026-03-10T09:00:30Z") + ","
            + status("tr-cpu", "ml", "cpu", "gpu-t3", "{}", 0, "2026-03-10T09:00:30Z") + "],"
            + "\"workloads\":[{\"uid\":\"tr-wl\",\"namespace\":\"ml\",\"name\":\"lost-wl\",\"resourceVersion\":\"w1\","
            + "\"type\":\"MODIFIED\",\"observedAt\":\"2026-03-10T09:00:00Z\",\"apiVersion\":\"kueue.x-k8s.io/v1beta1\","
            + "\"createdAt\":\"2026-03-10T08:58:00Z\",\"queueName\":\"lq\",\"active\":true,\"owner\":{\"kind\":\"Job\",\"name\":\"lost-job\"},"
            + "\"podSets\":[{\"name\":\"main\",\"count\":1,\"requests\":{\"nvidia.com/gpu\":1}}],\"clusterQueue\":\"cq\","
            + "\"conditions\":[{\"type\":\"QuotaReserved\",\"status\":\"True\",\"reason\":\"QuotaReserved\",\"lastTransitionTime\":\"2026-03-10T08:59:00Z\"},"
            + "{\"type\":\"Admitted\",\"status\":\"True\",\"reason\":\"Admitted\",\"lastTransitionTime\":\"2026-03-10T08:59:00Z\"}]}],"
            + "\"xids\":[{\"node\":\"gpu-t1\",\"pciBusId\":\"0000:3b:00\",\"gpuUuid\":\"GPU-T1\",\"at\":\"2026-03-10T11:30:00Z\","
            + "\"code\":79,\"pid\":0,\"message\":\"GPU has fallen off the bus.\",\"source\":\"kmsg\"}],"
            + "\"logSignals\":[{\"namespace\":\"ml\",\"pod\":\"oomed\",\"container\":\"main\",\"at\":\"2026-03-10T10:30:20Z\","
            + "\"signal\":\"cuda-oom\",\"line\":\"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\"}]}";

    static String sample(String scope, String key, String field, double value, String at) {
        return "{\"gpuUuid\":\"GPU-T2\",\"node\":\"gpu-t2\",\"scope\":\"" + scope + "\",\"scopeKey\":\"" + key
                + "\",\"field\":\"" + field + "\",\"value\":" + value + ",\"at\":\"" + at + "\"}";
    }

    static final String USAGE = "{\"cluster\":\"tri\",\"samples\":[" + String.join(",",
            sample("DEVICE", "", "FB_USED_MIB", 21000, "2026-03-10T10:21:10Z"),
            sample("DEVICE", "", "FB_FREE_MIB", 60920, "2026-03-10T10:21:10Z"),
            sample("CONTAINER", "ml/oomed/main", "VGPU_MEMORY_USED_MIB", 20000, "2026-03-10T10:21:10Z"),
            sample("DEVICE", "", "FB_USED_MIB", 81500, "2026-03-10T10:30:10Z"),
            sample("DEVICE", "", "FB_FREE_MIB", 420, "2026-03-10T10:30:10Z"),
            sample("CONTAINER", "ml/oomed/main", "VGPU_MEMORY_USED_MIB", 30000, "2026-03-10T10:30:10Z"),
            sample("CONTAINER", "other/hog/main", "VGPU_MEMORY_USED_MIB", 51000, "2026-03-10T10:30:10Z")) + "]}";

    private static boolean loaded;

    @Inject
    Pool pool;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        given().contentType(ContentType.JSON).body(FACTS).post("/api/v1/facts").then().statusCode(200);
        given().contentType(ContentType.JSON).body(GOVERNANCE).post("/api/v1/facts/governance").then().statusCode(200);
        given().contentType(ContentType.JSON).body(USAGE).post("/api/v1/usage").then().statusCode(200);
    }

    static ValidatableResponse triage(String... params) {
        Map<String, String> query = new HashMap<>();
        for (int i = 0; i < params.length; i += 2) {
            query.put(params[i], params[i + 1]);
        }
        return given().queryParams(query).get("/api/v1/triage/diagnosis").then();
    }

    @Test
    void aPodWhoseCardFellOffTheBusFailedOnTheDataPlane() {
        triage("namespace", "ml", "pod", "lost", "cluster", "tri", "at", AT).statusCode(200)
                .body("subject.kind", equalTo("POD")).body("subject.uid", equalTo("tr-lost"))
                .body("subject.tenant", equalTo("acme")).body("subject.cluster", equalTo("tri"))
                .body("at", equalTo(AT))
                .body("symptom", equalTo("FAILED")).body("cause", equalTo("gpu-lost")).body("layer", equalTo("data-plane"))
                .body("confidence", equalTo("HIGH")).body("fix", nullValue())
                .body("scope.level", equalTo("NODE"))
                .body("evidence[0].source", equalTo("kernel-log"))
                .body("evidence[0].fact", startsWith("gpu-lost on GPU-T1 of node gpu-t1: Xid 79"))
                .body("evidence[0].command", equalTo(
                        "kubectl debug 'node/gpu-t1' -it --image=busybox -- chroot /host sh -c 'dmesg -T | grep -i xid'"))
                .body("evidence.source", hasItem("allocation"))
                .body("recurrence.last7d", equalTo(1)).body("recurrence.firstSeen", equalTo("2026-03-10T11:30:00Z"))
                .body("named.find { it.name == 'lost' }.tenant", equalTo("acme"));
        // the node itself triages to the same cause, its pods alike
        triage("node", "gpu-t1", "cluster", "tri", "at", AT).statusCode(200)
                .body("subject.kind", equalTo("NODE")).body("subject.tenant", nullValue())
                .body("symptom", equalTo("FAILED")).body("cause", equalTo("gpu-lost"))
                .body("scope.level", equalTo("NODE")).body("scope.alike", contains("ml/lost"));
    }

    @Test
    void anAdmittedWorkloadIsTriagedThroughThePodWhoseIncidentLeads() {
        triage("namespace", "ml", "workload", "lost-wl", "cluster", "tri", "at", AT).statusCode(200)
                .body("subject.kind", equalTo("WORKLOAD")).body("subject.uid", equalTo("tr-wl"))
                .body("subject.tenant", equalTo("acme"))
                .body("symptom", equalTo("FAILED")).body("cause", equalTo("gpu-lost"))
                .body("scope.alike", contains("ml/lost"))
                .body("named.find { it.kind == 'WORKLOAD' }.name", equalTo("lost-wl"));
        given().queryParam("namespace", "ml").queryParam("workload", "lost-wl").queryParam("cluster", "tri")
                .queryParam("at", AT).get("/api/v1/triage/inputs").then().statusCode(200)
                .body("bundle.governance.workloads.name", contains("lost-wl"))
                .body("bundle.governance.podStatuses.uid", everyItem(equalTo("tr-lost")))
                .body("bundle.governance.xids", hasSize(1))
                // a Workload may wait: every pod holding a unit then is the fleet it is judged against
                .body("bundle.facts.pods.uid", hasItem("tr-lost")).body("bundle.facts.pods.uid", hasItem("tr-hog"));
    }

    @Test
    void anOomUnderItsNeighboursPressureNamesTheNeighbourAndItsMemory() {
        triage("pod", "ml/oomed", "cluster", "tri", "at", AT).statusCode(200)
                .body("symptom", equalTo("OOM")).body("cause", equalTo("neighbour-memory-pressure"))
                .body("layer", equalTo("data-plane")).body("confidence", equalTo("HIGH"))
                .body("evidence.fact", hasItem("beside it on GPU-T2 at 2026-03-10T10:30:00Z: other/hog 51000 MiB"))
                .body("evidence.fact", hasItem(
                        "ml/oomed used 30000 MiB on GPU-T2 of its 40960 MiB grant, 20000 MiB at 2026-03-10T10:21:00Z"))
                .body("alternatives.cause", hasItem("oom"))
                .body("alternatives.find { it.cause == 'oom' }.ruledOutBy", startsWith("its own use, 30000 MiB, stayed under"))
                .body("scope.alike", contains("other/hog"))
                .body("named.find { it.name == 'hog' }.tenant", equalTo("globex"))
                .body("named.find { it.name == 'oomed' }.tenant", equalTo("acme"));
    }

    @Test
    void aHealthyPodAndAPodAskingNoGpuAnswerNoneWithWhatWasChecked() {
        triage("namespace", "ml", "pod", "fine", "cluster", "tri", "at", AT).statusCode(200)
                .body("symptom", equalTo("NONE")).body("cause", nullValue()).body("layer", nullValue())
                .body("checked", hasSize(3)).body("recurrence", nullValue())
                .body("evidence[0].fact", startsWith("ml/fine is Running on node gpu-t3"));
        triage("namespace", "ml", "pod", "cpu", "cluster", "tri", "at", AT).statusCode(200)
                .body("symptom", equalTo("NONE"))
                .body("checked[0]", startsWith("ml/cpu requests no GPU"));
    }

    @Test
    void anUnknownSubjectIsA404NamingIt() {
        triage("namespace", "ml", "pod", "ghost", "cluster", "tri").statusCode(404).contentType("application/problem+json")
                .body("field", equalTo("pod")).body("detail", containsString("ml/ghost"));
        triage("node", "gpu-none", "cluster", "tri").statusCode(404).body("field", equalTo("node"))
                .body("detail", containsString("gpu-none"));
        triage("namespace", "ml", "workload", "nothing", "cluster", "tri").statusCode(404).body("field", equalTo("workload"));
        // a pod asked about before it existed
        triage("namespace", "ml", "pod", "fine", "cluster", "tri", "at", "2026-03-01T00:00:00Z").statusCode(404)
                .body("field", equalTo("pod"));
    }

    @Test
    void badInputIsA400NamingTheField() {
        triage("namespace", "ml", "cluster", "tri").statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("pod"));
        triage("namespace", "ml", "pod", "fine", "node", "gpu-t1").statusCode(400).body("field", equalTo("pod"));
        triage("pod", "fine").statusCode(400).body("field", equalTo("namespace"));
        triage("namespace", "ml", "pod", "fine", "at", "noon").statusCode(400).body("field", equalTo("at"));
        triage("namespace", "ml", "service", "chat").statusCode(400).body("field", equalTo("service"))
                .body("detail", containsString("slo-service"));
    }

    @Test
    void aTriageWritesNothing() {
        String counts = """
                SELECT (SELECT count(*) FROM ledger.gov_incident) || '/' || (SELECT count(*) FROM ledger.gov_change) || '/'
                    || (SELECT count(*) FROM ledger.gov_queue_item) || '/' || (SELECT count(*) FROM ledger.allocation_segment)
                    || '/' || (SELECT count(*) FROM ledger.hami_grant_finding) AS c""";
        String before = pool.query(counts).execute().await().indefinitely().iterator().next().getString("c");
        triage("pod", "ml/oomed", "cluster", "tri", "at", AT).statusCode(200);
        triage("pod", "ml/lost", "cluster", "tri", "at", AT).statusCode(200);
        triage("node", "gpu-t2", "cluster", "tri", "at", AT).statusCode(200);
        String after = pool.query(counts).execute().await().indefinitely().iterator().next().getString("c");
        org.junit.jupiter.api.Assertions.assertEquals(before, after);
    }

    /** The inputs with every half's cluster renamed, so that they replay beside the originals. */
    static com.fasterxml.jackson.databind.node.ObjectNode renamed(String inputs, String cluster) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode tree = (com.fasterxml.jackson.databind.node.ObjectNode) json.readTree(inputs);
        tree.put("cluster", cluster);
        for (String half : List.of("facts", "governance")) {
            if (tree.path("bundle").path(half).isObject()) {
                ((com.fasterxml.jackson.databind.node.ObjectNode) tree.path("bundle").path(half)).put("cluster", cluster);
            }
        }
        if (tree.path("usage").isObject()) {
            ((com.fasterxml.jackson.databind.node.ObjectNode) tree.path("usage")).put("cluster", cluster);
        }
        return tree;
    }

    /** Posts the halves as a replay does: the bundle, then the usage. */
    static void replay(com.fasterxml.jackson.databind.node.ObjectNode inputs) {
        given().contentType(ContentType.JSON).body(inputs.path("bundle").toString()).post("/api/v1/facts/bundles")
                .then().statusCode(200);
        if (inputs.path("usage").isObject()) {
            given().contentType(ContentType.JSON).body(inputs.path("usage").toString()).post("/api/v1/usage")
                    .then().statusCode(200);
        }
    }

    @Test
    void theInputsOfATriageReplayIntoAFreshClusterAndTriageToTheSameCause() throws Exception {
        String inputs = given().queryParam("pod", "ml/lost").queryParam("cluster", "tri").queryParam("at", AT)
                .get("/api/v1/triage/inputs").then().statusCode(200)
                .body("cluster", equalTo("tri"))
                .body("bundle.governance.cluster", equalTo("tri"))
                .body("bundle.governance.podStatuses.uid", everyItem(equalTo("tr-lost")))
                .body("bundle.governance.xids.code", contains(79))
                .body("bundle.governance.volcanoJobs", hasSize(0))
                // what its holding was booked from: its version, its node's registration, its namespace's tenant
                .body("bundle.facts.pods.uid", contains("tr-lost"))
                .body("bundle.facts.nodes.name", contains("gpu-t1"))
                .body("bundle.facts.nodes[0].gpus[0].uuid", equalTo("GPU-T1"))
                .body("bundle.facts.namespaces.name", contains("ml"))
                .extract().asString();
        replay(renamed(inputs, "tri-replay"));
        triage("pod", "ml/lost", "cluster", "tri-replay", "at", AT).statusCode(200)
                .body("symptom", equalTo("FAILED")).body("cause", equalTo("gpu-lost")).body("layer", equalTo("data-plane"))
                .body("evidence.source", hasItem("allocation"))
                .body("subject.tenant", equalTo("acme"));
        // a node's inputs are its own facts and the pods held on it then; bad input is refused as the diagnosis refuses it
        given().queryParam("node", "gpu-t1").queryParam("cluster", "tri").queryParam("at", AT).get("/api/v1/triage/inputs")
                .then().statusCode(200).body("bundle.governance.xids", hasSize(1))
                .body("bundle.governance.podStatuses", hasSize(0))
                .body("bundle.facts.pods.uid", contains("tr-lost"));
        given().queryParam("namespace", "ml").queryParam("pod", "ghost").queryParam("cluster", "tri")
                .get("/api/v1/triage/inputs").then().statusCode(404).body("field", equalTo("pod"));
        given().queryParam("namespace", "ml").queryParam("service", "chat").get("/api/v1/triage/inputs").then().statusCode(400)
                .body("field", equalTo("service"));
    }

    /**
     * An OOM under a neighbour's pressure is decided by the card's memory and the neighbour's holding: the inputs
     * carry the neighbour's pod version and the card's memory minutes before the OOM, and replayed they decide it again.
     * Without the usage the same facts leave it undecided, which is what the usage is there for.
     */
    @Test
    void anOomsInputsCarryTheCardsMemoryAndItsNeighboursAndReplayToTheSameCause() throws Exception {
        String inputs = given().queryParam("pod", "ml/oomed").queryParam("cluster", "tri").queryParam("at", AT)
                .get("/api/v1/triage/inputs").then().statusCode(200)
                .body("bundle.facts.pods.uid", contains("tr-hog", "tr-oomed"))
                .body("bundle.facts.nodes.name", contains("gpu-t2"))
                .body("bundle.facts.namespaces.name", contains("ml", "other"))
                .body("usage.cluster", equalTo("tri"))
                .body("usage.samples", hasSize(0))
                // the two minutes of the card's own series and the two pods' HAMi series, each minute one partial
                .body("usage.partials.findAll { it.scope == 'DEVICE' && it.field == 'FB_USED_MIB' }.values.flatten()",
                        contains(21000.0f, 81500.0f))
                .body("usage.partials.findAll { it.scopeKey == 'other/hog/main' }[0].pod", equalTo("hog"))
                .body("usage.partials.findAll { it.scopeKey == 'other/hog/main' }[0].millis", contains(10000))
                .extract().asString();
        com.fasterxml.jackson.databind.node.ObjectNode tree = renamed(inputs, "tri-oom-replay");
        com.fasterxml.jackson.databind.node.ObjectNode withoutUsage = tree.deepCopy();
        withoutUsage.remove("usage");
        replay(renamed(withoutUsage.toString(), "tri-oom-no-usage"));
        triage("pod", "ml/oomed", "cluster", "tri-oom-no-usage", "at", AT).statusCode(200)
                .body("symptom", equalTo("OOM")).body("cause", equalTo("cuda-oom"));
        replay(tree);
        triage("pod", "ml/oomed", "cluster", "tri-oom-replay", "at", AT).statusCode(200)
                .body("symptom", equalTo("OOM")).body("cause", equalTo("neighbour-memory-pressure"))
                .body("evidence.fact", hasItem("beside it on GPU-T2 at 2026-03-10T10:30:00Z: other/hog 51000 MiB"))
                .body("named.find { it.name == 'hog' }.tenant", equalTo("globex"));
    }

    @Test
    void everyCommandIsQuotedWordsAndEveryAnswerCarriesItsChangesAsAList() {
        for (String pod : List.of("lost", "oomed", "fine")) {
            triage("namespace", "ml", "pod", pod, "cluster", "tri", "at", AT).statusCode(200)
                    .body("changes", notNullValue())
                    .body("evidence.command.findAll { it != null }", everyItem(startsWith("kubectl ")));
        }
    }
}
