package io.gpumeter.slo.acceptance;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * A computed acceptance run, stored once as JSON and answered as stored: the overall verdict, each clause's
 * verdict with its figure and evidence, the matrix of figures by benchmark class, and the commitments drawn from
 * the curves; the recommended actions with the reads they were drawn from (alert-service's runbook).
 */
@RegisterForReflection(targets = {Run.class, Run.CellView.class, Run.Outcome.class, Run.Evidence.class, Run.Call.class,
        Run.PodFact.class, Run.MatrixRow.class, Run.Commitment.class})
public record Run(String name, Instant from, Instant to, String verdict, int passed, int failed, int noData,
                  List<CellView> cells, List<Outcome> assertions, List<MatrixRow> matrix,
                  List<Commitment> commitments, List<String> risks, List<String> actions,
                  List<Call> actionSources) {

    public static final String PASS = "PASS";
    public static final String FAIL = "FAIL";
    public static final String NO_DATA = "NO_DATA";

    /** A cell as planned, with the pods its selector found in the window. */
    public record CellView(String name, String workload, String form, String service, String namespace,
                           String tenant, List<String> pods) {
    }

    /**
     * One clause's verdict: PASS or FAIL only with an observed figure, NO_DATA without one.
     *
     * @param quadrant   PERFORMANCE, STABILITY, EFFICIENCY or GOVERNANCE, as its metric declares
     * @param comparison "<=" when the figure must stay at or under the limit, ">=" when at or above
     */
    public record Outcome(String name, String quadrant, String kind, String metric, String sli, String cell,
                          String baselineCell,
                          String verdict, BigDecimal observed, BigDecimal limit, String comparison, String unit,
                          String statement, Evidence evidence) {
    }

    /**
     * What a reviewer needs to check a verdict again: the reads made (as curl lines, with their answers), the
     * cells' pods and what the ledger holds of them, quotes of what the cluster said, and the curve behind the
     * figure as CSV.
     */
    public record Evidence(List<Call> requests, List<PodFact> pods, List<String> quotes, String curveCsv) {
    }

    /** A read that fed the verdict: a curl line to rerun it, its status and its answer. */
    public record Call(String curl, int status, String response) {
    }

    /** A pod of a cell and one unit it held (node, card, unit, HAMi grant, owner, tenant). */
    public record PodFact(String cell, String namespace, String pod, String node, String gpuUuid, String unitKind,
                          String migProfile, Integer cores, Long memoryMiB, BigDecimal fraction, String ownerKind,
                          String ownerName, String tenant) {
    }

    /** One figure of the matrix: workload × form × metric, in its quadrant and kept in its benchmark class. */
    public record MatrixRow(String quadrant, String benchmarkClass, String workload, String form, String cell,
                            String metric, BigDecimal value, String unit) {
    }

    /**
     * What a workload under a form can be promised per GPU: the measured throughput per GPU, less margins for jitter
     * (share of minutes over twice the latency limit), failures and peaks, with the latency it holds and the
     * figure that degrades first when it is exceeded.
     */
    public record Commitment(String workload, String form, String cell, BigDecimal sloMs, String sloSli,
                             BigDecimal throughputPerGpu, BigDecimal gpus, BigDecimal jitterMargin,
                             BigDecimal failureMargin, BigDecimal peakMargin, BigDecimal committedPerGpu,
                             BigDecimal queueWaitCeilingSeconds, String degradesFirst,
                             io.gpumeter.slo.capacity.CapacityPlan.Margins margins, String policy) {
    }

    /** PASS only when every clause passed; FAIL when any failed; otherwise (some without data) NO_DATA. */
    public static String overall(List<Outcome> outcomes) {
        if (outcomes.stream().anyMatch(o -> FAIL.equals(o.verdict()))) {
            return FAIL;
        }
        if (!outcomes.isEmpty() && outcomes.stream().allMatch(o -> PASS.equals(o.verdict()))) {
            return PASS;
        }
        return NO_DATA;
    }
}
