package io.gpumeter.slo.domain;

import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The interference factor of a service's pod-minutes, bucketed by how many other pods shared the pod's cards:
 * IF_latency = p99_shared / p99_dedicated (p99 of the bucket's merged histograms) and IF_throughput =
 * T_dedicated / T_shared (T = requests per pod-minute). 1 is no interference; larger is worse.
 */
public final class InterferenceFactor {

    public static final int SCALE = 3;
    /** Bucket labels by neighbour count; the last one holds three or more. */
    public static final List<String> COUNT_BUCKETS = List.of("0", "1", "2", "3+");

    /**
     * One pod's minute: its neighbours (other pods on the cards it held), requests and latency histogram (null when
     * the minute carries no latency of the SLI read).
     */
    public record PodMinute(Instant minute, String pod, int neighbours, NeighbourKind kind, long requests,
                            Histogram histogram) {
    }

    /** A bucket's merged figures and its factors against the dedicated bucket; null where either side has no data. */
    public record Bucket(String bucket, long podMinutes, long requests, BigDecimal requestsPerPodMinute,
                         long latencySamples, Double p99Ms, BigDecimal ifLatency, BigDecimal ifThroughput) {
    }

    /** Buckets by neighbour count ("0" is the dedicated baseline) and, for shared minutes, by neighbour kind. */
    public record Report(List<Bucket> byNeighbours, List<Bucket> byKind) {

        public Bucket neighbours(String label) {
            return byNeighbours.stream().filter(b -> b.bucket().equals(label)).findFirst().orElseThrow();
        }
    }

    private InterferenceFactor() {
    }

    /** The count bucket a number of neighbours falls in. */
    public static String countBucket(int neighbours) {
        return COUNT_BUCKETS.get(Math.min(neighbours, COUNT_BUCKETS.size() - 1));
    }

    public static Report compute(List<PodMinute> minutes) {
        Map<String, List<PodMinute>> byCount = group(minutes, COUNT_BUCKETS, m -> countBucket(m.neighbours()));
        List<String> kinds = new ArrayList<>();
        for (NeighbourKind k : NeighbourKind.values()) {
            kinds.add(k.label());
        }
        Map<String, List<PodMinute>> byKind = group(minutes.stream().filter(m -> m.neighbours() > 0).toList(), kinds,
                m -> m.kind().label());
        Totals dedicated = Totals.of(byCount.get("0"));
        List<Bucket> counts = new ArrayList<>();
        byCount.forEach((label, ms) -> counts.add(Totals.of(ms).bucket(label, dedicated)));
        List<Bucket> kindBuckets = new ArrayList<>();
        byKind.forEach((label, ms) -> kindBuckets.add(Totals.of(ms).bucket(label, dedicated)));
        return new Report(counts, kindBuckets);
    }

    private static Map<String, List<PodMinute>> group(List<PodMinute> minutes, List<String> labels,
                                                      Function<PodMinute, String> label) {
        Map<String, List<PodMinute>> out = new LinkedHashMap<>();
        labels.forEach(l -> out.put(l, new ArrayList<>()));
        minutes.forEach(m -> out.get(label.apply(m)).add(m));
        return out;
    }

    /** A bucket's pod-minutes, requests and merged histogram. */
    private record Totals(long podMinutes, long requests, Histogram merged) {

        static Totals of(List<PodMinute> minutes) {
            Histogram merged = LatencyHistograms.empty();
            long requests = 0;
            for (PodMinute m : minutes) {
                requests += m.requests();
                if (m.histogram() != null) {
                    merged.add(m.histogram());
                }
            }
            return new Totals(minutes.size(), requests, merged);
        }

        Double p99() {
            return LatencyHistograms.percentileMs(merged, 99);
        }

        Bucket bucket(String label, Totals dedicated) {
            BigDecimal perMinute = podMinutes == 0 ? null
                    : BigDecimal.valueOf(requests).divide(BigDecimal.valueOf(podMinutes), SCALE, RoundingMode.HALF_EVEN);
            Double p99 = p99();
            Double base = dedicated.p99();
            BigDecimal ifLatency = p99 == null || base == null || base == 0 ? null
                    : BigDecimal.valueOf(p99).divide(BigDecimal.valueOf(base), SCALE, RoundingMode.HALF_EVEN);
            // (requests_d / minutes_d) / (requests_s / minutes_s), in one exact division
            BigDecimal ifThroughput = podMinutes == 0 || requests == 0 || dedicated.podMinutes == 0 ? null
                    : BigDecimal.valueOf(dedicated.requests).multiply(BigDecimal.valueOf(podMinutes))
                    .divide(BigDecimal.valueOf(dedicated.podMinutes).multiply(BigDecimal.valueOf(requests)),
                            SCALE, RoundingMode.HALF_EVEN);
            return new Bucket(label, podMinutes, requests, perMinute, merged.getTotalCount(), p99, ifLatency,
                    ifThroughput);
        }
    }
}
