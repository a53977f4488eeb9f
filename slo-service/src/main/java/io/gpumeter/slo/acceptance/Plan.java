package io.gpumeter.slo.acceptance;

import io.gpumeter.slo.domain.Sli;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * An acceptance plan: a window, the cells of the control group (the same workload template under each form of
 * sharing) and the clauses a platform review signs. Built only by {@link PlanReader}, which validates every field.
 */
public record Plan(String name, Instant from, Instant to, List<Cell> cells, List<Clause> assertions) {

    /** How a cell's workload shares its GPUs: the control group's four arms. */
    public enum Form {
        DEDICATED, UNGOVERNED_SHARING, HAMI, MIG
    }

    /** The three clause shapes: a figure against a limit, a figure against a baseline cell's, a pod held back. */
    public enum Kind {
        THRESHOLD, RATIO, BLOCKED
    }

    /**
     * What a clause measures, each with the quadrant it belongs to, its unit and its definition — the one place each is
     * declared; the pack's README lists them from here. {@link #latency} ones are an SLI's percentiles.
     */
    public enum Metric {
        P50(Quadrant.PERFORMANCE, "ms", 50, "the SLI's 50th percentile over every request of the cell's pods in the"
                + " window (their minutes' histograms merged, never percentiles averaged)"),
        P95(Quadrant.PERFORMANCE, "ms", 95, "the SLI's 95th percentile, as P50"),
        P99(Quadrant.PERFORMANCE, "ms", 99, "the SLI's 99th percentile, as P50"),
        MAX(Quadrant.PERFORMANCE, "ms", 100, "the SLI's slowest request of the cell's pods in the window"),
        THROUGHPUT(Quadrant.PERFORMANCE, "requests/s", "requests per second of the cell's pods over the minutes in"
                + " which they had requests"),
        TOKENS_PER_S(Quadrant.PERFORMANCE, "tokens/s", "generated tokens per second of the cell's pods, summed: each"
                + " pod's rate from vLLM's vllm:generation_tokens_total, read as Prometheus reads a counter (a drop is a"
                + " restart)"),
        COLD_START(Quadrant.PERFORMANCE, "s", "the longest start-up of the cell's pods created in the window: from the"
                + " pod's creation (the ledger's pod facts, createdAt of POST /api/v1/pod-queues) to the end of the first"
                + " minute in which it answered a request successfully (slo-service's request minutes, so at most a"
                + " minute over the true time); a pod that answered none by the window's end counts until then"),
        INTERFERENCE_FACTOR(Quadrant.PERFORMANCE, "x", "the cell's TTFT p99 over the TTFT p99 of the plan's DEDICATED"
                + " cell of the same workload; without one, its service's worst shared bucket over its own dedicated"
                + " minutes (GET /api/v1/interference)"),
        P99_SPREAD(Quadrant.STABILITY, "ms", "the SLI's largest per-minute p99 less its smallest, over the window's"
                + " minutes in which the cell's pods had requests (at least two)"),
        JITTER_EVENT_RATE(Quadrant.STABILITY, "events/h", "jitter events of the cell's services (each service in its"
                + " namespace) that started in the window, per hour of the window: runs of minutes whose p99 exceeded"
                + " gpumeter.slo.jitter.factor times a latency SLO's threshold, as slo-service detected and stored them"
                + " (GET /api/v1/jitter-events); no figure where no latency SLO selects the cell's services"),
        FAILURE_RATE(Quadrant.STABILITY, "ratio", "failed requests of the cell's pods over all their requests in the"
                + " window"),
        MTTR(Quadrant.STABILITY, "s", "the mean time to recover of the ledger's incidents of the cell's pods that"
                + " started in the window (POST /api/v1/failures/pod-incidents): recovered less started, averaged over"
                + " those that recovered; one not recovered is in no mean, as in the ledger's MTTR"),
        FRAGMENTATION(Quadrant.EFFICIENCY, "ratio", "the fleet's memory fragmentation at the window's end (GET"
                + " /api/v1/fragmentation)"),
        USED_ALLOCATED(Quadrant.EFFICIENCY, "ratio", "the cell's own pods' used GPU-hours over their allocated"
                + " GPU-hours in the window (GET /api/v1/gpu-hours?groupBy=pod,model)"),
        ALLOCATED_COST(Quadrant.EFFICIENCY, "cost", "the cell's pods' allocated GPU-hours at the rate billing-service"
                + " charged each pod's namespace for its card's model over the window (GET /api/v1/costs), in billing's"
                + " currency"),
        USED_COST(Quadrant.EFFICIENCY, "cost", "the cell's pods' used GPU-hours at the same rates"),
        IDLE_COST(Quadrant.EFFICIENCY, "cost", "allocated cost less used cost"),
        TOKENS_PER_JOULE(Quadrant.EFFICIENCY, "tokens/J", "generated tokens of the cell's pods over the energy of"
                + " their GPU units in the window, summed over the pods that have both: each pod's tokens from vLLM's"
                + " vllm:generation_tokens_total as TOKENS_PER_S reads it (from its first reading in the window to its"
                + " last), its energy the ledger's energyKWh of its units (each minute of a card's energy split among"
                + " the units on it by allocated fraction; GET /api/v1/gpu-hours?groupBy=pod,model) × 3.6e6; a card"
                + " the ledger never measured is no energy, not 0 J, so no figure; where energy was measured for part"
                + " of the pods' allocated hours the statement says how much"),
        QUEUE_WAIT_P50(Quadrant.GOVERNANCE, "s", "the median queue wait of what was admitted in the window through the"
                + " cell's ClusterQueue (or, for a tenant's cell, its tenant's queues)"),
        QUEUE_WAIT_P95(Quadrant.GOVERNANCE, "s", "the 95th percentile queue wait, as QUEUE_WAIT_P50");

        private final Quadrant quadrant;
        private final String unit;
        private final double percentile;
        private final String definition;

        Metric(Quadrant quadrant, String unit, String definition) {
            this(quadrant, unit, -1, definition);
        }

        Metric(Quadrant quadrant, String unit, double percentile, String definition) {
            this.quadrant = quadrant;
            this.unit = unit;
            this.percentile = percentile;
            this.definition = definition;
        }

        /** A percentile of an SLI's latency. */
        public boolean latency() {
            return percentile > 0;
        }

        public double percentile() {
            return percentile;
        }

        /** A figure of one SLI's latency curve, so a clause names its {@code sli}. */
        public boolean takesSli() {
            return latency() || this == P99_SPREAD;
        }

        /** Given in milliseconds, so a THRESHOLD's limit is {@code maxMs}. */
        public boolean inMilliseconds() {
            return "ms".equals(unit);
        }

        public Quadrant quadrant() {
            return quadrant;
        }

        /** The unit the figure is given in. */
        public String unit() {
            return unit;
        }

        /** How the figure is computed, in a sentence. */
        public String definition() {
            return definition;
        }

        /** Throughputs, tokens per joule and used/allocated are better high: their limits are floors, not ceilings. */
        public boolean higherIsBetter() {
            return this == THROUGHPUT || this == TOKENS_PER_S || this == USED_ALLOCATED || this == TOKENS_PER_JOULE;
        }
    }

    /** Whose pods make up a cell: a service's, a namespace's or a tenant's (narrowed by the others if named). */
    public record Selector(String service, String namespace, String tenant) {
    }

    public record Cell(String name, String workload, Form form, Selector selector) {
    }

    /**
     * One acceptance clause. THRESHOLD and RATIO name a metric (with an SLI for latencies) and a cell; RATIO a
     * baseline cell too. {@code max}/{@code min} hold the limit (milliseconds for latencies, a ratio for RATIO).
     * BLOCKED names a pod (or Kueue workload) of a namespace that must be held back within {@code within}.
     */
    public record Clause(String name, Kind kind, Metric metric, Sli sli, String cell, String baselineCell,
                         BigDecimal max, BigDecimal min, String namespace, String pod, Duration within) {

        /** The metric's quadrant; a BLOCKED clause (an over-quota request held back) is governance. */
        public Quadrant quadrant() {
            return metric == null ? Quadrant.GOVERNANCE : metric.quadrant();
        }
    }

    public Cell cell(String name) {
        return cells.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
    }
}
