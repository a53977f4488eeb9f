package io.gpumeter.slo.acceptance;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The verdict's risks and the recommended actions, each drawn from the runbook's remedy for the figure at fault. */
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
            Map.entry("FAILURE_RATE", "Read the failures and incidents of the window (GET /api/v1/failures) and the"
                    + " runbook's entry for their cause"),
            Map.entry("FRAGMENTATION", "Bin-pack shared workloads onto fewer cards, or repartition MIG to the shapes"
                    + " demanded (GET /api/v1/fragmentation)"),
            Map.entry("QUEUE_WAIT_P50", "Raise the ClusterQueue's nominal quota or borrowing limit, or commit a"
                    + " longer queue-wait ceiling"),
            Map.entry("QUEUE_WAIT_P95", "Raise the ClusterQueue's nominal quota or borrowing limit, or commit a"
                    + " longer queue-wait ceiling"),
            Map.entry("USED_ALLOCATED", "Right-size the requests (idle GPU-hours in GET /api/v1/idle) or share the"
                    + " cards through HAMi"),
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

    public static List<String> actions(List<Run.Outcome> outcomes, List<Run.MatrixRow> matrix) {
        Set<String> actions = new LinkedHashSet<>();
        for (Run.Outcome o : outcomes) {
            String key = o.metric() == null ? o.kind() : o.metric();
            if (Run.FAIL.equals(o.verdict())) {
                actions.add(REMEDY.getOrDefault(key, "Review " + o.name()));
            } else if (Run.NO_DATA.equals(o.verdict())) {
                actions.add("Rerun with data for " + o.name() + (o.cell() == null ? "" : " (cell " + o.cell() + ")")
                        + ": its cell's pods must report latency and be known to the ledger");
            }
        }
        if (matrix.stream().anyMatch(r -> "INTERFERENCE_FACTOR".equals(r.metric()) && r.value() != null
                && r.value().doubleValue() > INTERFERENCE_RISK)) {
            actions.add(REMEDY.get("INTERFERENCE_FACTOR"));
        }
        return List.copyOf(actions);
    }
}
