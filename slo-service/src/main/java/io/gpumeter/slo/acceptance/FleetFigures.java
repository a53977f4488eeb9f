package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.List;

/**
 * The fleet-wide answers a run reads once for all its cells: queue waits by ClusterQueue and by tenant,
 * GPU-hours by pod, billing's cost by namespace, alert-service's runbook, fragmentation at the window's end, and what was pending when each blocked
 * clause is checked. Each is null when it was not needed or the ledger gave no answer.
 */
public final class FleetFigures {

    LedgerReads.Read<JsonNode> waitByClusterQueue;
    LedgerReads.Read<JsonNode> waitByTenant;
    /** Each pod's own allocated and used GPU-hours per GPU model (groups "pod" = "namespace/pod", and "model"). */
    LedgerReads.Read<JsonNode> hoursByPod;
    /** billing-service's cost of the window per namespace, with its price per GPU-hour ({@code rate}). */
    LedgerReads.Read<JsonNode> costsByNamespace;
    /** alert-service's runbook entries, which the recommended actions are drawn from. */
    LedgerReads.Read<JsonNode> runbook;
    LedgerReads.Read<JsonNode> fragmentation;
    /** The fleet's supply and demand over the window: the commitments' failures and peaks margins. */
    LedgerReads.Read<io.gpumeter.slo.client.Supply> supply;
    LedgerReads.Read<io.gpumeter.slo.client.Demand> demand;
    final java.util.Map<java.time.Instant, LedgerReads.Read<JsonNode>> pending = new java.util.TreeMap<>();
    /**
     * For a cell with no DEDICATED cell of its workload in the plan, slo-service's own interference factor of its
     * service (its worst shared bucket against its own dedicated minutes), by cell, with the read as evidence.
     */
    final java.util.Map<String, LedgerReads.Read<Double>> interference = new java.util.TreeMap<>();

    /** The row of a grouped ledger list whose key is {@code key}, or null. */
    static JsonNode row(LedgerReads.Read<JsonNode> read, String key) {
        if (read == null || read.answer() == null || !read.answer().isArray()) {
            return null;
        }
        for (JsonNode row : read.answer()) {
            if (key.equals(row.path("key").asText(null))) {
                return row;
            }
        }
        return null;
    }

    /** The rows of a list grouped by pod (and more) whose pod is {@code pod} ("namespace/pod"). */
    static List<JsonNode> podRows(LedgerReads.Read<JsonNode> read, String pod) {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode row : rows(read)) {
            if (pod.equals(row.path("group").path("pod").asText(null))) {
                out.add(row);
            }
        }
        return out;
    }

    /** A number field of a row, or null when the row or the field is missing. */
    static Double number(JsonNode row, String field) {
        if (row == null || !row.path(field).isNumber()) {
            return null;
        }
        return row.path(field).asDouble();
    }

    static List<JsonNode> rows(LedgerReads.Read<JsonNode> read) {
        List<JsonNode> out = new ArrayList<>();
        if (read != null && read.answer() != null && read.answer().isArray()) {
            read.answer().forEach(out::add);
        }
        return out;
    }
}
