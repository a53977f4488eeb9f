package io.gpumeter.slo.domain;

import org.HdrHistogram.Histogram;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A batch of request records folded into per-minute histograms per SLI and per-minute request counts.
 */
public final class LatencyBatch {

    /** Requests and failed requests of one pod's minute. */
    public record Requests(long requests, long failed) {
    }

    private final Map<MinuteKey, Map<Sli, Histogram>> histograms = new LinkedHashMap<>();
    private final Map<MinuteKey, Requests> requests = new LinkedHashMap<>();

    private LatencyBatch() {
    }

    public static LatencyBatch of(List<LatencyRecord> records) {
        LatencyBatch batch = new LatencyBatch();
        for (LatencyRecord r : records) {
            MinuteKey key = MinuteKey.of(r);
            batch.requests.merge(key, new Requests(1, r.ok() ? 0 : 1),
                    (a, b) -> new Requests(a.requests + b.requests, a.failed + b.failed));
            for (Sli sli : Sli.values()) {
                Double ms = r.latencyMs(sli);
                if (ms != null) {
                    batch.histograms.computeIfAbsent(key, k -> new EnumMap<>(Sli.class))
                            .computeIfAbsent(sli, s -> LatencyHistograms.empty())
                            .recordValue(LatencyHistograms.micros(ms));
                }
            }
        }
        return batch;
    }

    /** This batch's histograms by minute and SLI; a caller merges stored ones into them before writing. */
    public Map<MinuteKey, Map<Sli, Histogram>> histograms() {
        return histograms;
    }

    public Map<MinuteKey, Requests> requests() {
        return requests;
    }

    /** The services in the batch, sorted, so writers lock them in one order. */
    public Set<String> services() {
        Set<String> services = new TreeSet<>();
        requests.keySet().forEach(k -> services.add(k.service()));
        return services;
    }
}
