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

    /** What a clause measures; {@link #latency} ones read an SLI's histograms, the rest are unitless or rates. */
    public enum Metric {
        P50(50), P95(95), P99(99), MAX(100), THROUGHPUT, TOKENS_PER_S, INTERFERENCE_FACTOR, FRAGMENTATION, FAILURE_RATE,
        QUEUE_WAIT_P50, QUEUE_WAIT_P95, USED_ALLOCATED, ALLOCATED_COST, USED_COST, IDLE_COST;

        private final double percentile;

        Metric() {
            this(-1);
        }

        Metric(double percentile) {
            this.percentile = percentile;
        }

        public boolean latency() {
            return percentile > 0;
        }

        public double percentile() {
            return percentile;
        }

        /** The unit the figure is given in. */
        public String unit() {
            return switch (this) {
                case P50, P95, P99, MAX -> "ms";
                case THROUGHPUT -> "requests/s";
                case TOKENS_PER_S -> "tokens/s";
                case QUEUE_WAIT_P50, QUEUE_WAIT_P95 -> "s";
                case INTERFERENCE_FACTOR -> "x";
                case ALLOCATED_COST, USED_COST, IDLE_COST -> "cost";
                default -> "ratio";
            };
        }

        /** Throughputs and used/allocated are better high: their limits are floors, not ceilings. */
        public boolean higherIsBetter() {
            return this == THROUGHPUT || this == TOKENS_PER_S || this == USED_ALLOCATED;
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
    }

    public Cell cell(String name) {
        return cells.stream().filter(c -> c.name().equals(name)).findFirst().orElse(null);
    }
}
