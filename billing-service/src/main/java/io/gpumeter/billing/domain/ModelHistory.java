package io.gpumeter.billing.domain;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

/**
 * What the ledger says about one GPU model over the planning history: per day the allocated card-equivalent hours
 * and the card-hours the inventory could supply; the queues that serve it; its fragmentation now.
 *
 * @param queue         null when no queue figures apply to the model
 * @param fragmentation null when the ledger has no pool for the model
 */
public record ModelHistory(String model, List<Day> days, Queue queue, Fragmentation fragmentation) {

    public ModelHistory {
        days = List.copyOf(days);
    }

    /**
     * One local day.
     *
     * @param hours the day's length (23 or 25 across a clock change)
     */
    public record Day(LocalDate day, double hours, double allocatedGpuHours, double capacityCardHours) {
    }

    /**
     * Kueue ClusterQueues counted for the model.
     *
     * @param scope         {@code mapped} (configured for this model) or {@code fleet} (every queue, none mapped)
     * @param dailyP95      the recent days' queue-wait p95 in seconds, the worst of the queues; null on a day
     *                      nothing was admitted
     * @param workloads     workloads created in the recent days
     * @param rejected      of which admission was refused at least once
     */
    public record Queue(String scope, List<String> clusterQueues, List<QueueDay> dailyP95, int workloads, int rejected) {

        public Queue {
            clusterQueues = List.copyOf(clusterQueues);
            dailyP95 = List.copyOf(dailyP95);
        }
    }

    /** A day's queue-wait p95 in seconds (null: nothing admitted). */
    public record QueueDay(LocalDate day, BigDecimal p95Seconds) {
    }

    /**
     * The ledger's fragmentation of the model's pool.
     *
     * @param memory overall share of free memory typical shapes cannot use (null: nothing free)
     * @param mig    share of free MIG slices no profile fits (null: none free)
     */
    public record Fragmentation(String pool, BigDecimal memory, List<ShapeRatio> shapes, BigDecimal mig) {

        public Fragmentation {
            shapes = shapes == null ? List.of() : List.copyOf(shapes);
        }
    }

    /** One request shape (GiB of GPU memory) and the share of free memory it cannot use. */
    public record ShapeRatio(int sizeGiB, BigDecimal ratio) {
    }
}
