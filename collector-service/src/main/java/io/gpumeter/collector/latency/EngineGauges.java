package io.gpumeter.collector.latency;

import io.gpumeter.collector.usage.Sample;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * vLLM's cache gauges in one {@code /metrics} exposition, per model and engine: the KV-cache usage (a fraction),
 * the older prefix-cache hit-rate gauge, the newer prefix-cache query and hit counters, and the generation-token
 * counter.
 *
 * @param problems series that could not be read, and why
 */
public record EngineGauges(Map<Engine, Reading> readings, List<String> problems) {

    static final String KV_USAGE = "vllm:kv_cache_usage_perc";
    /** The name before vLLM's V1 engine. */
    static final String KV_USAGE_OLD = "vllm:gpu_cache_usage_perc";
    static final String HIT_RATE_GAUGE = "vllm:gpu_prefix_cache_hit_rate";
    static final String QUERIES = "vllm:prefix_cache_queries_total";
    static final String HITS = "vllm:prefix_cache_hits_total";
    /** The counters' names in the first V1 releases. */
    static final String QUERIES_OLD = "vllm:gpu_prefix_cache_queries_total";
    static final String HITS_OLD = "vllm:gpu_prefix_cache_hits_total";
    /** Tokens the engine generated since it started (a counter). */
    static final String GENERATION_TOKENS = "vllm:generation_tokens_total";

    /**
     * One engine of a model.
     *
     * @param model  the {@code model_name} label, null when absent
     * @param labels every other label, as printed, telling engines apart
     */
    public record Engine(String model, String labels) {
    }

    /** What one engine printed; null where it printed nothing readable. */
    public record Reading(Double kvCacheUsage, Double hitRateGauge, Double queries, Double hits,
                          Double generationTokens) {
    }

    public EngineGauges {
        readings = Map.copyOf(readings);
        problems = List.copyOf(problems);
    }

    public static EngineGauges read(List<Sample> samples) {
        // engine -> metric name -> value
        Map<Engine, Map<String, Double>> values = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (Sample sample : samples) {
            String name = sample.name();
            if (!name.equals(KV_USAGE) && !name.equals(KV_USAGE_OLD) && !name.equals(HIT_RATE_GAUGE)
                    && !name.equals(QUERIES) && !name.equals(HITS) && !name.equals(QUERIES_OLD)
                    && !name.equals(HITS_OLD) && !name.equals(GENERATION_TOKENS)) {
                continue;
            }
            Map<String, String> labels = new TreeMap<>(sample.labels());
            String model = labels.remove("model_name");
            double v = sample.value();
            boolean counter = name.endsWith("_total");
            if (!Double.isFinite(v) || v < 0 || (!counter && v > 1)) {
                problems.add(name + labels + ": " + v + (counter ? " is not a count" : " is not a fraction from 0 to 1"));
                continue;
            }
            values.computeIfAbsent(new Engine(model, labels.toString()), e -> new HashMap<>()).put(name, v);
        }
        Map<Engine, Reading> readings = new HashMap<>();
        values.forEach((engine, v) -> {
            // a counter pair is read from one generation of names, never one of each
            String[] pair = v.containsKey(QUERIES) && v.containsKey(HITS) ? new String[]{QUERIES, HITS}
                    : v.containsKey(QUERIES_OLD) && v.containsKey(HITS_OLD) ? new String[]{QUERIES_OLD, HITS_OLD} : null;
            readings.put(engine, new Reading(v.containsKey(KV_USAGE) ? v.get(KV_USAGE) : v.get(KV_USAGE_OLD),
                    v.get(HIT_RATE_GAUGE), pair == null ? null : v.get(pair[0]), pair == null ? null : v.get(pair[1]),
                    v.get(GENERATION_TOKENS)));
        });
        return new EngineGauges(readings, problems.stream().sorted().toList());
    }
}
