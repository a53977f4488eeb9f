package io.gpumeter.collector.governance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.PodSetAssignment;
import io.gpumeter.common.fact.PodSetRequest;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.fact.WorkloadFact;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reduces a Kueue Workload to its queue, requests, admission and condition history. */
final class WorkloadTranslator {

    private WorkloadTranslator() {
    }

    static WorkloadFact translate(JsonNode w, WatchEventType type, Instant observedAt) {
        Meta meta = Meta.of(w, "Workload", true);
        meta.requireCreated("Workload");
        JsonNode spec = w.path("spec");
        JsonNode status = w.path("status");
        List<PodSetRequest> podSets = new ArrayList<>();
        for (JsonNode ps : Json.array(spec, "podSets")) {
            Integer count = Json.integer(ps, "count");
            podSets.add(new PodSetRequest(Json.text(ps, "name"), count == null ? 1 : count,
                    podRequests(ps.path("template").path("spec")),
                    Json.text(ps, "template", "spec", "schedulerName")));
        }
        List<PodSetAssignment> assignments = new ArrayList<>();
        for (JsonNode a : Json.array(status, "admission", "podSetAssignments")) {
            Integer count = Json.integer(a, "count");
            assignments.add(new PodSetAssignment(Json.text(a, "name"), count == null ? 0 : count,
                    Json.strings(a.get("flavors")),
                    Json.quantities(a.get("resourceUsage"), "status.admission.podSetAssignments.resourceUsage")));
        }
        List<AdmissionCheckState> checks = new ArrayList<>();
        for (JsonNode c : Json.array(status, "admissionChecks")) {
            checks.add(new AdmissionCheckState(Json.text(c, "name"), Json.text(c, "state"), Json.text(c, "message"),
                    Json.parseTime(Json.text(c, "lastTransitionTime"), "status.admissionChecks.lastTransitionTime")));
        }
        JsonNode active = spec.get("active");
        return new WorkloadFact(meta.uid(), meta.namespace(), meta.name(), meta.resourceVersion(), type, observedAt,
                Json.text(w, "apiVersion"), meta.createdAt(), meta.deletedAt(), Json.text(spec, "queueName"),
                Json.integer(spec, "priority"), Json.text(spec, "priorityClassName"),
                active == null || active.isNull() ? null : active.asBoolean(true), meta.owner(), podSets,
                Json.text(status, "admission", "clusterQueue"), assignments, Json.conditions(status, "Workload"),
                checks, Json.integer(status, "requeueState", "count"));
    }

    /** Per-pod requests of a pod template: requests, else limits, summed over its containers. */
    static Map<String, BigDecimal> podRequests(JsonNode podSpec) {
        Map<String, BigDecimal> total = new TreeMap<>();
        for (JsonNode c : Json.array(podSpec, "containers")) {
            Map<String, BigDecimal> ask = new TreeMap<>(
                    Json.quantities(c.path("resources").get("limits"), "containers.resources.limits"));
            ask.putAll(Json.quantities(c.path("resources").get("requests"), "containers.resources.requests"));
            ask.forEach((k, v) -> total.merge(k, v, BigDecimal::add));
        }
        total.replaceAll((k, v) -> v.stripTrailingZeros());
        return total;
    }

}
