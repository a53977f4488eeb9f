package io.gpumeter.mcp.tools;

import java.util.List;
import java.util.Optional;

import static io.gpumeter.mcp.tools.ToolArg.choice;
import static io.gpumeter.mcp.tools.ToolArg.choices;
import static io.gpumeter.mcp.tools.ToolArg.instant;
import static io.gpumeter.mcp.tools.ToolArg.name;
import static io.gpumeter.mcp.tools.ToolArg.required;

/**
 * Every tool, each named after the REST read it answers from and taking that read's parameters, in the same
 * formats. Who may list and call a tool is the access table's answer for its read ({@link ToolAccess}).
 */
public final class ToolCatalogue {

    private static final ToolArg FROM = required(instant("from", "Start of the window, RFC 3339 (e.g. 2026-11-02T00:00:00Z)."));
    private static final ToolArg TO = required(instant("to", "End of the window, excluded, RFC 3339."));
    private static final ToolArg AT = instant("at", "The instant asked about, RFC 3339; now when left out.");
    private static final ToolArg CLUSTER = name("cluster", "Only this cluster, as the suite names it.");
    private static final ToolArg TENANT = name("tenant", "Only this tenant's rows (a tenant's own token reads its own rows only).");
    private static final ToolArg NAMESPACE = name("namespace", "A Kubernetes namespace.");
    private static final ToolArg NODE = name("node", "A node's name.");

    private static final Optional<String> LIST = Optional.of("");
    private static final Optional<String> ONE = Optional.empty();

    public static final List<ReadTool> TOOLS = List.of(
            new ReadTool("who_holds", "Who holds a GPU card",
                    "Q1: which pods hold a physical GPU (by its UUID) now or at a past instant: each unit (whole card, "
                            + "MIG slice or vGPU share), its pod, namespace, owner, tenant, team and since when.",
                    Backend.LEDGER, "/api/v1/gpus/{uuid}/occupants",
                    List.of(required(name("uuid", "The card's UUID, e.g. GPU-8f2a….")), AT, TENANT), LIST, List.of()),
            new ReadTool("fleet_occupants", "Everyone on the fleet's GPUs",
                    "Q1 for the whole fleet: every unit held at an instant (now by default), optionally on one node, "
                            + "namespace or cluster, with its pod, owner and tenant.",
                    Backend.LEDGER, "/api/v1/fleet/occupants", List.of(AT, NODE, NAMESPACE, CLUSTER, TENANT), LIST, List.of()),
            new ReadTool("tenant_workloads", "A tenant's workloads now",
                    "A tenant's pods and workloads at an instant: what each holds, or why it waits (Pending reason, "
                            + "queue and position). Answers \"why is my job Pending\" for a whole tenant.",
                    Backend.LEDGER, "/api/v1/tenants/{tenant}/workloads",
                    List.of(name("tenant", "The tenant; a tenant's own token may leave it out."), CLUSTER, AT), LIST, List.of()),
            new ReadTool("gpu_hours", "Allocated and used GPU-hours",
                    "Q2/Q9: normalized GPU-hours (whole card, MIG and vGPU on one scale) allocated, used and idle over a "
                            + "window, grouped by ownership or by the cards' dimensions, with energy in kWh.",
                    Backend.LEDGER, "/api/v1/gpu-hours", List.of(FROM, TO,
                    choices("groupBy", "Group by one or more of these, comma-separated (default tenant); day, week or "
                            + "month split the window into buckets.", "tenant", "team", "project", "namespace",
                            "cluster", "model", "node", "owner", "pod", "day", "week", "month"),
                    name("timeZone", "IANA zone for day/week/month seams, e.g. Europe/Berlin; UTC by default."), TENANT),
                    LIST, List.of()),
            new ReadTool("idle", "Why GPUs idle",
                    "Q3: idle time split into no work on the card, work queued waiting, and allocated but not busy "
                            + "(with its host cause: CPU, IO, network or unexplained), per card, node, tenant or pod.",
                    Backend.LEDGER, "/api/v1/idle", List.of(FROM, TO,
                    choice("groupBy", "Group by gpu, node, tenant or pod (default gpu).", "gpu", "node", "tenant", "pod"),
                    CLUSTER), Optional.of("rows"), List.of()),
            new ReadTool("jitter_events", "Latency jitter events",
                    "Q4: p99 jitter events of inference services in a window, each with its service, SLO and suspects; "
                            + "optionally of one service.",
                    Backend.SLO, "/api/v1/jitter-events", List.of(FROM, TO,
                    name("service", "An inference service's name."), NAMESPACE), LIST, List.of()),
            new ReadTool("slo_states", "SLO attainment",
                    "Q5: every SLO with its attainment, error budget left and burn-rate alerts over a window.",
                    Backend.SLO, "/api/v1/slo-states", List.of(FROM, TO, TENANT), LIST, List.of()),
            new ReadTool("queue_wait", "Queue wait distribution",
                    "Q6: queue wait p50/p95/p99 of admitted workloads in a window, per ClusterQueue, LocalQueue, "
                            + "tenant, Volcano queue or scheduler.",
                    Backend.LEDGER, "/api/v1/queue-wait", List.of(FROM, TO,
                    choice("groupBy", "Group by (default clusterQueue).", "clusterQueue", "localQueue", "tenant",
                            "volcanoQueue", "scheduler"), CLUSTER), LIST, List.of()),
            new ReadTool("pending_now", "What waits now",
                    "Q6: every workload and pod waiting at an instant (now by default), how long, in which queue and "
                            + "position, and why.",
                    Backend.LEDGER, "/api/v1/queue-wait/pending", List.of(CLUSTER, AT), LIST, List.of()),
            new ReadTool("failures", "Failure rates and MTTR",
                    "Q8: failure counts, rate and MTTR in a window by cause (OOM, Xid, MIG, start failures, lost GPU), "
                            + "root-cause class, node or tenant.",
                    Backend.LEDGER, "/api/v1/failures", List.of(FROM, TO,
                    choice("groupBy", "Group by (default cause).", "cause", "rootCause", "node", "tenant"), CLUSTER),
                    LIST, List.of()),
            new ReadTool("incidents", "Failure incidents",
                    "Q8: the failure incidents of a window (or, with open=true, every one still open), each with its "
                            + "cause, scope, node, start and recovery.",
                    Backend.LEDGER, "/api/v1/failures/incidents", List.of(instant("from", "Start of the window, RFC 3339."),
                    instant("to", "End of the window, excluded, RFC 3339."),
                    name("cause", "Only incidents of this cause, e.g. XID or OOM."), CLUSTER,
                    ToolArg.of("open", ArgKind.FLAG, "true: every incident still open, whatever its start.")), LIST, List.of()),
            new ReadTool("cost_report", "Cost per tenant, team or project",
                    "Q9: allocated, used and idle cost of any window per group and GPU model, at the rate card's prices.",
                    Backend.BILLING, "/api/v1/costs", List.of(FROM, TO,
                    choice("groupBy", "Group by (default tenant).", "tenant", "team", "project", "namespace"), TENANT),
                    Optional.of("lines"), List.of()),
            new ReadTool("budget_forecasts", "Budget forecasts",
                    "Every tenant's monthly budget, spend so far and the month's forecast, as of an instant.",
                    Backend.BILLING, "/api/v1/budget-forecasts", List.of(
                    ToolArg.of("month", ArgKind.MONTH, "The month, YYYY-MM; the current one when left out."), AT),
                    LIST, List.of()),
            new ReadTool("capacity_plan", "Capacity plan",
                    "Q10: per GPU model and demand shape, the commitment at the SLO, its margins, the cards needed on "
                            + "the horizon's busiest day and the gap to supply.",
                    Backend.SLO, "/api/v1/capacity/plan", List.of(
                    ToolArg.of("horizon", ArgKind.DAYS, "Days ahead to plan for, e.g. 30d (default 30d)."),
                    ToolArg.of("history", ArgKind.DAYS, "Days of history to fit, e.g. 28d."), AT),
                    Optional.of("models"), List.of()),
            new ReadTool("changes", "What changed on the fleet",
                    "The change book: node, label, allocatable, MIG, driver, CUDA, GPU stack and quota changes in a "
                            + "window, optionally of one node or kind.",
                    Backend.LEDGER, "/api/v1/changes", List.of(FROM, TO, CLUSTER, NODE,
                    name("kind", "Only changes of this kind, e.g. DRIVER.")), LIST, List.of()),
            new ReadTool("triage", "Why is it unwell",
                    "Triage one subject — a pod (namespace and pod), workload, pod group, node or inference service: "
                            + "its symptom, layer and cause with confidence, the evidence and the runbook's fix.",
                    Backend.ALERT, "/api/v1/triage", List.of(NAMESPACE,
                    name("pod", "A pod's name (with namespace), or namespace/pod."),
                    name("workload", "A Kueue Workload, namespace/name."),
                    name("podGroup", "A Volcano PodGroup, namespace/name."), NODE,
                    name("service", "An inference service, namespace/name."), CLUSTER, AT, TENANT), ONE,
                    List.of("symptom", "layer", "confidence")));

    private ToolCatalogue() {
    }

    public static Optional<ReadTool> named(String name) {
        return TOOLS.stream().filter(t -> t.name().equals(name)).findFirst();
    }
}
