package io.gpumeter.slo.efficiency;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.slo.domain.TokenRate;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tokens per joule on a fixture worked out by hand, the energy answered in the ledger's GPU-hours shape:
 * <pre>
 * ml/chat-0  counter 1,000 at 10:00:10, 73,000 at 10:30:00, 145,000 at 10:59:50: 144,000 tokens
 *            energy 0.015 kWh in cluster c1 (0.75 GPU-h) + 0.005 kWh in c2 (0.25 GPU-h) = 0.02 kWh = 72,000 J
 * ml/chat-1  counter 5,000, 15,000 at 10:20:00, restarted to 2,000 at 10:20:30, 8,000 at 10:59:50:
 *            10,000 + 2,000 + 6,000 = 18,000 tokens; energy 0.01 kWh = 36,000 J (a HAMi half: 0.5 GPU-h)
 * the service: 162,000 tokens / 108,000 J = 1.5 tokens/J (the mean of the pods' 2.0 and 0.5 would be 1.25)
 * </pre>
 */
class TokensPerJouleTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static TokenRate.Reading at(String hhmmss, double value) {
        return new TokenRate.Reading(Instant.parse("2026-11-02T" + hhmmss + "Z"), value);
    }

    private static final Map<String, List<TokenRate.Reading>> TOKENS = Map.of(
            "ml/chat-0", List.of(at("10:30:00", 73_000), at("10:00:10", 1_000), at("10:59:50", 145_000)),
            "ml/chat-1", List.of(at("10:00:10", 5_000), at("10:20:00", 15_000), at("10:20:30", 2_000),
                    at("10:59:50", 8_000)));

    /** A row of GET /api/v1/gpu-hours?groupBy=cluster,pod as the ledger writes it (no used hours measured). */
    private static String row(String cluster, String pod, String allocated, String kWh, String coverage, String source) {
        return "{\"key\":\"" + cluster + "/" + pod + "\",\"group\":{\"cluster\":\"" + cluster + "\",\"pod\":\"" + pod
                + "\"},\"allocatedGpuHours\":" + allocated + ",\"usedGpuHours\":0,\"idleGpuHours\":" + allocated
                + ",\"usageCoverage\":0,\"activityMetric\":null,\"usageConfidence\":\"NONE\",\"usageSource\":null,"
                + "\"energyKWh\":" + kWh + ",\"energyCoverage\":" + coverage + ",\"energySource\":"
                + (source == null ? "null" : "\"" + source + "\"") + ",\"idleEnergyKWh\":null}";
    }

    private static JsonNode answer(String... rows) throws Exception {
        return JSON.readTree("[" + String.join(",", rows) + "]");
    }

    private static final List<String> PODS = List.of("ml/chat-0", "ml/chat-1");

    @Test
    void aRatioOfTheSumsOfTwoPodsTokensAndEnergy() throws Exception {
        JsonNode hours = answer(row("c1", "ml/chat-0", "0.75", "0.015", "1", "ENERGY_COUNTER"),
                row("c2", "ml/chat-0", "0.25", "0.005", "1", "ENERGY_COUNTER"),
                row("c1", "ml/chat-1", "0.5", "0.01", "1", "POWER_INTEGRAL"),
                row("c1", "other/pod", "1", "0.5", "1", "ENERGY_COUNTER"));
        TokensPerJoule.Result r = TokensPerJoule.of(PODS, TOKENS, PodEnergy.of(hours, PODS), null);
        assertEquals(1.5, r.tokensPerJoule(), 1e-12);
        assertEquals(162_000, r.tokens(), 1e-9);
        assertEquals(108_000, r.joules(), 1e-6, "another pod's row is not the service's");
        assertEquals(1.0, r.energyCoverage(), 1e-12);
        assertEquals("ENERGY_COUNTER,POWER_INTEGRAL", r.energySource());
        assertEquals(2, r.podsCounted());
        assertNull(r.missing());
        assertTrue(r.notes().isEmpty(), r.notes().toString());
        TokensPerJoule.Pod chat0 = r.pods().get(0);
        assertEquals(144_000, chat0.tokens(), 1e-9);
        assertEquals(72_000, chat0.joules(), 1e-6, "both clusters' rows of the pod");
        assertEquals(1.0, chat0.allocatedGpuHours(), 1e-12);
        assertEquals(Instant.parse("2026-11-02T10:00:10Z"), chat0.firstReading());
        assertEquals(Instant.parse("2026-11-02T10:59:50Z"), chat0.lastReading());
        assertEquals(18_000, r.pods().get(1).tokens(), 1e-9, "a restart counts the new reading whole");
    }

    /** chat-1's card measured for a quarter of its half GPU-hour: (1.0 + 0.25) / 1.5 = 83.3 % of the hours. */
    @Test
    void energyMeasuredForPartOfTheHoursIsSaid() throws Exception {
        JsonNode hours = answer(row("c1", "ml/chat-0", "1", "0.02", "1", "ENERGY_COUNTER"),
                row("c1", "ml/chat-1", "0.5", "0.01", "0.5", "POWER_INTEGRAL"));
        TokensPerJoule.Result r = TokensPerJoule.of(PODS, TOKENS, PodEnergy.of(hours, PODS), null);
        assertEquals(1.5, r.tokensPerJoule(), 1e-12, "the joules measured, never scaled up by a guess");
        assertEquals(1.25 / 1.5, r.energyCoverage(), 1e-12);
        assertEquals(0.5, r.pods().get(1).energyCoverage(), 1e-12);
        assertTrue(r.note().contains("energy was measured for 83.3 % of the counted pods' allocated GPU-hours"),
                r.note());
    }

    /** The ledger writes 0 kWh for cards it never measured: that is no energy, and no figure — never 0 tokens/J. */
    @Test
    void noEnergyIsNoFigureWithTheReason() throws Exception {
        JsonNode hours = answer(row("c1", "ml/chat-0", "1", "0", "0", null),
                row("c1", "ml/chat-1", "0.5", "0", "0", null));
        TokensPerJoule.Result r = TokensPerJoule.of(PODS, TOKENS, PodEnergy.of(hours, PODS), null);
        assertNull(r.tokensPerJoule());
        assertNull(r.joules());
        assertEquals("the ledger measured no energy for [ml/chat-0, ml/chat-1] in the window (no DCGM total-energy"
                + " counter or power draw on their cards, or no GPU-hours of them)", r.missing());
        assertNull(r.pods().get(0).joules(), "0 kWh without a source is not 0 J");

        TokensPerJoule.Result unread = TokensPerJoule.of(PODS, TOKENS, Map.of(), "no answer: HTTP 503");
        assertNull(unread.tokensPerJoule());
        assertTrue(unread.missing().startsWith("the ledger's GPU-hours could not be read (no answer: HTTP 503)"),
                unread.missing());

        TokensPerJoule.Result nothing = TokensPerJoule.of(List.of(), Map.of(), Map.of(), null);
        assertEquals("no pod reported the service's requests or engine gauges in the window", nothing.missing());
    }

    /** A pod with tokens but no GPU-hours, or energy but no tokens, is left out of both sums and named. */
    @Test
    void aPodWithOneHalfOnlyIsLeftOutAndNamed() throws Exception {
        List<String> pods = List.of("ml/chat-0", "ml/chat-1", "ml/chat-2");
        JsonNode hours = answer(row("c1", "ml/chat-0", "1", "0.02", "1", "ENERGY_COUNTER"),
                row("c1", "ml/chat-2", "1", "0.05", "1", "ENERGY_COUNTER"));
        TokensPerJoule.Result r = TokensPerJoule.of(pods, TOKENS, PodEnergy.of(hours, pods), null);
        assertEquals(144_000 / 72_000.0, r.tokensPerJoule(), 1e-12, "chat-0 alone");
        assertEquals(1, r.podsCounted());
        assertFalse(r.pods().get(1).counted());
        assertEquals("the ledger holds no GPU-hours of it in the window", r.pods().get(1).leftOutBecause());
        assertTrue(r.note().contains("left out: ml/chat-1 (the ledger holds no GPU-hours of it in the window),"
                + " ml/chat-2 (no generation tokens counted"), r.note());

        TokensPerJoule.Result none = TokensPerJoule.of(List.of("ml/chat-1", "ml/chat-2"), TOKENS,
                PodEnergy.of(hours, List.of("ml/chat-1", "ml/chat-2")), null);
        assertNull(none.tokensPerJoule());
        assertTrue(none.missing().startsWith("no pod had both its tokens counted and its energy measured:"),
                none.missing());
    }
}
