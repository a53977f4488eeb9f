package io.gpumeter.billing.service;

import io.gpumeter.billing.client.CardHours;
import io.gpumeter.billing.client.GpuHours;
import io.gpumeter.billing.client.LedgerClient;
import io.gpumeter.billing.domain.CapacityLine;
import io.gpumeter.billing.domain.FineKey;
import io.gpumeter.billing.domain.FineLine;
import io.gpumeter.billing.domain.GroupBy;
import io.gpumeter.billing.domain.IdleEnergy;
import io.gpumeter.billing.domain.ModelName;
import io.gpumeter.billing.domain.Normalization;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.gpumeter.billing.domain.ReportScope;
import io.gpumeter.billing.domain.TimeBucket;
import io.gpumeter.billing.domain.UsageLine;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.context.ManagedExecutor;
import org.jboss.logging.Logger;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;
import java.util.function.Supplier;

/** What reports read from the ledger, checked and reduced to billing's own lines. */
@ApplicationScoped
class LedgerReadings {

    private static final Logger LOG = Logger.getLogger(LedgerReadings.class);

    private final LedgerClient ledger;
    private final ManagedExecutor executor;

    LedgerReadings(LedgerClient ledger, ManagedExecutor executor) {
        this.ledger = ledger;
        this.executor = executor;
    }

    /** Each stretch's answer, in the stretches' order, and the normalization policy they are priced under. */
    record PerStretch<T>(List<T> answers, Normalization normalization) {
    }

    /**
     * {@code read} of every stretch and the normalization policy, asked of the ledger at once: the reads depend on
     * none of each other, so a period of several price changes waits for its slowest read rather than their sum.
     * A read's failure is thrown as the read threw it.
     */
    <T> PerStretch<T> atOnce(List<RateCardTimeline.Stretch> stretches, Function<RateCardTimeline.Stretch, T> read) {
        List<CompletableFuture<T>> reads = new ArrayList<>(stretches.size());
        stretches.forEach(stretch -> reads.add(executor.supplyAsync(() -> read.apply(stretch))));
        Normalization normalization = normalization();
        List<T> answers = new ArrayList<>(reads.size());
        for (CompletableFuture<T> r : reads) {
            try {
                answers.add(r.join());
            } catch (CompletionException e) {
                throw e.getCause() instanceof RuntimeException cause ? cause : e;
            }
        }
        return new PerStretch<>(answers, normalization);
    }

    /** Runs ledger calls; any failure means no trustworthy GPU-hours right now, so no bill: a 503. */
    static <T> T fromLedger(String what, Supplier<T> calls) {
        try {
            return calls.get();
        } catch (ApiProblem e) {
            throw e;
        } catch (RuntimeException e) {
            // Timeouts, refused connections, 5xx, an open breaker and unreadable bodies all mean the same.
            LOG.warnf("ledger-service failed while building %s: %s", what, e);
            throw ApiProblem.unavailable("ledger-service, the source of GPU-hours, is unavailable; retry later.");
        }
    }

    /**
     * The group's hours and energy per model over one stretch of one rate card, only the scope's tenants; per cluster
     * too when the card prices energy per cluster.
     */
    List<UsageLine> usage(RateCardTimeline.Stretch stretch, GroupBy groupBy, ReportScope scope) {
        boolean byCluster = stretch.card().pricesEnergyByCluster();
        // the ledger selects the tenant's rows in its first step; the scope still checks every row it answers
        List<GpuHours> aggregates = ledger.gpuHours(stretch.start(), stretch.end(),
                scope.ledgerGroupBy(groupBy) + (byCluster ? ",cluster" : ""), scope.isAll() ? null : scope.tenant(), null);
        List<UsageLine> lines = new ArrayList<>(aggregates.size());
        for (GpuHours a : aggregates) {
            requireAllocated(a);
            if (scope.admits(a.dimension("tenant"))) {
                lines.add(usageLine(a, a.dimension(groupBy.dimension()), byCluster));
            }
        }
        return lines;
    }

    /**
     * The group's hours and energy per model in each {@code bucket} of one stretch, by the bucket's label, only the
     * scope's tenants: one ledger read, split by the ledger at the local midnights of {@code zone}.
     */
    Map<String, List<UsageLine>> usageByBucket(RateCardTimeline.Stretch stretch, GroupBy groupBy, ReportScope scope,
                                               TimeBucket bucket, ZoneId zone) {
        boolean byCluster = stretch.card().pricesEnergyByCluster();
        List<GpuHours> aggregates = ledger.gpuHours(stretch.start(), stretch.end(),
                scope.ledgerGroupBy(groupBy) + (byCluster ? ",cluster," : ",") + bucket.label(),
                scope.isAll() ? null : scope.tenant(), zone);
        Map<String, List<UsageLine>> lines = new TreeMap<>();
        for (GpuHours a : aggregates) {
            requireAllocated(a);
            String label = a.dimension(bucket.label());
            if (label == null) {
                throw new IllegalStateException("ledger-service returned an aggregate without its " + bucket.label());
            }
            if (scope.admits(a.dimension("tenant"))) {
                lines.computeIfAbsent(label, l -> new ArrayList<>())
                        .add(usageLine(a, a.dimension(groupBy.dimension()), byCluster));
            }
        }
        return lines;
    }

    private static UsageLine usageLine(GpuHours a, String group, boolean byCluster) {
        return new UsageLine(group, a.dimension("model"), byCluster ? a.dimension("cluster") : null,
                a.allocatedGpuHours(), a.usedGpuHours(), a.energyKWh());
    }

    /** The finest lines (tenant, team, project, namespace, model, and cluster where the card asks) of one stretch. */
    List<FineLine> fineLines(int index, RateCardTimeline.Stretch stretch) {
        boolean byCluster = stretch.card().pricesEnergyByCluster();
        List<GpuHours> aggregates = ledger.gpuHours(stretch.start(), stretch.end(), FineKey.ledgerGroupBy(stretch.card()),
                null, null);
        List<FineLine> lines = new ArrayList<>(aggregates.size());
        for (GpuHours a : aggregates) {
            requireAllocated(a);
            lines.add(new FineLine(index, new FineKey(a.dimension("tenant"), a.dimension("team"),
                    a.dimension("project"), a.dimension("namespace"), a.dimension("model"),
                    byCluster ? a.dimension("cluster") : null),
                    a.allocatedGpuHours(), a.usedGpuHours(), a.energyKWh()));
        }
        return lines;
    }

    /**
     * What the fleet's cards drew while no unit held them, per stretch and cluster: the ledger's idle energy of its
     * rows grouped by cluster alone (rows of no tenant, the only ones that carry it).
     */
    List<IdleEnergy> idleEnergy(List<RateCardTimeline.Stretch> stretches) {
        List<IdleEnergy> lines = new ArrayList<>();
        for (int i = 0; i < stretches.size(); i++) {
            for (GpuHours a : ledger.gpuHours(stretches.get(i).start(), stretches.get(i).end(), "cluster", null, null)) {
                if (a != null && a.idleEnergyKWh() != null && a.idleEnergyKWh().signum() != 0) {
                    lines.add(new IdleEnergy(i, a.dimension("cluster"), a.idleEnergyKWh()));
                }
            }
        }
        return lines;
    }

    /** The fleet's card-hours per model in each stretch. */
    List<CapacityLine> capacity(List<RateCardTimeline.Stretch> stretches) {
        List<CapacityLine> lines = new ArrayList<>();
        for (int i = 0; i < stretches.size(); i++) {
            for (CardHours c : ledger.capacity(stretches.get(i).start(), stretches.get(i).end(), "model", null)) {
                if (c == null || c.cardHours() == null) {
                    throw new IllegalStateException("ledger-service returned capacity without cardHours");
                }
                lines.add(new CapacityLine(i, c.dimension("model"), c.cardHours()));
            }
        }
        return lines;
    }

    Normalization normalization() {
        return ledger.normalization()
                .map(n -> new Normalization(n.policy(), n.version()))
                .orElse(Normalization.UNKNOWN);
    }

    private static void requireAllocated(GpuHours a) {
        if (a == null || a.allocatedGpuHours() == null) {
            throw new IllegalStateException("ledger-service returned an aggregate without allocatedGpuHours");
        }
    }
}
