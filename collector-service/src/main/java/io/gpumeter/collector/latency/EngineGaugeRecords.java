package io.gpumeter.collector.latency;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Turns a scrape's cache gauges into one line per model (so per service) for slo-service. The engines of one model
 * in a pod are one server: its KV-cache usage is their mean (engines of one model have caches of one size), its
 * prefix-cache hit rate the hits over the queries all of them counted since the previous scrape. A counter below its
 * earlier value means the engine restarted and began counting again: then everything it counts now is new. Where no
 * engine prints the counters, the older hit-rate gauge is read as it stands. The generation-token counters are passed
 * on as they stand, summed over the model's engines; slo-service reads their rate over any window.
 */
public final class EngineGaugeRecords {

    private EngineGaugeRecords() {
    }

    /**
     * @param before  the previous scrape's gauges, null for a first scrape: the counters then only set a baseline
     * @param service the service of every line; null to use each engine's model name (the pod's name when that is
     *                absent too)
     */
    public static List<EngineGaugeRecord> between(EngineGauges before, EngineGauges after, Instant at,
                                                  String namespace, String pod, String service) {
        Map<String, List<EngineGauges.Engine>> byModel = new TreeMap<>();
        after.readings().keySet().forEach(e -> byModel.computeIfAbsent(e.model() == null ? "" : e.model(),
                m -> new ArrayList<>()).add(e));
        List<EngineGaugeRecord> records = new ArrayList<>();
        byModel.forEach((model, engines) -> {
            Double kv = mean(engines.stream().map(e -> after.readings().get(e).kvCacheUsage()).toList());
            Double hitRate = hitRate(before, after, engines);
            Double tokens = sum(engines.stream().map(e -> after.readings().get(e).generationTokens()).toList());
            if (kv != null || hitRate != null || tokens != null) {
                String name = service != null ? service : model.isEmpty() ? pod : model;
                records.add(new EngineGaugeRecord(name, namespace, pod, at.toString(), kv, hitRate, tokens));
            }
        });
        return records;
    }

    private static Double hitRate(EngineGauges before, EngineGauges after, List<EngineGauges.Engine> engines) {
        boolean counting = false;
        double queries = 0;
        double hits = 0;
        for (EngineGauges.Engine engine : engines) {
            EngineGauges.Reading now = after.readings().get(engine);
            if (now.queries() == null) {
                continue;
            }
            counting = true;
            EngineGauges.Reading then = before == null ? null : before.readings().get(engine);
            if (then == null || then.queries() == null) {
                continue; // a new series: this scrape is its baseline
            }
            boolean restarted = now.queries() < then.queries() || now.hits() < then.hits();
            queries += restarted ? now.queries() : now.queries() - then.queries();
            hits += restarted ? now.hits() : now.hits() - then.hits();
        }
        if (!counting) {
            return mean(engines.stream().map(e -> after.readings().get(e).hitRateGauge()).toList());
        }
        // no queries, no rate; more hits than queries means the two counters were read apart: no rate either
        return queries > 0 && hits <= queries ? hits / queries : null;
    }

    /** The model's engines' counters added up: the pod's counter for that model (a whole number, as counted). */
    private static Double sum(List<Double> values) {
        List<Double> present = values.stream().filter(v -> v != null).toList();
        return present.isEmpty() ? null : (double) Math.round(present.stream().mapToDouble(Double::doubleValue).sum());
    }

    private static Double mean(List<Double> values) {
        List<Double> present = values.stream().filter(v -> v != null).toList();
        return present.isEmpty() ? null : present.stream().mapToDouble(Double::doubleValue).sum() / present.size();
    }
}
