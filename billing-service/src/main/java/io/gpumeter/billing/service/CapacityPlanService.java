package io.gpumeter.billing.service;

import io.gpumeter.billing.client.ClusterQueue;
import io.gpumeter.billing.client.FragmentationView;
import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.CapacityPlanner;
import io.gpumeter.billing.domain.Horizon;
import io.gpumeter.billing.domain.ModelHistory;
import io.gpumeter.billing.domain.ModelName;
import io.gpumeter.billing.domain.ModelPlan;
import io.gpumeter.billing.domain.PlanTerms;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads a GPU fleet's daily history per model from the ledger (allocated GPU-hours, capacity card-hours, Kueue
 * queue waits and rejections, fragmentation) and plans each model's capacity over a horizon.
 */
// Built at start-up, so that a bad capacity setting stops the service with the property's name.
@Startup
@ApplicationScoped
public class CapacityPlanService {

    /** Fewer days leave the trend and the week of queue figures without ground. */
    public static final int MIN_HISTORY_DAYS = 7;
    /** Half a year of days is plenty for a trend. */
    public static final int MAX_HISTORY_DAYS = 182;

    private final LedgerReadings readings;
    private final BillingConfig.Capacity config;
    private final ZoneId zone;
    /** Canonical model key → the ClusterQueues configured for it. */
    private final Map<String, List<String>> queuesByModel = new TreeMap<>();

    public CapacityPlanService(LedgerReadings readings, BillingConfig config) {
        this.readings = readings;
        this.config = config.capacity();
        this.zone = config.zone();
        new TreeMap<>(this.config.queues()).forEach((queue, model) ->
                queuesByModel.computeIfAbsent(ModelName.normalise(model), m -> new ArrayList<>()).add(queue));
        try {
            Horizon.days("gpumeter.billing.capacity.history", this.config.history(), MIN_HISTORY_DAYS, MAX_HISTORY_DAYS);
            terms(1);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("gpumeter.billing.capacity: " + e.getMessage(), e);
        }
    }

    private PlanTerms terms(int horizonDays) {
        return new PlanTerms(horizonDays, config.margin(), config.targetUtilization(), config.intervalZ(),
                config.queueWaitLine().toSeconds());
    }

    /** The configured history length (e.g. 56d), as the default of a request. */
    public String defaultHistory() {
        return config.history();
    }

    /**
     * The plan as of {@code at}: history is the {@code historyDays} whole local days before the day of {@code at}.
     *
     * @throws io.gpumeter.common.problem.ApiProblem 503 when ledger-service fails
     */
    public CapacityPlan plan(Instant at, int horizonDays, int historyDays) {
        PlanTerms terms = terms(horizonDays);
        LocalDate today = at.atZone(zone).toLocalDate();
        LocalDate first = today.minusDays(historyDays);
        int queueDays = Math.min(Math.max(config.recentDays(), 1), historyDays);
        LocalDate firstRecent = today.minusDays(queueDays);
        return LedgerReadings.fromLedger("the capacity plan", () -> {
            Map<String, TreeSet<String>> spellings = new TreeMap<>();
            Map<String, Map<LocalDate, double[]>> byModel = new HashMap<>();
            // One read each for the whole history, split by the ledger at the local midnights of the billing zone.
            readings.allocatedByModelAndDay(start(first), start(today), zone).forEach((model, days) ->
                    days.forEach((d, hours) -> figures(byModel, spellings, model, d)[0] += hours.doubleValue()));
            readings.capacityByModelAndDay(start(first), start(today), zone).forEach((model, days) ->
                    days.forEach((d, hours) -> figures(byModel, spellings, model, d)[1] += hours.doubleValue()));
            Map<LocalDate, Map<String, BigDecimal>> p95 = new TreeMap<>();
            for (LocalDate day = firstRecent; day.isBefore(today); day = day.plusDays(1)) {
                p95.put(day, readings.queueWaitP95(start(day), start(day.plusDays(1))));
            }
            List<ClusterQueue> queues = readings.clusterQueues(start(firstRecent), start(today));
            Map<String, FragmentationView.Pool> pools = new HashMap<>();
            readings.fragmentation(at).forEach(p -> pools.putIfAbsent(ModelName.normalise(p.key()), p));

            List<ModelPlan> plans = new ArrayList<>();
            for (Map.Entry<String, TreeSet<String>> model : spellings.entrySet()) {
                List<ModelHistory.Day> days = new ArrayList<>();
                Map<LocalDate, double[]> figures = byModel.get(model.getKey());
                for (LocalDate day = first; day.isBefore(today); day = day.plusDays(1)) {
                    double[] f = figures.getOrDefault(day, new double[2]);
                    days.add(new ModelHistory.Day(day, hours(day), f[0], f[1]));
                }
                ModelHistory history = new ModelHistory(model.getValue().first(), days,
                        queue(model.getKey(), p95, queues), fragmentation(pools.get(model.getKey())));
                plans.add(CapacityPlanner.plan(history, terms));
            }
            return new CapacityPlan(at.toString(), start(first).toString(), start(today).toString(), historyDays,
                    horizonDays, CapacityPlanner.METHOD, decimal(terms.margin()), decimal(terms.targetUtilization()),
                    decimal(terms.z()), terms.queueLineSeconds(), queueDays, plans);
        });
    }

    /** The day's [allocated, capacity] accumulator of a model, grouping spellings of one model together. */
    private static double[] figures(Map<String, Map<LocalDate, double[]>> byModel, Map<String, TreeSet<String>> spellings,
                                    String model, LocalDate day) {
        String key = ModelName.normalise(model);
        spellings.computeIfAbsent(key, k -> new TreeSet<>()).add(model);
        return byModel.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(day, d -> new double[2]);
    }

    /** The model's queues: those configured for it, or every queue when none is configured for any model. */
    private ModelHistory.Queue queue(String model, Map<LocalDate, Map<String, BigDecimal>> p95, List<ClusterQueue> queues) {
        boolean fleet = queuesByModel.isEmpty();
        List<String> names = fleet ? null : queuesByModel.get(model);
        if (!fleet && names == null) {
            return null;
        }
        TreeSet<String> counted = new TreeSet<>();
        List<ModelHistory.QueueDay> days = new ArrayList<>();
        p95.forEach((day, byQueue) -> {
            BigDecimal worst = null;
            for (Map.Entry<String, BigDecimal> q : byQueue.entrySet()) {
                if (fleet || names.contains(q.getKey())) {
                    counted.add(q.getKey());
                    worst = worst == null || q.getValue().compareTo(worst) > 0 ? q.getValue() : worst;
                }
            }
            days.add(new ModelHistory.QueueDay(day, worst));
        });
        int workloads = 0;
        int rejected = 0;
        for (ClusterQueue q : queues) {
            if (fleet || names.contains(q.name())) {
                counted.add(q.name());
                workloads += q.workloads();
                rejected += q.rejected();
            }
        }
        if (!fleet) {
            counted.addAll(names);
        }
        return new ModelHistory.Queue(fleet ? "fleet" : "mapped", List.copyOf(counted), days, workloads, rejected);
    }

    private static ModelHistory.Fragmentation fragmentation(FragmentationView.Pool pool) {
        if (pool == null) {
            return null;
        }
        FragmentationView.Memory memory = pool.memory();
        List<ModelHistory.ShapeRatio> shapes = memory == null || memory.shapes() == null ? List.of()
                : memory.shapes().stream().map(s -> new ModelHistory.ShapeRatio(s.sizeGiB(), s.ratio())).toList();
        return new ModelHistory.Fragmentation(pool.key(), memory == null ? null : memory.overall(), shapes,
                pool.mig() == null ? null : pool.mig().ratio());
    }

    private Instant start(LocalDate day) {
        return day.atStartOfDay(zone).toInstant();
    }

    private double hours(LocalDate day) {
        return Duration.between(start(day), start(day.plusDays(1))).toSeconds() / 3600.0;
    }

    private static BigDecimal decimal(double value) {
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
