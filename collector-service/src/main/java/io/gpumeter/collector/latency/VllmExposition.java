package io.gpumeter.collector.latency;

import io.gpumeter.collector.usage.Sample;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The request-latency histograms of one vLLM {@code /metrics} exposition: time to first token, inter-token latency
 * (the older {@code vllm:time_per_output_token_seconds} when the newer name is absent) and end-to-end latency, one
 * series per model and engine.
 *
 * @param problems histogram series that could not be read, and why
 */
public record VllmExposition(Map<Series, Buckets> histograms, List<String> problems) {

    static final String TTFT = "vllm:time_to_first_token_seconds";
    static final String ITL = "vllm:inter_token_latency_seconds";
    static final String TPOT = "vllm:time_per_output_token_seconds";
    static final String E2E = "vllm:e2e_request_latency_seconds";

    private static final Map<String, Latency> HISTOGRAMS = Map.of(TTFT, Latency.TTFT, ITL, Latency.ITL,
            TPOT, Latency.ITL, E2E, Latency.E2E);
    // counts are floats in the exposition; beyond 2^53 they stop being whole numbers
    private static final double MAX_COUNT = 9_007_199_254_740_992d;

    /**
     * One histogram series.
     *
     * @param model  the {@code model_name} label, null when absent
     * @param labels every other label but {@code le}, as printed, telling engines apart
     */
    public record Series(Latency latency, String model, String labels) {
    }

    public VllmExposition {
        histograms = Map.copyOf(histograms);
        problems = List.copyOf(problems);
    }

    public static VllmExposition read(List<Sample> samples) {
        // metric base name and labels without le -> bound -> cumulative count
        Map<String, Map<String, String>> labelsOf = new HashMap<>();
        Map<String, TreeMap<Double, Double>> cumulative = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Sample sample : samples) {
            if (!sample.name().endsWith("_bucket")) {
                continue;
            }
            String base = sample.name().substring(0, sample.name().length() - "_bucket".length());
            if (!HISTOGRAMS.containsKey(base)) {
                continue;
            }
            Map<String, String> labels = new TreeMap<>(sample.labels());
            String le = labels.remove("le");
            String key = base + labels;
            Double bound = bound(le);
            if (bound == null) {
                problems.add(key + ": le=\"" + le + "\" is not a bucket bound");
                cumulative.put(key, null);
                continue;
            }
            labelsOf.put(key, labels);
            if (cumulative.containsKey(key) && cumulative.get(key) == null) {
                continue; // already refused
            }
            cumulative.computeIfAbsent(key, k -> new TreeMap<>()).put(bound, sample.value());
        }
        Map<Series, Buckets> histograms = new HashMap<>();
        for (Map.Entry<String, TreeMap<Double, Double>> entry : cumulative.entrySet()) {
            if (entry.getValue() == null) {
                continue;
            }
            String key = entry.getKey();
            String base = key.substring(0, key.indexOf('{'));
            Map<String, String> labels = new TreeMap<>(labelsOf.get(key));
            String model = labels.remove("model_name");
            Buckets buckets = buckets(key, entry.getValue(), problems);
            if (buckets == null) {
                continue;
            }
            Series series = new Series(HISTOGRAMS.get(base), model, labels.toString());
            // a server that still prints the deprecated name beside the new one observes the same tokens twice
            if (series.latency() == Latency.ITL && histograms.containsKey(series) && base.equals(TPOT)) {
                continue;
            }
            histograms.put(series, buckets);
        }
        return new VllmExposition(histograms, problems.stream().sorted().collect(Collectors.toList()));
    }

    /** Cumulative bucket counts to per-bucket counts, or null (with the reason added) when they make no histogram. */
    private static Buckets buckets(String key, TreeMap<Double, Double> cumulative, List<String> problems) {
        if (!cumulative.containsKey(Double.POSITIVE_INFINITY)) {
            problems.add(key + ": no le=\"+Inf\" bucket");
            return null;
        }
        double[] bounds = new double[cumulative.size()];
        long[] counts = new long[cumulative.size()];
        int i = 0;
        long previous = 0;
        for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
            double value = bucket.getValue();
            if (!(value >= 0) || value > MAX_COUNT || value != Math.rint(value)) {
                problems.add(key + ": bucket le=" + bucket.getKey() + " holds " + value + ", not a count");
                return null;
            }
            long count = (long) value;
            if (count < previous) {
                problems.add(key + ": bucket le=" + bucket.getKey() + " counts fewer than the bucket below it");
                return null;
            }
            bounds[i] = bucket.getKey();
            counts[i++] = count - previous;
            previous = count;
        }
        return new Buckets(bounds, counts);
    }

    /** A bucket bound: "+Inf", or a finite non-negative decimal. */
    private static Double bound(String le) {
        if (le == null) {
            return null;
        }
        if (le.equals("+Inf") || le.equals("Inf")) {
            return Double.POSITIVE_INFINITY;
        }
        try {
            BigDecimal value = new BigDecimal(le);
            double bound = value.doubleValue();
            return value.signum() >= 0 && Double.isFinite(bound) ? bound : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
