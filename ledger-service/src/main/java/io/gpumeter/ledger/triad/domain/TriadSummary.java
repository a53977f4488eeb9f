package io.gpumeter.ledger.triad.domain;

import java.util.Collection;
import java.util.EnumMap;
import java.util.Map;

/**
 * A series' triad over a window: the reading of the window's means, and how many minutes read as each signature.
 *
 * @param window          the reading of the sample-weighted means over the whole window
 * @param minutes         minutes per signature, each minute read on its own means
 * @param measuredMinutes minutes with any triad field
 */
public record TriadSummary(TriadDiagnosis window, Map<TriadSignature, Integer> minutes, int measuredMinutes) {

    /**
     * Reads a series' minutes. The first column is GR_ENGINE_ACTIVE when the series has it anywhere in the window,
     * else GPU_UTIL, and the same field serves every minute so the figures stay comparable.
     */
    public static TriadSummary of(Collection<TriadMinute> series, TriadThresholds thresholds) {
        boolean engine = series.stream().anyMatch(m -> m.grEngine() != null);
        boolean util = series.stream().anyMatch(m -> m.gpuUtil() != null);
        String firstColumn = engine ? TriadDiagnosis.GR_ENGINE_ACTIVE : util ? TriadDiagnosis.GPU_UTIL : null;
        Map<TriadSignature, Integer> minutes = new EnumMap<>(TriadSignature.class);
        TriadMinute.Sum first = null;
        TriadMinute.Sum sm = null;
        TriadMinute.Sum dram = null;
        for (TriadMinute m : series) {
            TriadMinute.Sum f = engine ? m.grEngine() : m.gpuUtil();
            TriadDiagnosis minute = TriadDiagnosis.of(firstColumn, mean(f), mean(m.sm()), mean(m.dram()), thresholds);
            minutes.merge(minute.signature(), 1, Integer::sum);
            first = add(first, f);
            sm = add(sm, m.sm());
            dram = add(dram, m.dram());
        }
        return new TriadSummary(TriadDiagnosis.of(firstColumn, mean(first), mean(sm), mean(dram), thresholds), minutes,
                series.size());
    }

    private static TriadMinute.Sum add(TriadMinute.Sum total, TriadMinute.Sum more) {
        return total == null ? more : total.plus(more);
    }

    private static Double mean(TriadMinute.Sum sum) {
        return sum == null ? null : sum.mean();
    }
}
