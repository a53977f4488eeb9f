package io.gpumeter.collector.governance;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.common.fact.PendingPositionFact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a {@code PendingWorkloadsSummary} of Kueue's visibility API (v1beta1 and v1beta2 have the same shape): each
 * pending Workload's place in its ClusterQueue and LocalQueue. An item without a name, a namespace or a
 * non-negative position is skipped with a counted reason; the others still count.
 */
public final class PendingWorkloads {

    /** The positions read, and how many items were skipped for each reason. */
    public record Read(List<PendingPositionFact> positions, Map<String, Integer> skipped) {
    }

    private PendingWorkloads() {
    }

    /**
     * @throws IllegalArgumentException when the body is not a PendingWorkloadsSummary at all
     */
    public static Read parse(String clusterQueue, String body, Instant observedAt) {
        JsonNode summary;
        try {
            summary = Json.MAPPER.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the pending workloads of " + clusterQueue + " are not JSON");
        }
        if (summary == null || !summary.isObject() || !"PendingWorkloadsSummary".equals(Json.text(summary, "kind"))) {
            throw new IllegalArgumentException("the pending workloads of " + clusterQueue + " are not a PendingWorkloadsSummary");
        }
        List<PendingPositionFact> positions = new ArrayList<>();
        Map<String, Integer> skipped = new TreeMap<>();
        for (JsonNode item : Json.array(summary, "items")) {
            String name = Json.text(item, "metadata", "name");
            String namespace = Json.text(item, "metadata", "namespace");
            Integer inClusterQueue = Json.integer(item, "positionInClusterQueue");
            Integer inLocalQueue = Json.integer(item, "positionInLocalQueue");
            String problem = name == null || namespace == null ? "pending workload without name or namespace"
                    : inClusterQueue == null || inClusterQueue < 0 ? "pending workload without a position"
                    : inLocalQueue != null && inLocalQueue < 0 ? "pending workload with a negative position" : null;
            if (problem != null) {
                skipped.merge(problem, 1, Integer::sum);
                continue;
            }
            positions.add(new PendingPositionFact(clusterQueue, namespace, name, Json.text(item, "localQueueName"),
                    Json.integer(item, "priority"), inClusterQueue, inLocalQueue, observedAt));
        }
        return new Read(positions, skipped);
    }
}
