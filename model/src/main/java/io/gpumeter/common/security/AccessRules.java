package io.gpumeter.common.security;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import static io.gpumeter.common.security.Role.ADMIN;
import static io.gpumeter.common.security.Role.INGEST;
import static io.gpumeter.common.security.Role.OPERATOR;
import static io.gpumeter.common.security.Role.READER;
import static io.gpumeter.common.security.Role.SERVICE;
import static io.gpumeter.common.security.Role.TENANT;

/**
 * The one table of who may call what under {@code /api/}, shared by every service; the first matching rule
 * decides. Reads nobody listed fall to "fleet reads"; writes nobody listed are for admins only, so a new endpoint
 * is never open by accident. The README's security matrix is rendered from this table.
 */
public final class AccessRules {

    private static final Set<String> READ = Set.of("GET");
    private static final Set<String> ANY = Set.of();

    public static final List<AccessRule> RULES = List.of(
            new AccessRule("Alertmanager webhook", "alert", Set.of("POST"),
                    List.of("/api/v1/alertmanager/webhook"), Set.of(), null, true),
            // What a node can see of itself; a Kubernetes replay rewrites any pod's history, so it stays with services.
            new AccessRule("Node pushes (dcgm and HAMi usage, nvidia-smi, kernel and container logs, cAdvisor and node-exporter host series)",
                    "collector", Set.of("POST"), List.of("/api/v1/ingest/dcgm", "/api/v1/ingest/hami-monitor",
                            "/api/v1/ingest/nvidia-smi", "/api/v1/ingest/kmsg", "/api/v1/ingest/container-log",
                            "/api/v1/ingest/cadvisor", "/api/v1/ingest/node-exporter"),
                    EnumSet.of(ADMIN, SERVICE, INGEST), null, false),
            new AccessRule("Ingest (Kubernetes replay, latency, engine gauges)", "collector, slo",
                    Set.of("POST"), List.of("/api/v1/ingest/**"), EnumSet.of(ADMIN, SERVICE), null, false),
            new AccessRule("Ledger intake (facts, governance facts, usage rollups, host minutes, live pods)", "ledger",
                    Set.of("POST"), List.of("/api/v1/facts/**", "/api/v1/usage", "/api/v1/host/minutes"),
                    EnumSet.of(ADMIN, SERVICE), null, false),
            new AccessRule("Allocated and used GPU-hours, occupants", "ledger", READ,
                    List.of("/api/v1/gpu-hours", "/api/v1/occupants", "/api/v1/fleet/occupants", "/api/v1/gpus/*/occupants",
                            "/api/v1/nodes/*/occupants"),
                    EnumSet.of(ADMIN, OPERATOR, READER, SERVICE, TENANT), "tenant", false),
            // Reads that name their set in a body; fleet reads like the per-card usage and the pods' placements.
            new AccessRule("Bulk reads (pods' and cards' holdings over a window, cards' usage, pods' and nodes' host minutes, pods' queues, pods' incidents, changes in many scopes)", "ledger", Set.of("POST"),
                    List.of("/api/v1/holdings", "/api/v1/card-holdings", "/api/v1/usage/series", "/api/v1/host/series",
                            "/api/v1/pod-queues", "/api/v1/failures/pod-incidents", "/api/v1/changes/bulk"),
                    EnumSet.of(ADMIN, OPERATOR, READER, SERVICE),
                    null, false),
            // What changed on the fleet's nodes and GPU stack spans every tenant's pods: never a tenant's read.
            new AccessRule("The GPU stack's state and the change book (a node at an instant, changes, a change's impact)",
                    "ledger", READ, List.of("/api/v1/nodes/*/gpu-stack", "/api/v1/changes", "/api/v1/changes/*/impact"),
                    EnumSet.of(ADMIN, OPERATOR, READER, SERVICE), null, false),
            // Every tenant's demand by model, class and service, the capacity plan's input: never a tenant's read.
            new AccessRule("The capacity plan's demand (allocated hours by model, workload class, request shape and service; queue-wait and pending peaks)",
                    "ledger", READ, List.of("/api/v1/demand"), EnumSet.of(ADMIN, OPERATOR, READER, SERVICE), null, false),
            // The supply spans every tenant's cards and nodes, as the card-hours of /api/v1/capacity do: fleet readers only.
            new AccessRule("Fleet supply (per GPU model: card-hours per day, cordoned, failed and usable, request shapes, failures and maintenance)",
                    "ledger", READ, List.of("/api/v1/capacity/supply"), EnumSet.of(ADMIN, OPERATOR, READER, SERVICE), null, false),
            new AccessRule("Reports and costs (monthly, weekly, per bucket, any window)", "billing", READ,
                    List.of("/api/v1/reports/monthly", "/api/v1/reports/weekly", "/api/v1/reports/series", "/api/v1/costs"),
                    EnumSet.of(ADMIN, OPERATOR, READER, SERVICE, TENANT), "tenant", false),
            new AccessRule("A tenant's budget and forecast", "billing", READ,
                    List.of("/api/v1/budgets/*", "/api/v1/budgets/*/forecast"),
                    EnumSet.of(ADMIN, OPERATOR, READER, SERVICE, TENANT), "{3}", false),
            new AccessRule("The SLOs that select a tenant, and their states", "slo", READ,
                    List.of("/api/v1/slos", "/api/v1/slo-states"),
                    EnumSet.of(ADMIN, OPERATOR, READER, SERVICE, TENANT), "tenant", false),
            // A run is computed from every tenant's pods a plan selects, so tenant tokens neither submit nor read runs.
            new AccessRule("Acceptance runs (submitting a plan)", "slo", Set.of("POST"),
                    List.of("/api/v1/acceptance/runs"), EnumSet.of(ADMIN, OPERATOR), null, false),
            // A tenant triages its own pods, workloads and services; the answer names no other tenant's objects.
            new AccessRule("Triage (a pod, workload, pod group, node or service: symptom, cause, evidence, fix)", "alert",
                    READ, List.of("/api/v1/triage"), EnumSet.of(ADMIN, OPERATOR, READER, SERVICE, TENANT), "tenant", false),
            new AccessRule("A tenant's workloads now (what each holds or why it waits)", "ledger", READ,
                    List.of("/api/v1/tenants/*/workloads"), EnumSet.of(ADMIN, OPERATOR, READER, SERVICE, TENANT), "{3}", false),
            // A job is its namespace's: a tenant reads the jobs of the namespaces that are its own when they finished.
            new AccessRule("Volcano Jobs that finished (GPU-hours per job, success rate, retries, queueing)", "ledger",
                    READ, List.of("/api/v1/volcano-jobs"), EnumSet.of(ADMIN, OPERATOR, READER, SERVICE, TENANT), "tenant", false),
            new AccessRule("Reviewing an incident (root cause as decided, prevention items)", "alert", Set.of("POST"),
                    List.of("/api/v1/failures/incidents/*/review"), EnumSet.of(ADMIN, OPERATOR), null, false),
            new AccessRule("Closing a month", "billing", Set.of("POST"),
                    List.of("/api/v1/reports/monthly/*/close"), EnumSet.of(ADMIN), null, false),
            new AccessRule("Operations (rule evaluations, jitter detections, SLOs, rate cards, budgets)",
                    "alert, slo, billing", Set.of("POST", "PUT", "PATCH", "DELETE"),
                    List.of("/api/v1/rules/evaluations", "/api/v1/jitter-events/**", "/api/v1/slos", "/api/v1/slos/**",
                            "/api/v1/rate-cards", "/api/v1/rate-cards/**", "/api/v1/budgets/**"),
                    EnumSet.of(ADMIN, OPERATOR), null, false),
            new AccessRule("Fleet reads (everything else read-only)", "all", READ,
                    List.of("/api/**"), EnumSet.of(ADMIN, OPERATOR, READER, SERVICE), null, false),
            new AccessRule("Any other change", "all", ANY, List.of("/api/**"), EnumSet.of(ADMIN), null, false));

    private AccessRules() {
    }

    /** The rule deciding a request under {@code /api/}; the last rule catches everything. */
    public static AccessRule match(String method, String path) {
        return match(method, AccessRule.segments(path));
    }

    /** The rule deciding a request whose decoded path segments are {@code segments}. */
    public static AccessRule match(String method, String[] segments) {
        for (AccessRule rule : RULES) {
            if (rule.matches(method, segments)) {
                return rule;
            }
        }
        return RULES.get(RULES.size() - 1);
    }

    /** The README's matrix: one row per family, one column per role. */
    public static String markdownMatrix() {
        StringBuilder out = new StringBuilder("| endpoint family | service | methods | paths |");
        for (Role role : Role.values()) {
            out.append(" `").append(role.claim()).append("` |");
        }
        out.append("\n|---|---|---|---|");
        out.append("---|".repeat(Role.values().length)).append('\n');
        for (AccessRule rule : RULES) {
            out.append("| ").append(rule.family()).append(" | ").append(rule.services()).append(" | ")
                    .append(rule.methods().isEmpty() ? "any other" : String.join(", ", rule.methods().stream().sorted().toList()))
                    .append(" | ").append(String.join(" ", rule.paths().stream().map(p -> "`" + p + "`").toList())).append(" |");
            for (Role role : Role.values()) {
                String cell = rule.ownToken() ? "own token" : rule.allows(role)
                        ? (role == TENANT ? "own rows" : "allowed") : "denied";
                out.append(' ').append(cell).append(" |");
            }
            out.append('\n');
        }
        return out.toString();
    }
}
