package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One of a tenant's pods, Kueue workloads or Volcano pod groups now, as the ledger's
 * {@code GET /api/v1/tenants/{tenant}/workloads} answers it: what it holds (its node and units of cards) or why it
 * waits (its state, wait class and place in its queue), and the query that triages it.
 *
 * @param kind   the ledger's kind: POD, WORKLOAD or POD_GROUP
 * @param triage the triage's query as the ledger names it, e.g. {@code namespace=acme-ml&pod=train-7&cluster=lab}
 */
@TemplateData
@RegisterForReflection
public record TenantWorkload(String kind, String cluster, String namespace, String name, String state, String node,
                             List<Unit> units, String since, String reasonClass, String clusterQueue, String volcanoQueue,
                             Integer positionInClusterQueue, String triage) {

    private static final Set<String> WAITING = Set.of("PENDING", "EVICTED", "INACTIVE");

    /** A unit of a card it holds: a whole card, a MIG instance or a HAMi share. */
    @RegisterForReflection
    public record Unit(String gpuUuid, String kind, String migProfile, BigDecimal fraction, BigDecimal cores, BigDecimal memoryMib) {
    }

    /** PENDING, EVICTED or INACTIVE: it is listed under what waits. */
    public boolean waits() {
        return WAITING.contains(state);
    }

    public String object() {
        return namespace + "/" + name;
    }

    /** The triage's kind of subject: pod, workload or podGroup. */
    public String subjectKind() {
        String k = kind == null ? "pod" : kind.toLowerCase(Locale.ROOT).replace("_", "");
        return switch (k) {
            case "workload" -> "workload";
            case "podgroup" -> "podGroup";
            default -> "pod";
        };
    }

    /** Its triage page: the ledger names the query; built here only for a ledger that does not. */
    public String triageLink() {
        if (triage != null) {
            return "/triage?" + triage;
        }
        return namespace == null || name == null ? null : TriageSubject.link(subjectKind(), namespace, name, cluster, null);
    }

    /** What it holds, or why it waits. */
    public String detail() {
        return waits() ? why() : holds();
    }

    /** e.g. {@code quota, place 2 in team-a-cq}. */
    private String why() {
        List<String> parts = new ArrayList<>();
        parts.add(reasonClass != null ? reasonClass : String.valueOf(state).toLowerCase(Locale.ROOT));
        String queue = clusterQueue != null ? clusterQueue : volcanoQueue;
        if (positionInClusterQueue != null && queue != null) {
            parts.add("place " + positionInClusterQueue + " in " + queue);
        } else if (queue != null) {
            parts.add("in " + queue);
        }
        return String.join(", ", parts);
    }

    /** e.g. {@code gpu-a: GPU-aaaa-0001 vGPU 30 % cores, 8192 MiB}; {@code admitted by team-a-cq} for what holds no card yet. */
    private String holds() {
        List<String> held = new ArrayList<>();
        for (Unit u : units == null ? List.<Unit>of() : units) {
            String unitKind = String.valueOf(u.kind());
            String what = switch (unitKind) {
                case "MIG" -> "MIG " + u.migProfile();
                case "VGPU" -> "vGPU" + (u.cores() != null ? " " + u.cores().toPlainString() + " % cores" : "")
                        + (u.memoryMib() != null ? ", " + u.memoryMib().toPlainString() + " MiB" : "");
                case "WHOLE" -> "whole card";
                default -> unitKind.toLowerCase(Locale.ROOT);
            };
            held.add((u.gpuUuid() != null ? u.gpuUuid() + " " : "") + what
                    + (u.fraction() != null && !unitKind.equals("WHOLE") ? " (" + Format.plain(u.fraction()) + " of a card)" : ""));
        }
        if (held.isEmpty()) {
            return String.valueOf(state).toLowerCase(Locale.ROOT) + (clusterQueue != null ? " by " + clusterQueue : "")
                    + (node != null ? " on " + node : "");
        }
        return (node != null ? node + ": " : "") + String.join("; ", held);
    }
}
