package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The verdict's risks and the recommended actions: alert-service's runbook steps for the figure at fault, the capacity
 * model's commitment for the cell at fault, and a fixed remedy where no runbook entry watches the figure.
 */
public final class Advice {

    private static final Map<String, String> REMEDY = Map.ofEntries(
            Map.entry("P50", "Compare the cell's latency with the dedicated baseline (GET /api/v1/interference) and"
                    + " move the workload to MIG or a dedicated card if its neighbours account for it"),
            Map.entry("P95", "Cap the neighbours per card (HAMi gpucores/gpumem) or move the workload to a MIG"
                    + " instance; check the jitter events' suspects (GET /api/v1/jitter-events)"),
            Map.entry("P99", "Cap the neighbours per card (HAMi gpucores/gpumem) or move the workload to a MIG"
                    + " instance; check the jitter events' suspects (GET /api/v1/jitter-events)"),
            Map.entry("MAX", "Look for cold starts and evictions around the worst minute in the curve CSV"),
            Map.entry("INTERFERENCE_FACTOR", "Lower the number of shared pods per card, or give the workload strong"
                    + " isolation (MIG) as the capacity model's commitment for this form suggests"),
            Map.entry("THROUGHPUT", "Size the commitment to the deliverable throughput per GPU in commitments.csv"),
            Map.entry("TOKENS_PER_S", "Size the commitment to the deliverable throughput per GPU in commitments.csv;"
                    + " check the engine's KV-cache usage (GET /api/v1/engine-gauges) for preemptions"),
            Map.entry("FAILURE_RATE", "Read the failures and incidents of the window (GET /api/v1/failures) and the"
                    + " runbook's entry for their cause"),
            Map.entry("COLD_START", "Shorten the pods' start-up: pre-pull the image on the GPU nodes, load the model"
                    + " from a node-local cache, keep a warm replica; the pod's trail (GET /api/v1/scheduling-decisions)"
                    + " shows how long it waited before it ran"),
            Map.entry("P99_SPREAD", "Find the minutes the p99 jumped in the curve CSV and the jitter events' ranked"
                    + " suspects then (GET /api/v1/jitter-events); cap or move the neighbour they name"),
            Map.entry("JITTER_EVENT_RATE", "Open the jitter events' ranked suspects (GET /api/v1/jitter-events/{id}) and"
                    + " cap or move the neighbour, or give the workload a MIG instance"),
            Map.entry("MTTR", "Read the cell's incidents in the curve CSV and the runbook's entry for their cause;"
                    + " shorten recovery with a readiness probe and a restart back-off that fit the model's load time"),
            Map.entry("FRAGMENTATION", "Bin-pack shared workloads onto fewer cards, or repartition MIG to the shapes"
                    + " demanded (GET /api/v1/fragmentation)"),
            Map.entry("QUEUE_WAIT_P50", "Raise the ClusterQueue's nominal quota or borrowing limit, or commit a"
                    + " longer queue-wait ceiling"),
            Map.entry("QUEUE_WAIT_P95", "Raise the ClusterQueue's nominal quota or borrowing limit, or commit a"
                    + " longer queue-wait ceiling"),
            Map.entry("USED_ALLOCATED", "Right-size the requests (idle GPU-hours in GET /api/v1/idle) or share the"
                    + " cards through HAMi"),
            Map.entry("TOKENS_PER_JOULE", "Read each pod's tokens and joules in the curve CSV: a card that draws power"
                    + " while the engine waits spends its energy on nothing — find what held it back (GET /api/v1/idle,"
                    + " allocatedNotBusyBy), look for power caps and thermal slowdowns on its cards (GET"
                    + " /api/v1/gpus/{uuid}/throttling), or share the card (HAMi, MIG) so its energy does work"),
            Map.entry("BLOCKED", "Enforce the quota at admission: a Kueue LocalQueue for the namespace and a"
                    + " ClusterQueue whose nominal quota covers the tenant's share only"));

    /** A shared cell whose interference factor exceeds this is a risk even when no clause bounds it. */
    static final double INTERFERENCE_RISK = 1.5;

    private Advice() {
    }

    public static List<String> risks(List<Run.Outcome> outcomes, List<Run.MatrixRow> matrix) {
        List<String> risks = new ArrayList<>();
        for (Run.Outcome o : outcomes) {
            if (Run.FAIL.equals(o.verdict())) {
                risks.add("Failed: " + o.name() + " — " + o.statement());
            } else if (Run.NO_DATA.equals(o.verdict())) {
                risks.add("Unverified: " + o.name() + " — " + o.statement());
            }
        }
        for (Run.MatrixRow r : matrix) {
            if ("INTERFERENCE_FACTOR".equals(r.metric()) && r.value() != null
                    && r.value().doubleValue() > INTERFERENCE_RISK) {
                risks.add("Interference factor " + r.value().toPlainString() + "x on " + r.form() + " (" + r.cell()
                        + ") is above " + INTERFERENCE_RISK + "x");
            }
        }
        return List.copyOf(risks);
    }

    /**
     * The runbook entries (alert-service's alerts) whose manual steps answer a failing figure; a figure without one
     * falls back to the fixed remedy above.
     */
    static final Map<String, List<String>> RUNBOOK = Map.ofEntries(
            Map.entry("P50", List.of("InferenceLatencyP99High")),
            Map.entry("P95", List.of("InferenceLatencyP99High", "SloErrorBudgetFastBurn")),
            Map.entry("P99", List.of("InferenceLatencyP99High", "SloErrorBudgetFastBurn")),
            Map.entry("MAX", List.of("InferenceLatencyP99High")),
            Map.entry("INTERFERENCE_FACTOR", List.of("InferenceLatencyP99High", "GpuDramBandwidthSaturated")),
            Map.entry("FAILURE_RATE", List.of("GpuWorkloadOom", "GpuDriverXid")),
            Map.entry("MTTR", List.of("GpuWorkloadOom", "GpuDriverXid")),
            Map.entry("P99_SPREAD", List.of("InferenceLatencyP99High")),
            Map.entry("JITTER_EVENT_RATE", List.of("InferenceLatencyP99High", "SloErrorBudgetFastBurn")),
            Map.entry("USED_ALLOCATED", List.of("GpuAllocationIdle")),
            Map.entry("IDLE_COST", List.of("GpuAllocationIdle")),
            Map.entry("USED_COST", List.of("GpuAllocationIdle")),
            Map.entry("ALLOCATED_COST", List.of("BudgetForecastOverrun", "CostAnomaly")),
            Map.entry("BLOCKED", List.of("GpuQuotaHardViolation")));

    /**
     * What to do: for each failing figure, the runbook's steps for the alerts that watch it (or the fixed remedy where
     * none does), then the capacity model's commitment for each failing cell. Without alert-service's runbook the
     * runbook's steps are left out and a note says why; the run is computed all the same.
     */
    public static List<String> actions(List<Run.Outcome> outcomes, List<Run.MatrixRow> matrix,
                                       List<Run.Commitment> commitments, LedgerReads.Read<JsonNode> runbook) {
        Map<String, JsonNode> entries = entries(runbook);
        Set<String> actions = new LinkedHashSet<>();
        Set<String> failingCells = new LinkedHashSet<>();
        List<String> keys = new ArrayList<>();
        for (Run.Outcome o : outcomes) {
            String key = o.metric() == null ? o.kind() : o.metric();
            if (Run.FAIL.equals(o.verdict())) {
                keys.add(key);
                if (o.cell() != null) {
                    failingCells.add(o.cell());
                }
            } else if (Run.NO_DATA.equals(o.verdict())) {
                actions.add("Rerun with data for " + o.name() + (o.cell() == null ? "" : " (cell " + o.cell() + ")")
                        + ": its cell's pods must report latency and be known to the ledger");
            }
        }
        if (matrix.stream().anyMatch(r -> "INTERFERENCE_FACTOR".equals(r.metric()) && r.value() != null
                && r.value().doubleValue() > INTERFERENCE_RISK)) {
            keys.add("INTERFERENCE_FACTOR");
        }
        for (String key : keys) {
            List<String> alerts = RUNBOOK.getOrDefault(key, List.of());
            if (alerts.isEmpty()) {
                actions.add(REMEDY.getOrDefault(key, "Review the failing " + key + " clause"));
            } else if (entries != null) {
                alerts.stream().map(entries::get).filter(java.util.Objects::nonNull).map(Advice::fromRunbook)
                        .forEach(actions::add);
            }
        }
        for (Run.Commitment c : commitments) {
            if (failingCells.contains(c.cell()) && c.committedPerGpu() != null) {
                actions.add("Capacity model: commit at most " + c.committedPerGpu().toPlainString()
                        + " requests/s per GPU for " + c.workload() + " under " + c.form() + " (measured "
                        + c.throughputPerGpu().toPlainString() + ", less jitter, failure and peak margins)"
                        + (c.degradesFirst() == null ? "" : "; " + c.degradesFirst() + " gives first"));
            }
        }
        if (entries == null && !keys.isEmpty()) {
            actions.add("Runbook actions are not listed: alert-service's runbook could not be read ("
                    + (runbook == null ? "not asked" : runbook.call().response()) + "); see GET /api/v1/runbook"
                    + " of alert-service once it answers");
        }
        return List.copyOf(actions);
    }

    /** "Alert (runbook; who): step; step — automatic: action (mode)" from one runbook entry. */
    static String fromRunbook(JsonNode entry) {
        List<String> manual = new ArrayList<>();
        entry.path("manual").forEach(m -> manual.add(m.asText()));
        List<String> automatic = new ArrayList<>();
        entry.path("actions").forEach(a -> automatic.add(a.path("action").asText() + " ("
                + a.path("mode").asText("dry-run") + ")"));
        String who = entry.path("who").asText("");
        return entry.path("alertname").asText() + " (runbook" + (who.isEmpty() ? "" : "; " + who) + "): "
                + (manual.isEmpty() ? entry.path("meaning").asText("") : String.join("; ", manual))
                + (automatic.isEmpty() ? "" : " — automatic: " + String.join(", ", automatic));
    }

    /** The runbook's entries by alert name, or null when alert-service gave no runbook. */
    static Map<String, JsonNode> entries(LedgerReads.Read<JsonNode> runbook) {
        if (runbook == null || runbook.answer() == null || !runbook.answer().isArray()) {
            return null;
        }
        Map<String, JsonNode> out = new java.util.HashMap<>();
        runbook.answer().forEach(e -> out.put(e.path("alertname").asText(""), e));
        return out;
    }
}
