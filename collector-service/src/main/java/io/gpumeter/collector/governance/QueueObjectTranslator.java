package io.gpumeter.collector.governance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.QuotaLine;
import io.gpumeter.common.fact.WatchEventType;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Reduces ClusterQueues, LocalQueues, ResourceFlavors and Volcano Queues to their quota and occupancy. */
final class QueueObjectTranslator {

    private QueueObjectTranslator() {
    }

    static QueueObjectFact clusterQueue(JsonNode q, WatchEventType type, Instant observedAt) {
        Meta meta = Meta.of(q, "ClusterQueue", false);
        JsonNode spec = q.path("spec");
        JsonNode status = q.path("status");
        Map<String, BigDecimal[]> lines = new HashMap<>();
        Set<String> keys = new TreeSet<>();
        for (JsonNode group : Json.array(spec, "resourceGroups")) {
            for (JsonNode flavor : Json.array(group, "flavors")) {
                for (JsonNode r : Json.array(flavor, "resources")) {
                    String key = Json.text(flavor, "name") + "\u0000" + Json.text(r, "name");
                    keys.add(key);
                    BigDecimal[] v = lines.computeIfAbsent(key, k -> new BigDecimal[6]);
                    v[0] = Json.quantity(r.get("nominalQuota"), "spec.resourceGroups.flavors.resources.nominalQuota");
                    v[1] = Json.quantity(r.get("borrowingLimit"), "spec.resourceGroups.flavors.resources.borrowingLimit");
                    v[2] = Json.quantity(r.get("lendingLimit"), "spec.resourceGroups.flavors.resources.lendingLimit");
                }
            }
        }
        usage(status, "flavorsReservation", 3, lines, keys);
        usage(status, "flavorsUsage", 4, lines, keys);
        List<QuotaLine> quotas = new ArrayList<>();
        for (String key : keys) {
            String[] parts = key.split("\u0000", 2);
            BigDecimal[] v = lines.get(key);
            quotas.add(new QuotaLine(parts[0], parts[1], v[0], v[1], v[2], null, v[3], v[4], v[5]));
        }
        String cohort = Json.text(spec, "cohort");
        return new QueueObjectFact(QueueObjectKind.CLUSTER_QUEUE, "", meta.name(), meta.uid(), meta.resourceVersion(),
                type, observedAt, Json.text(q, "apiVersion"), cohort != null ? cohort : Json.text(spec, "cohortName"),
                null, null, null, Json.integer(status, "pendingWorkloads"), Json.integer(status, "admittedWorkloads"),
                quotas, Json.conditions(status, "ClusterQueue"));
    }

    /** status.flavorsReservation / flavorsUsage: total per flavor and resource, and how much of it is borrowed. */
    private static void usage(JsonNode status, String field, int slot, Map<String, BigDecimal[]> lines, Set<String> keys) {
        for (JsonNode flavor : Json.array(status, field)) {
            for (JsonNode r : Json.array(flavor, "resources")) {
                String key = Json.text(flavor, "name") + "\u0000" + Json.text(r, "name");
                keys.add(key);
                BigDecimal[] v = lines.computeIfAbsent(key, k -> new BigDecimal[6]);
                v[slot] = Json.quantity(r.get("total"), "status." + field + ".resources.total");
                BigDecimal borrowed = Json.quantity(r.get("borrowed"), "status." + field + ".resources.borrowed");
                if (borrowed != null && (v[5] == null || borrowed.compareTo(v[5]) > 0)) {
                    v[5] = borrowed;
                }
            }
        }
    }

    static QueueObjectFact localQueue(JsonNode q, WatchEventType type, Instant observedAt) {
        Meta meta = Meta.of(q, "LocalQueue", true);
        JsonNode status = q.path("status");
        return new QueueObjectFact(QueueObjectKind.LOCAL_QUEUE, meta.namespace(), meta.name(), meta.uid(),
                meta.resourceVersion(), type, observedAt, Json.text(q, "apiVersion"), null,
                Json.text(q, "spec", "clusterQueue"), null, null, Json.integer(status, "pendingWorkloads"),
                Json.integer(status, "admittedWorkloads"), List.of(), Json.conditions(status, "LocalQueue"));
    }

    static QueueObjectFact resourceFlavor(JsonNode f, WatchEventType type, Instant observedAt) {
        Meta meta = Meta.of(f, "ResourceFlavor", false);
        return new QueueObjectFact(QueueObjectKind.RESOURCE_FLAVOR, "", meta.name(), meta.uid(), meta.resourceVersion(),
                type, observedAt, Json.text(f, "apiVersion"), null, null, Json.strings(f.path("spec").get("nodeLabels")),
                null, null, null, List.of(), List.of());
    }

    static QueueObjectFact volcanoQueue(JsonNode q, WatchEventType type, Instant observedAt) {
        Meta meta = Meta.of(q, "Queue", false);
        JsonNode spec = q.path("spec");
        JsonNode status = q.path("status");
        Map<String, BigDecimal> deserved = Json.quantities(spec.get("deserved"), "spec.deserved");
        Map<String, BigDecimal> guarantee = Json.quantities(spec.path("guarantee").get("resource"), "spec.guarantee.resource");
        Map<String, BigDecimal> capability = Json.quantities(spec.get("capability"), "spec.capability");
        Map<String, BigDecimal> allocated = Json.quantities(status.get("allocated"), "status.allocated");
        Set<String> resources = new TreeSet<>(deserved.keySet());
        resources.addAll(guarantee.keySet());
        resources.addAll(capability.keySet());
        resources.addAll(allocated.keySet());
        List<QuotaLine> quotas = new ArrayList<>();
        for (String r : resources) {
            BigDecimal nominal = deserved.containsKey(r) ? deserved.get(r) : guarantee.get(r);
            quotas.add(new QuotaLine(null, r, nominal, null, null, capability.get(r), null, allocated.get(r), null));
        }
        String state = Json.text(status, "state");
        List<ObjectCondition> conditions = state == null ? List.of()
                : List.of(new ObjectCondition("State", state, null, null, null));
        return new QueueObjectFact(QueueObjectKind.VOLCANO_QUEUE, "", meta.name(), meta.uid(), meta.resourceVersion(),
                type, observedAt, Json.text(q, "apiVersion"), Json.text(spec, "parent"), null, null,
                Json.integer(spec, "weight"), Json.integer(status, "pending"), Json.integer(status, "running"),
                quotas, conditions);
    }
}
