package io.gpumeter.collector.latency;

import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns what vLLM's histograms counted between two scrapes into per-request records for slo-service. Each
 * observation sits at its bucket's upper bound, so every latency is exact to its bucket's width. The number of
 * requests is the larger of the TTFT and end-to-end counts; the i-th smallest TTFT and the i-th smallest
 * end-to-end latency share a record (slo-service keeps each latency in its own histogram, so the pairing changes
 * no percentile). Inter-token latency is counted per token: when there are more tokens than requests, each record
 * takes the token latency at evenly spaced ranks, which keeps the distribution's quantiles to the bucket width.
 * Every record is stamped with the later scrape's time and {@code ok: true}: the histograms say nothing of
 * failures.
 */
public final class SyntheticRequests {

    private SyntheticRequests() {
    }

    /**
     * The records of one scrape interval.
     *
     * @param before  the earlier scrape's histograms; series it lacks (and a first scrape) only set a baseline
     * @param after   the later scrape's
     * @param service the service every record belongs to; null to use each series' model name (the pod's name when
     *                that is absent too)
     * @param limit   the most records one interval may yield
     * @throws IllegalStateException when the interval counted more requests than {@code limit}, checked before any
     *                               record is built
     */
    public static List<LatencyRecord> between(VllmExposition before, VllmExposition after, Instant at,
                                              String namespace, String pod, String service, int limit) {
        Map<String, Map<Latency, Buckets>> byModel = new TreeMap<>();
        for (Map.Entry<VllmExposition.Series, Buckets> entry : after.histograms().entrySet()) {
            Buckets earlier = before.histograms().get(entry.getKey());
            if (earlier == null) {
                continue;
            }
            Buckets delta = entry.getValue().since(earlier);
            String model = entry.getKey().model() == null ? "" : entry.getKey().model();
            // the engines of one model serve one service: their observations add up
            byModel.computeIfAbsent(model, m -> new EnumMap<>(Latency.class))
                    .merge(entry.getKey().latency(), delta, SyntheticRequests::add);
        }
        long requests = byModel.values().stream().mapToLong(SyntheticRequests::requests).sum();
        if (requests > limit) {
            throw new IllegalStateException(requests + " requests since the last scrape, more than " + limit);
        }
        List<LatencyRecord> records = new ArrayList<>();
        for (Map.Entry<String, Map<Latency, Buckets>> model : byModel.entrySet()) {
            String name = service != null ? service : model.getKey().isEmpty() ? pod : model.getKey();
            records.addAll(records(model.getValue(), name, namespace, pod, at.toString()));
        }
        return records;
    }

    /** Engines of one model with different bounds (a mixed rollout) cannot add up: the first one's count stands. */
    private static Buckets add(Buckets a, Buckets b) {
        Buckets sum = a.plus(b);
        return sum == null ? a : sum;
    }

    static List<LatencyRecord> records(Map<Latency, Buckets> deltas, String service, String namespace, String pod,
                                       String ts) {
        Map<Latency, Buckets> usable = usable(deltas);
        long requests = requests(deltas);
        List<LatencyRecord> records = new ArrayList<>();
        for (long i = 0; i < requests; i++) {
            records.add(new LatencyRecord(service, namespace, pod, ts, value(usable.get(Latency.TTFT), i, requests),
                    value(usable.get(Latency.ITL), i, requests), value(usable.get(Latency.E2E), i, requests), true));
        }
        return records;
    }

    /** The histograms whose observations can be given a value, and that counted any. */
    private static Map<Latency, Buckets> usable(Map<Latency, Buckets> deltas) {
        Map<Latency, Buckets> usable = new LinkedHashMap<>();
        deltas.forEach((latency, buckets) -> {
            if (buckets.valued() && buckets.total() > 0) {
                usable.put(latency, buckets);
            }
        });
        return usable;
    }

    /** The requests of one model: the larger of its per-request counts (TTFT, E2E). */
    private static long requests(Map<Latency, Buckets> deltas) {
        return usable(deltas).entrySet().stream().filter(e -> e.getKey().perRequest())
                .mapToLong(e -> e.getValue().total()).max().orElse(0);
    }

    /** The latency record {@code i} of {@code requests} carries from this histogram, or null. */
    private static Double value(Buckets buckets, long i, long requests) {
        if (buckets == null) {
            return null;
        }
        long observations = buckets.total();
        if (observations <= requests) {
            return i < observations ? buckets.valueMsAt(i) : null;
        }
        long rank = Math.min(observations - 1, (long) Math.floor((i + 0.5) * observations / requests));
        return buckets.valueMsAt(rank);
    }
}
