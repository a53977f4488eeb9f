package io.gpumeter.slo.client;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

/**
 * The ledger's demand read ({@code GET /api/v1/demand}): allocated GPU-hours of each local day per model, workload
 * class, request shape and (for inference) serving workload; and per model the queue-wait and pending peaks.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Demand(Instant from, Instant to, String timeZone, String cluster, List<Shape> shapes, List<Peak> peaks) {

    public Demand {
        shapes = shapes == null ? List.of() : List.copyOf(shapes);
        peaks = peaks == null ? List.of() : List.copyOf(peaks);
    }

    /** @param service the serving workload of an inference shape (null for other classes) */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Shape(String model, String workloadClass, String classRule, String shape, String kind,
                        Service service, int pods, List<Day> days) {

        public Shape {
            days = days == null ? List.of() : List.copyOf(days);
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Service(String namespace, String name) {
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Day(String day, BigDecimal gpuHours) {
    }

    /** A model's peaks (model null: demand the ledger cannot tie to a model). */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Peak(String model, QueueWait queueWaitP95Seconds, Pending pending) {
    }

    /** The worst day's queue-wait p95 over the window, its day, and the median of the daily p95s. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record QueueWait(BigDecimal peak, String peakDay, BigDecimal median) {
    }

    /** GPUs requested by pending GPU pods, hour by hour: the peak hour, and the hour of day busiest on average. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Pending(BigDecimal peakGpus, Instant peakHour, Integer busiestHourOfDay,
                          BigDecimal meanGpusAtBusiestHour) {
    }
}
