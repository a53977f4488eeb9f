package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tenant mallory writes its own namespaced objects with hostile values in every field the collector reads —
 * annotations, labels, owner references, schedulerName, nodeName, container names and resources, claim specs and
 * statuses, Workload and PodGroup fields, events — at creation and, for the pod's fields, patched after HAMi bound it.
 * Each variant runs in a cluster, namespaces and tenants of its own beside the same objects of tenant victimco, and
 * victimco's books — who holds its card (Q1), its pod's holdings, its allocated, used and idle hours, its monthly bill
 * — must be byte-identical, names aside, to the run where mallory's objects are honest. Each variant must also have
 * been read: its objects stored, not skipped unseen.
 */
@ExtendWith(ForgedObjectsMatrixTest.StartSuite.class)
class ForgedObjectsMatrixTest {

    static final ObjectMapper JSON = new ObjectMapper();
    static final String T0 = "2026-06-10T10:00:00Z";
    static final String AT = "2026-06-10T11:00:00Z";
    static final String FROM = "2026-06-10T00:00:00Z";
    static final String TO = "2026-06-11T00:00:00Z";

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

    /** One variant's names: every name carries its token, so variants never share an object, tenant or card. */
    record World(String token) {
        String cluster() { return "forge-" + token; }
        String victimNs() { return "victim-" + token; }
        String malloryNs() { return "mallory-" + token; }
        String victim() { return "victimco-" + token; }
        String mallory() { return "mallory-" + token; }
        String node() { return "hami-" + token; }
        String cpuNode() { return "cpu-" + token; }
        String draNode() { return "dra-" + token; }
        String card() { return "GPU-V-" + token; }
        String spare() { return "GPU-S-" + token; }
        String draCard() { return "GPU-D-" + token; }
        String victimPodUid() { return "uid-chat-" + token; }
    }

    /**
     * A hostile value: the lines of mallory's objects that replace the honest ones, and the service name mallory's
     * inference pods report their requests under (its model name, or its {@code service} label).
     */
    record Variant(String field, Function<World, List<ObjectNode>> objects, String malloryService) {
        Variant(String field, Function<World, List<ObjectNode>> objects) {
            this(field, objects, "evil-chat");
        }
    }

    static final Map<String, Map<String, String>> BOOKS = new LinkedHashMap<>();
    static final Map<String, JsonPath> ANSWERS = new LinkedHashMap<>();
    static final Map<String, World> WORLDS = new LinkedHashMap<>();

    // ---- objects ----

    static ObjectNode event(String type, ObjectNode object) {
        ObjectNode line = JSON.createObjectNode();
        line.put("type", type);
        line.set("object", object);
        return line;
    }

    static ObjectNode namespace(String name, String tenant, String rv) {
        ObjectNode o = JSON.createObjectNode().put("kind", "Namespace").put("apiVersion", "v1");
        ObjectNode meta = o.putObject("metadata").put("name", name).put("uid", "ns-" + name).put("resourceVersion", rv);
        meta.putObject("labels").put("gpumeter.io/tenant", tenant).put("gpumeter.io/team", tenant + "-team");
        return event("ADDED", o);
    }

    static ObjectNode node(String name, String rv, String... cards) {
        ObjectNode o = JSON.createObjectNode().put("kind", "Node").put("apiVersion", "v1");
        ObjectNode meta = o.putObject("metadata").put("name", name).put("uid", "node-" + name).put("resourceVersion", rv)
                .put("creationTimestamp", "2026-06-01T00:00:00Z");
        if (cards.length > 0) {
            meta.putObject("labels").put("nvidia.com/gpu.product", "NVIDIA-H100-80GB-HBM3")
                    .put("nvidia.com/gpu.memory", "81920");
            ArrayNode register = JSON.createArrayNode();
            for (int i = 0; i < cards.length; i++) {
                register.addObject().put("id", cards[i]).put("index", i).put("count", 10).put("devmem", 81920)
                        .put("devcore", 100).put("type", "NVIDIA-H100-80GB-HBM3").put("numa", 0).put("health", true);
            }
            meta.putObject("annotations").put("hami.io/node-nvidia-register", register.toString());
            o.putObject("status").putObject("capacity").put("nvidia.com/gpu", Integer.toString(cards.length * 10));
        } else {
            meta.putObject("labels").put("kubernetes.io/os", "linux");
        }
        return event("ADDED", o);
    }

    /** A running pod; {@code card} null for one HAMi never placed. */
    static ObjectNode pod(String ns, String name, String uid, String rv, String nodeName, String card, long memory,
                          int cores, Map<String, String> limits) {
        ObjectNode o = JSON.createObjectNode().put("kind", "Pod").put("apiVersion", "v1");
        ObjectNode meta = o.putObject("metadata").put("name", name).put("namespace", ns).put("uid", uid)
                .put("resourceVersion", rv).put("creationTimestamp", "2026-06-10T09:59:00Z");
        meta.putObject("labels").put("app", name);
        ObjectNode annotations = meta.putObject("annotations");
        if (card != null) {
            annotations.put("hami.io/vgpu-devices-allocated", card + ",NVIDIA," + memory + "," + cores + ":;")
                    .put("hami.io/vgpu-devices-to-allocate", ";").put("hami.io/vgpu-node", nodeName)
                    .put("hami.io/bind-phase", "success");
        }
        meta.putArray("ownerReferences").addObject().put("apiVersion", "apps/v1").put("kind", "ReplicaSet")
                .put("name", name + "-5d8f7c").put("uid", "rs-" + uid).put("controller", true);
        ObjectNode spec = o.putObject("spec").put("schedulerName", card == null ? "default-scheduler" : "hami-scheduler")
                .put("nodeName", nodeName);
        ObjectNode container = spec.putArray("containers").addObject().put("name", "main");
        ObjectNode lim = container.putObject("resources").putObject("limits");
        limits.forEach(lim::put);
        ObjectNode status = o.putObject("status").put("phase", "Running");
        status.putArray("conditions").addObject().put("type", "PodScheduled").put("status", "True")
                .put("lastTransitionTime", T0);
        return event("MODIFIED", o);
    }

    static Map<String, String> hami(long memory, int cores) {
        return Map.of("nvidia.com/gpu", "1", "nvidia.com/gpumem", Long.toString(memory),
                "nvidia.com/gpucores", Integer.toString(cores));
    }

    static ObjectNode victimPod(World w) {
        return pod(w.victimNs(), "chat-0", w.victimPodUid(), "20", w.node(), w.card(), 20000, 50, hami(20000, 50));
    }

    /** mallory's honest pod: a HAMi share of the spare card on the same node. */
    static ObjectNode honestPod(World w) {
        return pod(w.malloryNs(), "evil-0", "uid-evil-" + w.token(), "30", w.node(), w.spare(), 10000, 20,
                hami(10000, 20));
    }

    static ObjectNode meta(ObjectNode line) {
        return (ObjectNode) line.get("object").get("metadata");
    }

    static ObjectNode spec(ObjectNode line) {
        return (ObjectNode) line.get("object").get("spec");
    }

    static ObjectNode withVersion(ObjectNode line, String rv) {
        ObjectNode copy = line.deepCopy();
        meta(copy).put("resourceVersion", rv);
        return copy;
    }

    /** The honest pod, then the same pod patched by {@code patch} in a later version, after HAMi bound it. */
    static List<ObjectNode> patchedLater(World w, java.util.function.Consumer<ObjectNode> patch) {
        ObjectNode later = withVersion(honestPod(w), "31");
        patch.accept(later);
        return List.of(honestPod(w), later);
    }

    static List<ObjectNode> atCreation(World w, java.util.function.Consumer<ObjectNode> patch) {
        ObjectNode pod = honestPod(w);
        patch.accept(pod);
        return List.of(pod);
    }

    static ObjectNode annotations(ObjectNode line) {
        return (ObjectNode) meta(line).get("annotations");
    }

    static String grantOn(String card, long memory, int cores) {
        return card + ",NVIDIA," + memory + "," + cores + ":;";
    }

    static ObjectNode workload(World w) {
        ObjectNode o = JSON.createObjectNode().put("kind", "Workload").put("apiVersion", "kueue.x-k8s.io/v1beta1");
        ObjectNode meta = o.putObject("metadata").put("name", "job-chat-0").put("namespace", w.malloryNs())
                .put("uid", "wl-" + w.token()).put("resourceVersion", "40").put("creationTimestamp", T0);
        meta.putObject("labels").put("kueue.x-k8s.io/queue-name", "victim-queue");
        meta.putArray("ownerReferences").addObject().put("apiVersion", "v1").put("kind", "Pod").put("name", "chat-0")
                .put("uid", w.victimPodUid()).put("controller", true);
        ObjectNode spec = o.putObject("spec").put("queueName", "victim-queue").put("priority", 1000000);
        ObjectNode podSet = spec.putArray("podSets").addObject().put("name", "main").put("count", 64);
        podSet.putObject("template").putObject("spec").putArray("containers").addObject().put("name", "main")
                .putObject("resources").putObject("requests").put("nvidia.com/gpu", "64");
        ObjectNode status = o.putObject("status");
        status.putObject("admission").put("clusterQueue", "victim-cq");
        status.putArray("conditions").addObject().put("type", "Admitted").put("status", "True")
                .put("lastTransitionTime", T0).put("reason", "Admitted").put("message", "forged");
        return event("ADDED", o);
    }

    static ObjectNode podGroup(World w) {
        ObjectNode o = JSON.createObjectNode().put("kind", "PodGroup").put("apiVersion", "scheduling.volcano.sh/v1beta1");
        o.putObject("metadata").put("name", "chat").put("namespace", w.malloryNs()).put("uid", "pg-" + w.token())
                .put("resourceVersion", "41").put("creationTimestamp", T0);
        o.putObject("spec").put("minMember", 1000).put("queue", "victim-queue").put("priorityClassName", "system-node-critical")
                .putObject("minResources").put("nvidia.com/gpu", "1000");
        o.putObject("status").put("phase", "Running").put("running", 1000);
        return event("ADDED", o);
    }

    static ObjectNode k8sEvent(World w, String kind, String objectNamespace, String name, String uid, String reason) {
        ObjectNode o = JSON.createObjectNode().put("kind", "Event").put("apiVersion", "v1");
        o.putObject("metadata").put("name", name + ".forged").put("namespace", w.malloryNs())
                .put("uid", "ev-" + reason + "-" + w.token()).put("resourceVersion", "42");
        ObjectNode about = o.putObject("involvedObject").put("kind", kind).put("name", name).put("uid", uid);
        if (objectNamespace != null) {
            about.put("namespace", objectNamespace);
        }
        o.put("reason", reason).put("type", "Warning").put("message", "forged by a tenant")
                .put("firstTimestamp", "2026-06-10T10:30:00Z").put("lastTimestamp", "2026-06-10T10:30:00Z");
        o.putObject("source").put("component", "kubelet");
        return event("ADDED", o);
    }

    static ObjectNode draSlice(World w) {
        ObjectNode o = JSON.createObjectNode().put("kind", "ResourceSlice").put("apiVersion", "resource.k8s.io/v1");
        o.putObject("metadata").put("name", w.draNode() + "-gpu").put("uid", "rs-" + w.token()).put("resourceVersion", "7");
        ObjectNode spec = o.putObject("spec").put("driver", "gpu.nvidia.com").put("nodeName", w.draNode());
        spec.putObject("pool").put("name", w.draNode()).put("generation", 1).put("resourceSliceCount", 1);
        ObjectNode device = spec.putArray("devices").addObject().put("name", "gpu-0");
        ObjectNode attrs = device.putObject("attributes");
        attrs.putObject("type").put("string", "gpu");
        attrs.putObject("uuid").put("string", w.draCard());
        attrs.putObject("productName").put("string", "NVIDIA A100-SXM4-80GB");
        device.putObject("capacity").putObject("memory").put("value", "80Gi");
        return event("ADDED", o);
    }

    /** mallory's claim, allocated a card and reserved — in the stream — for victimco's pod. */
    static ObjectNode forgedClaim(World w, boolean adminAccess) {
        ObjectNode o = JSON.createObjectNode().put("kind", "ResourceClaim").put("apiVersion", "resource.k8s.io/v1");
        o.putObject("metadata").put("name", "chat-0-gpu").put("namespace", w.malloryNs()).put("uid", "claim-" + w.token())
                .put("resourceVersion", "50").put("creationTimestamp", "2026-06-10T09:58:00Z");
        ObjectNode exactly = o.putObject("spec").putObject("devices").putArray("requests").addObject().put("name", "gpu")
                .putObject("exactly").put("deviceClassName", "gpu.nvidia.com").put("allocationMode", "ExactCount")
                .put("count", 1);
        if (adminAccess) {
            exactly.put("adminAccess", true);
        }
        ObjectNode status = o.putObject("status");
        ObjectNode result = status.putObject("allocation").putObject("devices").putArray("results").addObject()
                .put("request", "gpu").put("driver", "gpu.nvidia.com").put("pool", w.draNode()).put("device", "gpu-0");
        if (adminAccess) {
            result.put("adminAccess", true);
        }
        status.putArray("reservedFor").addObject().put("resource", "pods").put("name", "chat-0")
                .put("uid", w.victimPodUid());
        return event("ADDED", o);
    }

    static final List<Variant> VARIANTS = List.of(
            new Variant("honest", w -> List.of(honestPod(w))),
            new Variant("annotation vgpu-devices-allocated names victimco's card",
                    w -> atCreation(w, p -> annotations(p).put("hami.io/vgpu-devices-allocated",
                            grantOn(w.card(), 10000, 20)))),
            new Variant("annotation vgpu-devices-allocated patched to victimco's card after binding",
                    w -> patchedLater(w, p -> annotations(p).put("hami.io/vgpu-devices-allocated",
                            grantOn(w.card(), 10000, 20)))),
            new Variant("annotations on a pod asking no GPU, default scheduler, on victimco's node",
                    w -> List.of(honestPod(w), pod(w.malloryNs(), "evil-1", "uid-evil1-" + w.token(), "32", w.node(),
                            w.card(), 20000, 50, Map.of("cpu", "1")))),
            new Variant("annotations on a pod on a node without GPUs",
                    w -> List.of(honestPod(w), pod(w.malloryNs(), "evil-2", "uid-evil2-" + w.token(), "33",
                            w.cpuNode(), w.card(), 20000, 50, Map.of("cpu", "1")))),
            new Variant("annotations vgpu-node and bind-phase forged, grant larger than asked",
                    w -> atCreation(w, p -> annotations(p).put("hami.io/vgpu-devices-allocated",
                                    grantOn(w.card(), 81920, 100)).put("hami.io/vgpu-node", w.node())
                            .put("hami.io/bind-phase", "success"))),
            new Variant("grant naming victimco's card twice",
                    w -> atCreation(w, p -> annotations(p).put("hami.io/vgpu-devices-allocated",
                            w.card() + ",NVIDIA,10000,20:" + w.card() + ",NVIDIA,10000,20:;"))),
            new Variant("labels name victimco's tenant, team, project and service",
                    w -> patchedLater(w, p -> ((ObjectNode) meta(p).get("labels")).put("gpumeter.io/tenant", w.victim())
                            .put("gpumeter.io/team", w.victim() + "-team").put("gpumeter.io/project", "chat")
                            .put("app", "chat-0").put("service", "chat"))),
            new Variant("owner references name victimco's deployment",
                    w -> atCreation(w, p -> ((ObjectNode) meta(p).get("ownerReferences").get(0))
                            .put("name", "chat-0-5d8f7c").put("uid", "rs-" + w.victimPodUid()))),
            new Variant("schedulerName and nodeName",
                    w -> atCreation(w, p -> spec(p).put("schedulerName", "hami-scheduler\"; DROP TABLE x; --")
                            .put("nodeName", w.node()))),
            new Variant("container names and resources",
                    w -> atCreation(w, p -> {
                        ObjectNode c = (ObjectNode) spec(p).get("containers").get(0);
                        c.put("name", "main");
                        ((ObjectNode) c.get("resources").get("limits")).put("nvidia.com/gpu", "64")
                                .put("nvidia.com/gpumem", "999999999").put("nvidia.com/gpucores", "100");
                        spec(p).putArray("initContainers").addObject().put("name", "chat-0").putObject("resources")
                                .putObject("limits").put("nvidia.com/gpu", "8");
                    })),
            new Variant("a claim of mallory's reserved for victimco's pod",
                    w -> List.of(honestPod(w), node(w.draNode(), "6"), draSlice(w), forgedClaim(w, false))),
            new Variant("an admin-access claim reserved for victimco's pod",
                    w -> List.of(honestPod(w), node(w.draNode(), "6"), draSlice(w), forgedClaim(w, true))),
            new Variant("a pod's resourceClaims naming a claim of victimco's name",
                    w -> atCreation(w, p -> spec(p).putArray("resourceClaims").addObject().put("name", "gpu")
                            .put("resourceClaimName", "chat-0-gpu"))),
            new Variant("a Workload and a PodGroup naming victimco's pod and queues",
                    w -> List.of(honestPod(w), workload(w), podGroup(w))),
            new Variant("events about victimco's pod and node",
                    w -> List.of(honestPod(w), k8sEvent(w, "Pod", w.victimNs(), "chat-0", w.victimPodUid(), "OOMKilling"),
                            k8sEvent(w, "Node", null, w.node(), "node-" + w.node(), "GPULost"))),
            new Variant("vLLM model and service names of victimco's service", w -> List.of(honestPod(w)), "chat"));

    @BeforeAll
    static void runEveryVariant() {
        for (int i = 0; i < VARIANTS.size(); i++) {
            Variant variant = VARIANTS.get(i);
            World w = new World(String.format("v%02d", i));
            List<ObjectNode> lines = new ArrayList<>();
            lines.add(namespace(w.victimNs(), w.victim(), "1"));
            lines.add(namespace(w.malloryNs(), w.mallory(), "2"));
            lines.add(node(w.node(), "3", w.card(), w.spare()));
            lines.add(node(w.cpuNode(), "4"));
            lines.add(victimPod(w));
            lines.addAll(variant.objects().apply(w));
            StringBuilder body = new StringBuilder();
            lines.forEach(l -> body.append(l).append('\n'));
            JsonPath answer = given().contentType("application/x-ndjson").queryParam("cluster", w.cluster())
                    .body(body.toString().getBytes(StandardCharsets.UTF_8))
                    .post(url(Service.COLLECTOR, "/api/v1/ingest/kubernetes")).then().statusCode(200).extract().jsonPath();
            ANSWERS.put(variant.field(), answer);
            WORLDS.put(variant.field(), w);
            pushUsage(w);
            pushLatency(w, variant.malloryService());
        }
        given().queryParam("from", T0).queryParam("to", "2026-06-10T10:30:00Z")
                .post(url(Service.SLO, "/api/v1/jitter-events/detections")).then().statusCode(200);
        for (Variant variant : VARIANTS) {
            BOOKS.put(variant.field(), books(WORLDS.get(variant.field())));
        }
    }

    /**
     * victimco's chat service answers in 100 ms for ten minutes, then 700 ms (a jitter event of its own, the same in
     * every variant) under an SLO of its namespace; mallory's pods report 5 s under the name of {@code service}.
     */
    static void pushLatency(World w, String malloryService) {
        Instant start = Instant.parse(T0);
        List<String> lines = new ArrayList<>();
        for (int m = 0; m < 20; m++) {
            for (int r = 0; r < 10; r++) {
                String ts = start.plusSeconds(60L * m + 5L * r).toString();
                lines.add("{\"service\":\"chat\",\"namespace\":\"" + w.victimNs() + "\",\"pod\":\"chat-0\",\"ts\":\""
                        + ts + "\",\"ttftMs\":" + (m < 10 ? 100 : 700) + ",\"ok\":true}");
                lines.add("{\"service\":\"" + malloryService + "\",\"namespace\":\"" + w.malloryNs()
                        + "\",\"pod\":\"evil-0\",\"ts\":\"" + ts + "\",\"ttftMs\":5000,\"ok\":false}");
            }
        }
        given().contentType("application/x-ndjson").body((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8))
                .post(url(Service.SLO, "/api/v1/ingest/latency")).then().statusCode(200);
        given().contentType("application/json").body("""
                {"name":"chat-ttft-%s","selector":{"service":"chat","namespace":"%s"},"sli":"TTFT",
                 "objective":{"percentile":99,"thresholdMs":300,"per":"MINUTE"},"target":0.99,"window":"P30D"}"""
                .formatted(w.token(), w.victimNs())).post(url(Service.SLO, "/api/v1/slos")).then().statusCode(201);
    }

    /**
     * The victim's card busy at 0.6 SM activity, sampled every ten minutes from 10:05 to 11:55, and HAMi's monitor on
     * the node as a GPU Operator with HAMi runs it: the memory each HAMi container uses, on the card it really uses —
     * the same in every variant, whatever mallory's annotations say.
     */
    static void pushUsage(World w) {
        Instant start = Instant.parse(T0);
        for (int m = 5; m < 120; m += 10) {
            long at = start.plusSeconds(60L * m).toEpochMilli();
            String scrape = "DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"" + w.card() + "\",Hostname=\"" + w.node() + "\"} 0.6 "
                    + at + "\n";
            given().contentType("text/plain").body(scrape).queryParam("node", w.node()).queryParam("cluster", w.cluster())
                    .post(url(Service.COLLECTOR, "/api/v1/ingest/dcgm")).then().statusCode(200);
            String monitor = hamiContainer(w.card(), w.victimNs(), "chat-0", 8e9, at)
                    + hamiContainer(w.spare(), w.malloryNs(), "evil-0", 4e9, at);
            given().contentType("text/plain").body(monitor).queryParam("node", w.node()).queryParam("cluster", w.cluster())
                    .post(url(Service.COLLECTOR, "/api/v1/ingest/hami-monitor")).then().statusCode(200);
        }
    }

    static String hamiContainer(String card, String ns, String pod, double bytes, long at) {
        return "hami_vgpu_memory_used_bytes{deviceuuid=\"" + card + "\",podnamespace=\"" + ns + "\",podname=\"" + pod
                + "\",ctrname=\"main\",vdeviceid=\"0\"} " + bytes + " " + at + "\n";
    }

    /** victimco's books in this world, every name of the world written as the honest world's. */
    static Map<String, String> books(World w) {
        Map<String, String> books = new LinkedHashMap<>();
        books.put("Q1 of victimco's card", given().queryParam("at", AT)
                .get(url(Service.LEDGER, "/api/v1/gpus/" + w.card() + "/occupants")).then().statusCode(200)
                .extract().asString());
        books.put("victimco's pod's holdings", given().queryParam("at", AT).queryParam("cluster", w.cluster())
                .queryParam("namespace", w.victimNs()).queryParam("pod", "chat-0")
                .get(url(Service.LEDGER, "/api/v1/occupants")).then().statusCode(200).extract().asString());
        books.put("victimco's allocated, used and idle hours", given().queryParam("from", FROM).queryParam("to", TO)
                .queryParam("groupBy", "tenant").queryParam("tenant", w.victim())
                .get(url(Service.LEDGER, "/api/v1/gpu-hours")).then().statusCode(200).extract().asString());
        books.put("victimco's bill", given().queryParam("month", "2026-06").queryParam("format", "json")
                .queryParam("tenant", w.victim()).get(url(Service.BILLING, "/api/v1/reports/monthly"))
                .then().statusCode(200).extract().asString());
        books.put("victimco's SLO state", given().queryParam("at", "2026-06-10T10:30:00Z")
                .get(url(Service.SLO, "/api/v1/slos/chat-ttft-" + w.token() + "/status")).then().statusCode(200)
                .extract().asString());
        books.put("victimco's SLO over the window", given().queryParam("from", T0).queryParam("to", "2026-06-10T10:30:00Z")
                .get(url(Service.SLO, "/api/v1/slos/chat-ttft-" + w.token() + "/breakdown")).then().statusCode(200)
                .extract().asString());
        books.put("victimco's jitter events", given().queryParam("from", T0).queryParam("to", "2026-06-10T10:30:00Z")
                .queryParam("service", "chat").queryParam("namespace", w.victimNs())
                .get(url(Service.SLO, "/api/v1/jitter-events")).then().statusCode(200).extract().asString());
        books.replaceAll((k, v) -> normalize(v, w));
        return books;
    }

    /** The answer with this world's token written as the honest world's, and the instants it was computed at dropped. */
    static String normalize(String answer, World w) {
        String named = answer.replace(w.token(), "v00");
        try {
            JsonNode tree = JSON.readTree(named);
            dropVolatile(tree);
            return JSON.writeValueAsString(tree);
        } catch (Exception e) {
            return named;
        }
    }

    /** Fields that say when an answer was made, not what it says. */
    static void dropVolatile(JsonNode node) {
        if (node instanceof ObjectNode o) {
            o.remove(List.of("generatedAt", "asOf", "computedAt", "now", "id", "detectedAt", "updatedAt"));
            o.elements().forEachRemaining(ForgedObjectsMatrixTest::dropVolatile);
        } else if (node instanceof ArrayNode a) {
            a.elements().forEachRemaining(ForgedObjectsMatrixTest::dropVolatile);
        }
    }

    @Test
    void victimcosBooksAreTheSameWhateverMalloryWrites() {
        Map<String, String> honest = BOOKS.get("honest");
        assertTrue(honest.get("Q1 of victimco's card").contains("chat-0"), honest.toString());
        assertTrue(honest.get("victimco's bill").contains("victimco-v00"), honest.toString());
        assertTrue(honest.get("victimco's jitter events").contains("chat"), honest.toString());
        List<String> moved = new ArrayList<>();
        int compared = 0;
        for (Map.Entry<String, Map<String, String>> variant : BOOKS.entrySet()) {
            for (Map.Entry<String, String> book : variant.getValue().entrySet()) {
                compared++;
                if (!book.getValue().equals(honest.get(book.getKey()))) {
                    moved.add(variant.getKey() + " moved " + book.getKey() + ":\n  honest: " + honest.get(book.getKey())
                            + "\n  hostile: " + book.getValue());
                }
            }
        }
        System.out.printf("forged-objects matrix: %d variants, %d books compared, %d moved%n", BOOKS.size() - 1,
                compared - honest.size(), moved.size());
        assertEquals(List.of(), moved);
    }

    @Test
    void everyHostileObjectWasReadNotDroppedUnseen() {
        ANSWERS.forEach((field, answer) -> {
            assertTrue(answer.getInt("accepted") >= 5, field + ": " + answer.prettify());
        });
        Map<String, List<String>> expected = new LinkedHashMap<>();
        expected.put("honest", List.of());
        expected.put("annotation vgpu-devices-allocated names victimco's card", List.of("DEVICE_SEES_OTHER_CARD"));
        expected.put("annotation vgpu-devices-allocated patched to victimco's card after binding",
                List.of("CHANGED_AFTER_BINDING"));
        expected.put("annotations on a pod asking no GPU, default scheduler, on victimco's node",
                List.of("NOT_REQUESTED"));
        expected.put("annotations on a pod on a node without GPUs", List.of("NOT_REQUESTED"));
        expected.put("annotations vgpu-node and bind-phase forged, grant larger than asked",
                List.of("MEMORY_OVER_REQUEST"));
        expected.put("grant naming victimco's card twice", List.of("DEVICE_SEES_OTHER_CARD", "NOT_REQUESTED"));
        int findings = 0;
        for (Map.Entry<String, List<String>> e : expected.entrySet()) {
            World w = WORLDS.get(e.getKey());
            List<String> checks = given().queryParam("from", FROM).queryParam("to", TO)
                    .get(url(Service.LEDGER, "/api/v1/violations")).then().statusCode(200).extract().jsonPath()
                    .<String>getList("findAll { it.kind == 'HAMI_GRANT_UNVERIFIED' && it.cluster == '" + w.cluster()
                            + "' }.resource").stream().sorted().toList();
            assertEquals(e.getValue(), checks, e.getKey());
            findings += checks.size();
        }
        System.out.printf("forged-objects matrix: %d unverified HAMi grants found%n", findings);
        JsonPath events = ANSWERS.get("events about victimco's pod and node");
        assertEquals(2, events.getInt("skippedReasons.\"event in another namespace than its object's\""),
                events.prettify());
    }
}
