package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * slo-service's {@code GET /api/v1/slo-states} as the SLOs page binds it: each SLO with its status as of the window's
 * end, its service's latency per minute over the window (a latency SLO on a service), its error budget left at
 * instants across the window when asked, or why it has no status.
 */
final class SloAnswers {

    private SloAnswers() {
    }

    /** One SLO's state; {@code status} null and {@code problem} set when slo-service cannot evaluate it. */
    @RegisterForReflection
    record State(Slo slo, Status status, Latency latency, List<BudgetLeft> budgetLeft, Problem problem) {
    }

    @TemplateData
    @RegisterForReflection
    record Slo(String name, Selector selector, String sli, Objective objective, BigDecimal target, String window) {
    }

    /** Whose requests or pods it selects. */
    @TemplateData
    @RegisterForReflection
    record Selector(String service, String tenant, String namespace) {

        /** e.g. {@code service=llm, tenant=acme}. */
        public String text() {
            return Stream.of(service == null ? null : "service=" + service, tenant == null ? null : "tenant=" + tenant,
                    namespace == null ? null : "namespace=" + namespace).filter(Objects::nonNull).collect(Collectors.joining(", "));
        }
    }

    /** A latency SLO's objective: this percentile of each minute (or window) at or under the threshold. */
    @TemplateData
    @RegisterForReflection
    record Objective(BigDecimal percentile, BigDecimal thresholdMs, String per) {

        /** The latency curve's field nearest the percentile: p50, p95 or p99 (the default). */
        String curve() {
            if (percentile == null || percentile.compareTo(BigDecimal.valueOf(97)) >= 0) {
                return "p99";
            }
            return percentile.compareTo(BigDecimal.valueOf(75)) >= 0 ? "p95" : "p50";
        }
    }

    /**
     * Where the SLO stands as of the window's end; {@code meetsTarget} is slo-service's verdict of its attainment
     * against the target (null without events).
     */
    @TemplateData
    @RegisterForReflection
    record Status(String state, BigDecimal attainment, Boolean meetsTarget, long goodEvents, long totalEvents,
                  ErrorBudget errorBudget, List<Alert> alerts) {

        /** The burn-rate alerts firing now. */
        public long firing() {
            return alerts == null ? 0 : alerts.stream().filter(Alert::firing).count();
        }
    }

    @TemplateData
    @RegisterForReflection
    record ErrorBudget(BigDecimal remaining) {
    }

    /** A burn-rate alert of the SLO. */
    @RegisterForReflection
    record Alert(String severity, boolean firing) {
    }

    /** The service's latency per minute. */
    @RegisterForReflection
    record Latency(List<Minute> minutes) {
    }

    @RegisterForReflection
    record Minute(String minute, Percentiles latency) {
    }

    @RegisterForReflection
    record Percentiles(BigDecimal p50Ms, BigDecimal p95Ms, BigDecimal p99Ms) {

        BigDecimal of(String curve) {
            return switch (curve) {
                case "p50" -> p50Ms;
                case "p95" -> p95Ms;
                default -> p99Ms;
            };
        }
    }

    /** The share of the error budget left as of an instant. */
    @RegisterForReflection
    record BudgetLeft(String at, BigDecimal remaining) {
    }

    /** Why an SLO has no status, in slo-service's words. */
    @RegisterForReflection
    record Problem(String field, String detail) {
    }
}
