package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One of a tenant's pods, Kueue workloads or Volcano pod groups now, as the ledger's
 * {@code GET /api/v1/tenants/{tenant}/workloads} answers it: what it holds (its node and units of cards) or why it
 * waits (its state, wait class and place in its queue), with its triage a click away.
 *
 * @param kind   the triage's kind of subject: pod, workload or podGroup
 * @param waits  PENDING, EVICTED or INACTIVE: it is listed under what waits
 * @param detail what it holds, or why it waits
 */
@TemplateData
public record TenantWorkload(String kind, String namespace, String name, String cluster, String state, boolean waits,
                             String detail, String since, String triage) {

    private static final Set<String> WAITING = Set.of("PENDING", "EVICTED", "INACTIVE");

    static TenantWorkload of(JsonNode w) {
        String kind = kind(Format.text(w, "kind"));
        String namespace = Format.text(w, "namespace");
        String name = Format.text(w, "name");
        String cluster = Format.text(w, "cluster");
        String state = String.valueOf(Format.text(w, "state"));
        boolean waits = WAITING.contains(state);
        String detail = waits ? why(w) : holds(w);
        // the ledger names the triage's query itself; built here only for a ledger that does not
        String query = Format.text(w, "triage");
        String triage = query != null ? "/triage?" + query
                : namespace == null || name == null ? null : TriageSubject.link(kind, namespace, name, cluster, null);
        return new TenantWorkload(kind, namespace, name, cluster, state, waits, detail, Format.text(w, "since"), triage);
    }

    public String object() {
        return namespace + "/" + name;
    }

    /** The ledger's kind (POD, WORKLOAD, POD_GROUP) as the triage names it. */
    static String kind(String text) {
        String k = text == null ? "pod" : text.toLowerCase(Locale.ROOT).replace("_", "");
        return switch (k) {
            case "workload" -> "workload";
            case "podgroup" -> "podGroup";
            default -> "pod";
        };
    }

    /** e.g. {@code quota, 2nd in team-a-cq}. */
    private static String why(JsonNode w) {
        List<String> parts = new ArrayList<>();
        String reason = Format.text(w, "reasonClass");
        parts.add(reason != null ? reason : String.valueOf(Format.text(w, "state")).toLowerCase(Locale.ROOT));
        String queue = Format.text(w, "clusterQueue") != null ? Format.text(w, "clusterQueue") : Format.text(w, "volcanoQueue");
        if (w.hasNonNull("positionInClusterQueue") && queue != null) {
            parts.add("place " + w.get("positionInClusterQueue").asInt() + " in " + queue);
        } else if (queue != null) {
            parts.add("in " + queue);
        }
        return String.join(", ", parts);
    }

    /** e.g. {@code gpu-a: GPU-aaaa-0001 vGPU 30 % cores, 8192 MiB}; {@code admitted by team-a-cq} for what holds no card yet. */
    private static String holds(JsonNode w) {
        List<String> units = new ArrayList<>();
        for (JsonNode u : w.path("units")) {
            String kind = String.valueOf(Format.text(u, "kind"));
            String what = switch (kind) {
                case "MIG" -> "MIG " + Format.text(u, "migProfile");
                case "VGPU" -> "vGPU" + (u.hasNonNull("cores") ? " " + u.get("cores").asText() + " % cores" : "")
                        + (u.hasNonNull("memoryMib") ? ", " + u.get("memoryMib").asText() + " MiB" : "");
                case "WHOLE" -> "whole card";
                default -> kind.toLowerCase(Locale.ROOT);
            };
            String card = Format.text(u, "gpuUuid");
            BigDecimal fraction = Format.decimalOrNull(u, "fraction");
            units.add((card != null ? card + " " : "") + what
                    + (fraction != null && !kind.equals("WHOLE") ? " (" + fraction.stripTrailingZeros().toPlainString() + " of a card)" : ""));
        }
        String node = Format.text(w, "node");
        if (units.isEmpty()) {
            String queue = Format.text(w, "clusterQueue");
            return String.valueOf(Format.text(w, "state")).toLowerCase(Locale.ROOT) + (queue != null ? " by " + queue : "")
                    + (node != null ? " on " + node : "");
        }
        return (node != null ? node + ": " : "") + String.join("; ", units);
    }
}
