package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The ledger's change book as the stand-in ledger answers it, worked out from a book of changes the way the ledger's
 * ChangeResource does — the list by window, cluster, node and kinds, ordered and paged with X-Total-Count and Link;
 * the bulk read per scope (a node's scope with its cluster's cluster-wide changes); a change's impact; a node's GPU
 * stack. Each item names its node's pool as the ledger's book does (its pool label at the change, else its card
 * model; null cluster-wide). The shapes are those of the ledger's own resource tests (ChangeBookResourceTest,
 * ChangePoolsResourceTest, ChangeImpactResourceTest); ids are the ledger's (24 hex digits of SHA-256 of the cluster and
 * the row's natural key). Tenant tokens are refused, as the ledger refuses them.
 */
final class ChangeBookStandIn {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One row of the book. */
    record Item(String id, Instant at, String cluster, String node, String pool, String kind, String subject, String before,
                String after, String source, int count) {
    }

    /** The changes and the nodes' card models (cluster/node to model, what their GPU stack says) and card counts. */
    record Book(List<Item> items, Map<String, String> models, Map<String, Integer> cards) {
    }

    /**
     * The lab's book, around the console's other fixtures: the device-plugin rollout crash-looping on gpu-b (its
     * allocatable at 0 for 20 minutes), a MIG reconfiguration of gpu-b with its pending state, a flapping label, a
     * driver upgrade on gpu-a twenty minutes before its Xid 79 (the Failures fixture's open incident), the
     * alert-service's cordon of gpu-a after it (the Alerts fixture's action), and a dcgm-exporter image update on
     * gpu-a during jitter event 42. gpu-a carries a pool label ({@code training}); gpu-b none, its pool its card model.
     */
    private static final String A100 = "NVIDIA-A100-SXM4-80GB";
    static final List<Item> LAB = List.of(
            change("2026-11-20T00:00:00Z", "lab", "gpu-a", "training", "NODE_ADDED", null, null, null, "node status", 1),
            change("2026-11-29T01:00:00Z", "lab", null, null, "QUOTA", "clusterqueue/team-a-cq[default]:nvidia.com/gpu", "nominal=8",
                    "nominal=16", "ClusterQueue team-a-cq", 1),
            change("2026-11-29T03:00:00Z", "lab", null, null, "COMPONENT_VERSION", "device-plugin", "v0.14.5", "v0.15.0",
                    "DaemonSet gpu-operator/nvidia-device-plugin-daemonset", 1),
            change("2026-11-29T03:10:00Z", "lab", "gpu-b", A100, "COMPONENT_HEALTH", "device-plugin", "Ready", "CrashLoopBackOff",
                    "pod gpu-operator/nvidia-device-plugin-daemonset-x7k2p", 1),
            change("2026-11-29T03:10:00Z", "lab", "gpu-b", A100, "GPU_ALLOCATABLE", "nvidia.com/gpu", "2", "0", "node status", 1),
            change("2026-11-29T03:30:00Z", "lab", "gpu-b", A100, "COMPONENT_HEALTH", "device-plugin", "CrashLoopBackOff", "Ready",
                    "pod gpu-operator/nvidia-device-plugin-daemonset-x7k2p", 1),
            change("2026-11-29T03:30:00Z", "lab", "gpu-b", A100, "GPU_ALLOCATABLE", "nvidia.com/gpu", "0", "2", "node status", 1),
            change("2026-11-29T06:00:00Z", "lab", "gpu-b", A100, "MIG_LAYOUT", null, "all-disabled", "all-3g.40gb", "node labels", 1),
            change("2026-11-29T06:00:00Z", "lab", "gpu-b", A100, "NODE_LABEL", "nvidia.com/mig.config.state", null, "pending", "node labels", 1),
            change("2026-11-29T06:02:00Z", "lab", "gpu-b", A100, "NODE_LABEL", "nvidia.com/mig.config.state", "pending", "success", "node labels", 1),
            change("2026-11-30T04:00:00Z", "lab", "gpu-a", "training", "NODE_LABEL", "example.com/flap", "a", "b", "node labels", 5),
            change("2026-11-30T09:40:00Z", "lab", "gpu-a", "training", "CUDA_VERSION", null, "12.4", "12.6", "node labels", 1),
            change("2026-11-30T09:40:00Z", "lab", "gpu-a", "training", "DRIVER_VERSION", null, "550.54.15", "560.35.03", "node labels", 1),
            change("2026-11-30T10:00:30Z", "lab", "gpu-a", "training", "NODE_CORDONED", null, "schedulable", "cordoned",
                    "gpumeter alert-service: cordon (Xid 79)", 1),
            change("2026-11-30T10:15:00Z", "lab", "gpu-a", "training", "COMPONENT_VERSION", "dcgm-exporter", "3.3.5-3.4.0-ubuntu22.04",
                    "3.3.7-3.4.2-ubuntu22.04", "pod gpu-operator/nvidia-dcgm-exporter-9xq2m", 1));
    static final Map<String, String> LAB_MODELS = Map.of("lab/gpu-a", "NVIDIA-H100-80GB-HBM3", "lab/gpu-b", "NVIDIA-A100-SXM4-80GB");
    static final Map<String, Integer> LAB_CARDS = Map.of("lab/gpu-a", 4, "lab/gpu-b", 2);
    static final Book LAB_BOOK = new Book(LAB, LAB_MODELS, LAB_CARDS);

    private static volatile Book book = LAB_BOOK;

    private ChangeBookStandIn() {
    }

    static void use(Book next) {
        book = next;
    }

    static void reset() {
        book = LAB_BOOK;
    }

    static Book current() {
        return book;
    }

    /** A row as the ledger derives it, its id the ledger's. */
    static Item change(String at, String cluster, String node, String pool, String kind, String subject, String before,
                       String after, String source, int count) {
        Instant instant = Instant.parse(at);
        String scope = node != null ? "node/" + node : kind.equals("QUOTA") ? "queue/" + subject : "component/" + subject;
        String key = scope + '\n' + kind + '\n' + Objects.toString(subject, "") + '\n' + instant.truncatedTo(ChronoUnit.MINUTES).getEpochSecond();
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest((cluster + '\n' + key).getBytes(StandardCharsets.UTF_8));
            return new Item(HexFormat.of().formatHex(digest, 0, 12), instant, cluster, node, pool, kind, subject, before, after,
                    source, count);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A cluster of {@code nodes} nodes ({@code gpu-0000} …) in four pools by model, and a busy week from {@code start}:
     * the device-plugin DaemonSet updated, then rolled out node by node with each pod NotReady for a minute; a driver
     * and CUDA upgrade node by node (one every 10 s); the A100 pool reconfigured to MIG (layout, pending, success); the
     * dcgm-exporter image updated everywhere; every 50th node cordoned by alert-service and uncordoned by a person; and
     * two quota changes.
     */
    static Book fleet(int nodes, Instant start) {
        List<Item> items = new ArrayList<>();
        Map<String, String> models = new LinkedHashMap<>();
        Map<String, Integer> cards = new LinkedHashMap<>();
        items.add(item(start.minus(Duration.ofHours(1)), null, null, "COMPONENT_VERSION", "device-plugin", "v0.14.5", "v0.15.0",
                "DaemonSet gpu-operator/nvidia-device-plugin-daemonset", 1));
        items.add(item(start.plus(Duration.ofHours(30)), null, null, "QUOTA", "clusterqueue/training[h100]:nvidia.com/gpu", "nominal=512",
                "nominal=640", "ClusterQueue training", 1));
        items.add(item(start.plus(Duration.ofHours(80)), null, null, "QUOTA", "clusterqueue/batch[a100]:nvidia.com/gpu", "nominal=256",
                "nominal=128", "ClusterQueue batch", 1));
        for (int i = 0; i < nodes; i++) {
            String node = "gpu-%04d".formatted(i);
            String model = model(i, nodes);
            models.put("prod/" + node, model);
            cards.put("prod/" + node, 8);
            Instant dp = start.plusSeconds(5L * i);
            String pod = "pod gpu-operator/nvidia-device-plugin-daemonset-" + Integer.toString(36 * 36 + i, 36);
            items.add(item(dp, node, model, "COMPONENT_VERSION", "device-plugin", "v0.14.5", "v0.15.0", pod, 1));
            items.add(item(dp, node, model, "COMPONENT_HEALTH", "device-plugin", "Ready", "NotReady", pod, 1));
            items.add(item(dp.plusSeconds(60), node, model, "COMPONENT_HEALTH", "device-plugin", "NotReady", "Ready", pod, 1));
            Instant driver = start.plus(Duration.ofDays(1)).plusSeconds(10L * i);
            items.add(item(driver, node, model, "DRIVER_VERSION", null, "550.54.15", "560.35.03", "node labels", 1));
            items.add(item(driver, node, model, "CUDA_VERSION", null, "12.4", "12.6", "node labels", 1));
            items.add(item(start.plus(Duration.ofDays(3)).plusSeconds(3L * i), node, model, "COMPONENT_VERSION", "dcgm-exporter",
                    "3.3.5-3.4.0-ubuntu22.04", "3.3.7-3.4.2-ubuntu22.04", "pod gpu-operator/nvidia-dcgm-exporter-" + i, 1));
            if (model.contains("A100")) {
                Instant mig = start.plus(Duration.ofDays(2)).plusSeconds(20L * i);
                items.add(item(mig, node, model, "MIG_LAYOUT", null, "all-disabled", "all-1g.10gb", "node labels", 1));
                items.add(item(mig, node, model, "NODE_LABEL", "nvidia.com/mig.config.state", null, "pending", "node labels", 1));
                items.add(item(mig.plusSeconds(120), node, model, "NODE_LABEL", "nvidia.com/mig.config.state", "pending", "success", "node labels", 1));
            }
            if (i % 50 == 0) {
                Instant cordon = start.plus(Duration.ofDays(4)).plusSeconds(60L * i);
                items.add(item(cordon, node, model, "NODE_CORDONED", null, "schedulable", "cordoned", "gpumeter alert-service: cordon (Xid 79)", 1));
                items.add(item(cordon.plus(Duration.ofHours(2)), node, model, "NODE_UNCORDONED", null, "cordoned", "schedulable", "node status", 1));
            }
        }
        return new Book(List.copyOf(items), models, cards);
    }

    /** A quarter of the nodes each: H100, A100 (which goes MIG), L40S, A10; no pool labels, so these are the pools. */
    static String model(int i, int nodes) {
        return List.of("NVIDIA-H100-80GB-HBM3", "NVIDIA-A100-SXM4-80GB", "NVIDIA-L40S", "NVIDIA-A10").get(Math.min(3, 4 * i / nodes));
    }

    private static Item item(Instant at, String node, String pool, String kind, String subject, String before, String after,
                             String source, int count) {
        return change(at.toString(), "prod", node, pool, kind, subject, before, after, source, count);
    }

    static void install() {
        StandIn.handle(Backend.LEDGER, "/api/v1/changes(/.*)?", ChangeBookStandIn::changes);
        StandIn.handle(Backend.LEDGER, "/api/v1/nodes/[^/]+/gpu-stack", ChangeBookStandIn::gpuStack);
    }

    // --- the ledger's answers ------------------------------------------------------------------------------------

    private static StandIn.Reply changes(String path, String query, String body, boolean tenant) {
        if (tenant) {
            return StandIn.Reply.problem(403, "Forbidden", "a tenant token may not read fleet-wide figures");
        }
        if (path.equals("/api/v1/changes")) {
            return list(params(query));
        }
        if (path.equals("/api/v1/changes/bulk")) {
            return bulk(body);
        }
        if (path.startsWith("/api/v1/changes/") && path.endsWith("/impact")) {
            return impact(path.substring("/api/v1/changes/".length(), path.length() - "/impact".length()));
        }
        return null;
    }

    /** The ledger's order: at, cluster, node (cluster-wide first), kind, subject, id. */
    static final Comparator<Item> ORDER = Comparator.comparing(Item::at).thenComparing(Item::cluster)
            .thenComparing(Item::node, Comparator.nullsFirst(Comparator.naturalOrder())).thenComparing(Item::kind)
            .thenComparing(Item::subject, Comparator.nullsFirst(Comparator.naturalOrder())).thenComparing(Item::id);

    /** {@code GET /api/v1/changes}: what the ledger's list answers for this query, whole or a page of it. */
    static List<Item> listed(Map<String, List<String>> q) {
        Instant from = Instant.parse(one(q, "from"));
        Instant to = Instant.parse(one(q, "to"));
        Set<String> kinds = kinds(q.getOrDefault("kind", List.of()));
        String cluster = one(q, "cluster");
        String node = one(q, "node");
        return book.items().stream().filter(c -> !c.at().isBefore(from) && c.at().isBefore(to))
                .filter(c -> cluster == null || cluster.equals(c.cluster())).filter(c -> node == null || node.equals(c.node()))
                .filter(c -> kinds.isEmpty() || kinds.contains(c.kind())).sorted(ORDER).toList();
    }

    private static StandIn.Reply list(Map<String, List<String>> q) {
        for (String field : List.of("from", "to")) {
            if (one(q, field) == null) {
                return problem(400, field, field + " is required");
            }
        }
        List<Item> all = listed(q);
        String limit = one(q, "limit");
        String offset = one(q, "offset");
        if (limit == null && offset == null) {
            return StandIn.Reply.json(array(all).toString());
        }
        int l = limit == null ? 10_000 : Integer.parseInt(limit);
        if (l < 1 || l > 10_000) {
            return problem(400, "limit", "limit must be between 1 and 10000");
        }
        int o = offset == null ? 0 : Integer.parseInt(offset);
        int from = Math.min(o, all.size());
        int end = Math.min(from + l, all.size());
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("X-Total-Count", Integer.toString(all.size()));
        if (end < all.size()) {
            headers.put("Link", "<http://ledger/api/v1/changes?offset=" + end + "&limit=" + l + ">; rel=\"next\"");
        }
        return new StandIn.Reply(200, "application/json", array(all.subList(from, end)).toString(), headers);
    }

    private static StandIn.Reply bulk(String body) {
        JsonNode request;
        try {
            request = JSON.readTree(body);
        } catch (IOException e) {
            return problem(400, "scopes", "not JSON");
        }
        ArrayNode out = JSON.createArrayNode();
        int i = 0;
        for (JsonNode s : request.path("scopes")) {
            String at = "scopes[" + i++ + "]";
            String cluster = s.path("cluster").asText(null);
            if (cluster == null) {
                return problem(400, at + ".cluster", at + ".cluster must be a DNS label");
            }
            String node = s.path("node").asText(null);
            String pool = s.path("pool").asText(null);
            Instant from = Instant.parse(s.path("from").asText());
            Instant to = Instant.parse(s.path("to").asText());
            boolean clusterWide = !s.has("clusterWide") || s.path("clusterWide").asBoolean(true);
            int limit = s.path("limit").asInt(1000);
            if (limit < 1 || limit > 1000) {
                return problem(400, at + ".limit", at + ".limit must be between 1 and 1000");
            }
            List<String> kindList = new ArrayList<>();
            s.path("kinds").forEach(k -> kindList.add(k.asText()));
            Set<String> kinds = kinds(kindList);
            List<Item> found = book.items().stream().filter(c -> cluster.equals(c.cluster()))
                    .filter(c -> !c.at().isBefore(from) && c.at().isBefore(to))
                    .filter(c -> node == null || node.equals(c.node()) || (clusterWide && c.node() == null))
                    .filter(c -> kinds.isEmpty() || kinds.contains(c.kind()))
                    .filter(c -> pool == null || pool.equals(c.pool())).sorted(ORDER).toList();
            if (s.path("newestFirst").asBoolean(false)) {
                found = new ArrayList<>(found);
                Collections.reverse(found);
            }
            ObjectNode scope = out.addObject();
            scope.put("cluster", cluster);
            scope.put("node", node);
            scope.put("from", from.toString());
            scope.put("to", to.toString());
            scope.put("total", found.size());
            scope.set("changes", array(found.subList(0, Math.min(limit, found.size()))));
        }
        if (i == 0) {
            return problem(400, "scopes", "scopes must name at least one scope");
        }
        return StandIn.Reply.json(out.toString());
    }

    /**
     * A change's impact: a day on each side over the nodes it touched. The lab's driver upgrade on gpu-a is followed by
     * two Xid 79 (gpu-lost), one recovered after 10 min, over 20 GPU-hours each side; every other change by nothing.
     */
    private static StandIn.Reply impact(String id) {
        Optional<Item> found = book.items().stream().filter(c -> c.id().equals(id)).findFirst();
        if (found.isEmpty()) {
            return problem(404, "id", "no change " + id);
        }
        Item c = found.get();
        List<String> nodes = c.node() != null ? List.of(c.node())
                : book.models().keySet().stream().filter(k -> k.startsWith(c.cluster() + "/")).map(k -> k.substring(c.cluster().length() + 1))
                .sorted().toList();
        boolean upgrade = c.kind().equals("DRIVER_VERSION") && "gpu-a".equals(c.node());
        ObjectNode impact = JSON.createObjectNode();
        ObjectNode change = impact.putObject("change");
        change.put("id", c.id());
        change.put("cluster", c.cluster());
        change.put("scope", c.node() != null ? "node/" + c.node() : "component/" + c.subject());
        change.put("node", c.node());
        change.put("at", c.at().toString());
        change.put("kind", c.kind());
        change.put("subject", c.subject());
        change.put("before", c.before());
        change.put("after", c.after());
        change.put("source", c.source());
        change.put("count", c.count());
        ArrayNode touched = impact.putArray("nodes");
        nodes.forEach(touched::add);
        impact.set("before", side(c.at().minus(Duration.ofDays(1)), c.at(), 20, 12, List.of(), Map.of()));
        impact.set("after", side(c.at(), c.at().plus(Duration.ofDays(1)), 20, 10, upgrade ? List.of("""
                {"key":"gpu-lost","rootCauseClass":"hardware","count":2,"gpuHours":20,"podStarts":10,"ratePer1000GpuHours":100,
                 "ratePerPodStart":0.2,"mttrP50Seconds":600,"mttrMeanSeconds":600,"recovered":1,"open":1}""") : List.of(),
                upgrade ? Map.of("79", 2) : Map.of()));
        return StandIn.Reply.json(impact.toString());
    }

    private static ObjectNode side(Instant from, Instant to, double gpuHours, int podStarts, List<String> causes, Map<String, Integer> xids) {
        ObjectNode side = JSON.createObjectNode();
        side.put("from", from.toString());
        side.put("to", to.toString());
        side.put("gpuHours", gpuHours);
        side.put("podStarts", podStarts);
        int failures = 0;
        ArrayNode byCause = side.putArray("byCause");
        for (String cause : causes) {
            try {
                JsonNode row = JSON.readTree(cause);
                byCause.add(row);
                failures += row.path("count").asInt();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        side.put("failures", failures);
        side.put("ratePer1000GpuHours", failures * 1000 / gpuHours);
        if (failures > 0) {
            side.put("mttrP50Seconds", 600);
            side.put("mttrMeanSeconds", 600);
        } else {
            side.putNull("mttrP50Seconds");
            side.putNull("mttrMeanSeconds");
        }
        ObjectNode x = side.putObject("xids");
        xids.forEach(x::put);
        return side;
    }

    /**
     * {@code GET /api/v1/nodes/{node}/gpu-stack?cluster=&at=}: what the book says the node offered at the instant — its
     * driver and CUDA, cordon, allocatable GPUs and device-plugin pod as their last changes left them.
     */
    private static StandIn.Reply gpuStack(String path, String query, String body, boolean tenant) {
        if (!path.endsWith("/gpu-stack")) {
            return null;
        }
        if (tenant) {
            return StandIn.Reply.problem(403, "Forbidden", "a tenant token may not read fleet-wide figures");
        }
        String node = URLDecoder.decode(path.substring("/api/v1/nodes/".length(), path.length() - "/gpu-stack".length()), StandardCharsets.UTF_8);
        Map<String, List<String>> q = params(query);
        String cluster = one(q, "cluster");
        if (cluster == null) {
            return problem(400, "cluster", "cluster must be a DNS label (lower-case letters, digits and '-', at most 63 characters), got 'null'");
        }
        Instant at = one(q, "at") == null ? Instant.now() : Instant.parse(one(q, "at"));
        Integer cards = book.cards().get(cluster + "/" + node);
        if (cards == null) {
            return problem(404, "node", "node " + node + " of cluster " + cluster + " has no version at or before " + at);
        }
        String driver = last(cluster, node, "DRIVER_VERSION", null, at).orElse("550.54.15");
        String cuda = last(cluster, node, "CUDA_VERSION", null, at).orElse("12.4");
        boolean cordoned = book.items().stream().filter(c -> cluster.equals(c.cluster()) && node.equals(c.node()) && !c.at().isAfter(at))
                .filter(c -> c.kind().equals("NODE_CORDONED") || c.kind().equals("NODE_UNCORDONED")).max(ORDER)
                .map(c -> c.kind().equals("NODE_CORDONED")).orElse(false);
        String allocatable = last(cluster, node, "GPU_ALLOCATABLE", "nvidia.com/gpu", at).orElse(cards.toString());
        String plugin = last(cluster, node, "COMPONENT_HEALTH", "device-plugin", at).orElse("Ready");
        String migConfig = last(cluster, node, "MIG_LAYOUT", null, at).orElse("all-disabled");
        String migState = last(cluster, node, "NODE_LABEL", "nvidia.com/mig.config.state", at).orElse("success");
        String[] d = driver.split("\\.");
        String model = book.models().getOrDefault(cluster + "/" + node, "NVIDIA-A100-SXM4-80GB");
        String stack = """
                {"cluster":"%s","node":"%s","at":"%s","present":true,"statusAt":"2026-11-29T03:30:00Z",
                 "resources":[{"resource":"nvidia.com/gpu","capacity":%d,"allocatable":%s}],
                 "cordoned":%s,"taints":%s,
                 "gpuLabels":{"driverVersion":"%s","cudaVersion":"%s","product":"%s","count":"%d","migConfig":"%s","migConfigState":"%s",
                   "all":{"nvidia.com/cuda.driver.major":"%s","nvidia.com/cuda.driver.minor":"%s","nvidia.com/cuda.driver.rev":"%s",
                          "nvidia.com/gpu.product":"%s","nvidia.com/mig.config":"%s"}},
                 "components":[
                  {"component":"dcgm-exporter","workloads":[{"kind":"DaemonSet","namespace":"gpu-operator","name":"nvidia-dcgm-exporter",
                    "images":["nvcr.io/nvidia/k8s/dcgm-exporter:3.3.7-3.4.2-ubuntu22.04"],"version":"3.3.7-3.4.2-ubuntu22.04"}],
                   "pod":{"state":"Ready","namespace":"gpu-operator","name":"nvidia-dcgm-exporter-9xq2m","ready":true,"restarts":0,
                     "waitingReason":null,"images":["nvcr.io/nvidia/k8s/dcgm-exporter:3.3.7-3.4.2-ubuntu22.04"],
                     "version":"3.3.7-3.4.2-ubuntu22.04","observedAt":"2026-11-30T10:15:00Z"}},
                  {"component":"device-plugin","workloads":[{"kind":"DaemonSet","namespace":"gpu-operator","name":"nvidia-device-plugin-daemonset",
                    "images":["nvcr.io/nvidia/k8s-device-plugin:v0.15.0"],"version":"v0.15.0"}],
                   "pod":{"state":"%s","namespace":"gpu-operator","name":"nvidia-device-plugin-daemonset-x7k2p","ready":%s,"restarts":%d,
                     "waitingReason":%s,"images":["nvcr.io/nvidia/k8s-device-plugin:v0.15.0"],"version":"v0.15.0",
                     "observedAt":"2026-11-29T03:30:00Z"}}],
                 "driverVersions":[]}""".formatted(cluster, node, at, cards, allocatable, cordoned,
                cordoned ? "[{\"key\":\"node.kubernetes.io/unschedulable\",\"value\":null,\"effect\":\"NoSchedule\"}]" : "[]",
                driver, cuda, model, cards, migConfig, migState, d[0], d[1], d[2], model, migConfig, plugin, plugin.equals("Ready"),
                plugin.equals("Ready") ? 0 : 4, plugin.equals("CrashLoopBackOff") ? "\"CrashLoopBackOff\"" : "null");
        return StandIn.Reply.json(stack);
    }

    private static Optional<String> last(String cluster, String node, String kind, String subject, Instant at) {
        return book.items().stream().filter(c -> cluster.equals(c.cluster()) && node.equals(c.node()) && kind.equals(c.kind())
                        && Objects.equals(subject, c.subject()) && !c.at().isAfter(at)).max(ORDER).map(Item::after);
    }

    // --- helpers -------------------------------------------------------------------------------------------------

    static ArrayNode array(List<Item> items) {
        ArrayNode out = JSON.createArrayNode();
        for (Item c : items) {
            ObjectNode o = out.addObject();
            o.put("id", c.id());
            o.put("at", c.at().toString());
            o.put("cluster", c.cluster());
            o.put("node", c.node());
            o.put("pool", c.pool());
            o.put("kind", c.kind());
            o.put("subject", c.subject());
            o.put("before", c.before());
            o.put("after", c.after());
            o.put("source", c.source());
            o.put("count", c.count());
        }
        return out;
    }

    static Map<String, List<String>> params(String query) {
        Map<String, List<String>> out = new LinkedHashMap<>();
        if (query == null) {
            return out;
        }
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String name = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
            String value = eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8);
            out.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
        return out;
    }

    private static String one(Map<String, List<String>> q, String name) {
        List<String> values = q.get(name);
        return values == null || values.isEmpty() || values.get(0).isBlank() ? null : values.get(0);
    }

    private static Set<String> kinds(List<String> values) {
        Set<String> out = new TreeSet<>();
        values.stream().flatMap(v -> Stream.of(v.split(","))).map(String::strip).filter(k -> !k.isEmpty()).forEach(out::add);
        return out;
    }

    private static StandIn.Reply problem(int status, String field, String detail) {
        return new StandIn.Reply(status, "application/problem+json", "{\"type\":\"about:blank\",\"title\":\""
                + (status == 404 ? "Not Found" : "Bad Request") + "\",\"status\":" + status + ",\"detail\":\"" + detail.replace("\"", "'")
                + "\",\"field\":\"" + field + "\"}");
    }
}
