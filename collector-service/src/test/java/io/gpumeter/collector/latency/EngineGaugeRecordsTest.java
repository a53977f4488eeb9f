package io.gpumeter.collector.latency;

import io.gpumeter.collector.usage.PrometheusTextParser;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

class EngineGaugeRecordsTest {

    private static final Instant T = Instant.parse("2026-07-01T10:00:30Z");

    private static EngineGauges read(String text) {
        return EngineGauges.read(new PrometheusTextParser().parse(text));
    }

    private static EngineGaugeRecord line(String service, Double kv, Double hitRate) {
        return new EngineGaugeRecord(service, "ml", "chat-0", T.toString(), kv, hitRate, null);
    }

    @Test
    void theNamesBeforeTheV1EngineAreReadAsTheyStand() {
        EngineGauges old = read("""
                vllm:gpu_cache_usage_perc{model_name="chat-8b"} 0.5
                vllm:gpu_prefix_cache_hit_rate{model_name="chat-8b"} 0.25
                """);
        assertEquals(List.of(line("chat-8b", 0.5, 0.25)),
                EngineGaugeRecords.between(null, old, T, "ml", "chat-0", null), "gauges need no baseline");
    }

    @Test
    void theNewerKvNameWinsOverTheOlderOne() {
        EngineGauges both = read("""
                vllm:gpu_cache_usage_perc{model_name="m"} 0.5
                vllm:kv_cache_usage_perc{model_name="m"} 0.75
                """);
        assertEquals(List.of(line("chat", 0.75, null)), EngineGaugeRecords.between(null, both, T, "ml", "chat-0", "chat"));
    }

    /**
     * Two engines of one model: KV usage 0.2 and 0.6, mean 0.4. Engine 0 counted 100 -> 300 queries and 50 -> 110
     * hits (200 and 60 new); engine 1 restarted, 40 queries and 30 hits now against 1000 and 900 before (all new). Hit
     * rate: (60 + 30) / (200 + 40) = 90 / 240 = 0.375.
     */
    @Test
    void enginesOfOneModelPoolTheirCountersAndAnEngineThatRestartedCountsAfresh() {
        EngineGauges before = read("""
                vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.9
                vllm:prefix_cache_queries_total{engine="0",model_name="m"} 100
                vllm:prefix_cache_hits_total{engine="0",model_name="m"} 50
                vllm:kv_cache_usage_perc{engine="1",model_name="m"} 0.9
                vllm:prefix_cache_queries_total{engine="1",model_name="m"} 1000
                vllm:prefix_cache_hits_total{engine="1",model_name="m"} 900
                """);
        EngineGauges after = read("""
                vllm:kv_cache_usage_perc{engine="0",model_name="m"} 0.2
                vllm:prefix_cache_queries_total{engine="0",model_name="m"} 300
                vllm:prefix_cache_hits_total{engine="0",model_name="m"} 110
                vllm:kv_cache_usage_perc{engine="1",model_name="m"} 0.6
                vllm:prefix_cache_queries_total{engine="1",model_name="m"} 40
                vllm:prefix_cache_hits_total{engine="1",model_name="m"} 30
                """);
        List<EngineGaugeRecord> lines = EngineGaugeRecords.between(before, after, T, "ml", "chat-0", null);
        assertEquals(1, lines.size());
        assertEquals(0.4, lines.get(0).kvCacheUsage(), 1e-12);
        assertEquals(0.375, lines.get(0).prefixCacheHitRate());
    }

    @Test
    void countersWithoutABaselineOrWithoutQueriesGiveNoRate() {
        EngineGauges counters = read("""
                vllm:prefix_cache_queries_total{model_name="m"} 100
                vllm:prefix_cache_hits_total{model_name="m"} 50
                """);
        assertEquals(List.of(), EngineGaugeRecords.between(null, counters, T, "ml", "chat-0", null),
                "a first scrape of counters alone only sets the baseline");
        assertEquals(List.of(), EngineGaugeRecords.between(counters, counters, T, "ml", "chat-0", null),
                "no queries since: no rate, and nothing else to say");
    }

    @Test
    void aGaugeOutsideZeroToOneIsLeftOutAndNamed() {
        EngineGauges bad = read("""
                vllm:kv_cache_usage_perc{model_name="m"} 31
                vllm:gpu_prefix_cache_hit_rate{model_name="m"} 0.5
                """);
        assertEquals(List.of(line("m", null, 0.5)), EngineGaugeRecords.between(null, bad, T, "ml", "chat-0", null));
        assertEquals(List.of("vllm:kv_cache_usage_perc{}: 31.0 is not a fraction from 0 to 1"), bad.problems());
    }

    /** Models are served separately: each is its own line, under its own name. */
    @Test
    void eachModelIsItsOwnLine() {
        EngineGauges two = read("""
                vllm:kv_cache_usage_perc{model_name="b"} 0.5
                vllm:kv_cache_usage_perc{model_name="a"} 0.25
                """);
        assertEquals(List.of(line("a", 0.25, null), line("b", 0.5, null)),
                EngineGaugeRecords.between(null, two, T, "ml", "chat-0", null));
    }

    /** Each engine's generation-token counter, added up per model and passed on as a counter: 1200 + 3400 = 4600. */
    @Test
    void generationTokensArePassedOnAsTheModelsCounter() {
        EngineGauges scrape = read("""
                vllm:generation_tokens_total{engine="0",model_name="m"} 1200
                vllm:generation_tokens_total{engine="1",model_name="m"} 3400
                vllm:generation_tokens_total{engine="0",model_name="other"} 7
                """);
        assertEquals(List.of(new EngineGaugeRecord("m", "ml", "chat-0", T.toString(), null, null, 4600.0),
                        new EngineGaugeRecord("other", "ml", "chat-0", T.toString(), null, null, 7.0)),
                EngineGaugeRecords.between(null, scrape, T, "ml", "chat-0", null), "a counter needs no baseline");
    }
}
