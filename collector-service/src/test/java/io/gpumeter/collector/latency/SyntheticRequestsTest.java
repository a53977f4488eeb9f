package io.gpumeter.collector.latency;

import io.gpumeter.collector.usage.PrometheusTextParser;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SyntheticRequestsTest {

    static final Instant T1 = Instant.parse("2026-07-01T10:00:00Z");
    static final Instant T2 = Instant.parse("2026-07-01T10:00:30Z");
    private static final VllmExposition NOTHING = new VllmExposition(Map.of(), List.of());

    static String scrape(String name) {
        try (InputStream in = SyntheticRequestsTest.class.getResourceAsStream("/latency/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static VllmExposition read(String name) {
        return VllmExposition.read(new PrometheusTextParser().parse(scrape(name)));
    }

    private static List<LatencyRecord> between(VllmExposition before, VllmExposition after, Instant at, String namespace,
                                               String pod, String service) {
        return SyntheticRequests.between(before, after, at, namespace, pod, service, 100_000);
    }

    /** An interval counting more requests than the limit (5 against 4) is refused before any record is built. */
    @Test
    void moreRequestsThanTheLimitAreRefusedWhole() {
        IllegalStateException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalStateException.class,
                () -> SyntheticRequests.between(read("vllm-scrape-1.prom"), read("vllm-scrape-2.prom"), T2, "ml",
                        "chat-0", null, 4));
        assertTrue(e.getMessage().startsWith("5 requests"), e.getMessage());
        assertEquals(5, SyntheticRequests.between(read("vllm-scrape-1.prom"), read("vllm-scrape-2.prom"), T2, "ml",
                "chat-0", null, 5).size());
    }

    private static LatencyRecord r(String service, Instant at, Double ttft, Double itl, Double e2e) {
        return new LatencyRecord(service, "ml", "chat-0", at.toString(), ttft, itl, e2e, true);
    }

    /**
     * Between scrape 1 and 2 the buckets grew by — TTFT: 2 at 0.04 s, 1 at 0.08, 1 at 0.1, 1 above 2560 (the last
     * finite bound, so 2,560,000 ms); E2E: 1 at 1.0 s, 2 at 1.5, 1 at 5.0; ITL (per token): 6 at 0.025 s, 3 at
     * 0.05, 1 at 0.075. Requests = max(5 TTFT, 4 E2E) = 5. The 10 token latencies go to the 5 records at ranks
     * floor((i + 0.5) * 10 / 5) = 1, 3, 5, 7, 9 of 25,25,25,25,25,25,50,50,50,75 → 25, 25, 25, 50, 75.
     */
    @Test
    void twoScrapesGiveTheRequestsCountedBetweenThem() {
        List<LatencyRecord> records = between(read("vllm-scrape-1.prom"), read("vllm-scrape-2.prom"),
                T2, "ml", "chat-0", null);
        assertEquals(List.of(
                r("chat-8b", T2, 40.0, 25.0, 1000.0),
                r("chat-8b", T2, 40.0, 25.0, 1500.0),
                r("chat-8b", T2, 80.0, 25.0, 1500.0),
                r("chat-8b", T2, 100.0, 50.0, 5000.0),
                r("chat-8b", T2, 2_560_000.0, 75.0, null)), records);
    }

    @Test
    void theFirstScrapeIsOnlyABaseline() {
        assertEquals(List.of(), between(NOTHING, read("vllm-scrape-1.prom"), T1, "ml", "chat-0", null));
    }

    @Test
    void nothingNewIsNoRecord() {
        VllmExposition same = read("vllm-scrape-2.prom");
        assertEquals(List.of(), between(same, same, T2, "ml", "chat-0", null));
    }

    /**
     * After a restart every bucket starts again from zero, so the counts now are all new — TTFT 1 at 0.04 s and 1 at
     * 0.06; E2E 1 at 1.0; ITL 3 at 0.025 → two requests; token ranks floor(0.5 * 3 / 2) = 0 and floor(1.5 * 3 / 2) = 2.
     */
    @Test
    void aCounterResetCountsTheNewValuesWhole() {
        Instant t3 = T2.plusSeconds(30);
        List<LatencyRecord> records = between(read("vllm-scrape-2.prom"),
                read("vllm-scrape-restarted.prom"), t3, "ml", "chat-0", "chat");
        assertEquals(List.of(r("chat", t3, 40.0, 25.0, 1000.0), r("chat", t3, 60.0, 25.0, null)), records);
    }

    /** The older servers' name stands in for inter-token latency: ITL +2 at 0.1 s; TTFT +2 at 0.25; E2E +2 at 2.5. */
    @Test
    void theOlderTimePerOutputTokenNameIsReadAsInterTokenLatency() {
        List<LatencyRecord> records = between(read("vllm-scrape-old-names-1.prom"),
                read("vllm-scrape-old-names-2.prom"), T2, "ml", "chat-0", null);
        assertEquals(List.of(r("chat-8b", T2, 250.0, 100.0, 2500.0), r("chat-8b", T2, 250.0, 100.0, 2500.0)), records);
    }

    /** Scrape 2 without its ITL histogram: the records carry TTFT and E2E only. */
    @Test
    void aMissingHistogramLeavesItsLatencyOut() {
        String withoutItl = scrape("vllm-scrape-2.prom").lines()
                .filter(l -> !l.contains("inter_token_latency")).reduce("", (a, b) -> a + b + "\n");
        List<LatencyRecord> records = between(read("vllm-scrape-1.prom"),
                VllmExposition.read(new PrometheusTextParser().parse(withoutItl)), T2, "ml", "chat-0", null);
        assertEquals(5, records.size());
        assertTrue(records.stream().allMatch(r -> r.itlMs() == null));
        assertEquals(List.of(1000.0, 1500.0, 1500.0, 5000.0), records.stream().map(LatencyRecord::e2eMs)
                .filter(v -> v != null).toList());
    }

    /** A histogram that first shows up in the later scrape only sets its baseline: its whole count is not new. */
    @Test
    void aHistogramNewInTheLaterScrapeIsOnlyABaseline() {
        String withoutE2e = scrape("vllm-scrape-1.prom").lines()
                .filter(l -> !l.contains("e2e_request_latency")).reduce("", (a, b) -> a + b + "\n");
        List<LatencyRecord> records = between(
                VllmExposition.read(new PrometheusTextParser().parse(withoutE2e)), read("vllm-scrape-2.prom"), T2,
                "ml", "chat-0", null);
        assertEquals(5, records.size(), "the five TTFT observations");
        assertTrue(records.stream().allMatch(r -> r.e2eMs() == null));
    }

    /** Two engines of one model serve one service: 1 TTFT at 0.04 s on engine 0 and 2 at 0.1 s on engine 1. */
    @Test
    void enginesOfOneModelAddUp() {
        String before = histogram("0", 0, 0) + histogram("1", 0, 0);
        String after = histogram("0", 1, 0) + histogram("1", 0, 2);
        List<LatencyRecord> records = between(parse(before), parse(after), T2, "ml", "chat-0", null);
        assertEquals(List.of(r("m", T2, 40.0, null, null), r("m", T2, 100.0, null, null), r("m", T2, 100.0, null, null)),
                records);
    }

    private static VllmExposition parse(String text) {
        return VllmExposition.read(new PrometheusTextParser().parse(text));
    }

    private static String histogram(String engine, int at40ms, int at100ms) {
        String n = "vllm:time_to_first_token_seconds_bucket{engine=\"" + engine + "\",model_name=\"m\",le=\"";
        return n + "0.04\"} " + at40ms + "\n" + n + "0.1\"} " + (at40ms + at100ms) + "\n" + n + "+Inf\"} "
                + (at40ms + at100ms) + "\n";
    }

    @Test
    void unusableSeriesAreNamedAndLeftOut() {
        String text = "vllm:e2e_request_latency_seconds_bucket{model_name=\"m\",le=\"1.0\"} 3\n"
                + "vllm:time_to_first_token_seconds_bucket{model_name=\"m\",le=\"0.1\"} 3\n"
                + "vllm:time_to_first_token_seconds_bucket{model_name=\"m\",le=\"+Inf\"} 2\n"
                + "vllm:inter_token_latency_seconds_bucket{model_name=\"m\",le=\"fast\"} 1\n"
                + "vllm:inter_token_latency_seconds_bucket{model_name=\"m\",le=\"+Inf\"} 1\n";
        VllmExposition exposition = parse(text);
        assertEquals(Map.of(), exposition.histograms());
        assertEquals(3, exposition.problems().size(), exposition.problems().toString());
        assertTrue(exposition.problems().get(0).contains("no le=\"+Inf\" bucket"), exposition.problems().get(0));
        assertTrue(exposition.problems().get(1).contains("is not a bucket bound"), exposition.problems().get(1));
        assertTrue(exposition.problems().get(2).contains("counts fewer than the bucket below"), exposition.problems().get(2));
    }
}
