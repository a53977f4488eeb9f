package io.gpumeter.slo.efficiency;

import io.gpumeter.slo.domain.TokenRate;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Generated tokens per joule of a set of pods over a window: the tokens their vLLM counters grew by, summed, over the
 * energy the ledger split to their units, summed — a ratio of sums, never a mean of the pods' ratios. Only a pod with
 * both counts: a pod's tokens without its energy (or its energy without its tokens) would make the figure up, so such
 * a pod is left out and said to be. Without any such pod there is no figure, and why; never 0.
 */
public final class TokensPerJoule {

    /** What vLLM counts and how it reaches slo-service, for a pod whose tokens were not counted. */
    static final String TOKEN_SOURCE = "vLLM's vllm:generation_tokens_total, sent as generationTokensTotal to"
            + " POST /api/v1/ingest/engine-gauges";

    /**
     * One pod's part.
     *
     * @param tokens       tokens generated between its first and last counter reading in the window; null: not counted
     * @param joules       its units' energy in the window; null: none measured (or not read)
     * @param counted      whether it is in the figure (both counted, the energy above 0)
     * @param leftOutBecause why it is not, else null
     */
    public record Pod(String namespace, String pod, Double tokens, Instant firstReading, Instant lastReading,
                      Double joules, Double allocatedGpuHours, Double energyCoverage, String energySource,
                      boolean counted, String leftOutBecause) {
    }

    /**
     * The figure over the counted pods.
     *
     * @param tokensPerJoule tokens over joules of the counted pods; null when none (then {@code missing} says why)
     * @param energyCoverage the counted pods' share of allocated GPU-hours whose energy was measured (0..1); null
     *                       without a counted pod
     * @param notes          what a reader of the figure should know: energy coverage under 1, pods left out
     */
    public record Result(Double tokensPerJoule, Double tokens, Double joules, Double energyCoverage,
                         String energySource, int podsCounted, String missing, List<String> notes, List<Pod> pods) {

        /** The notes as one sentence, or null without any. */
        public String note() {
            return notes.isEmpty() ? null : String.join("; ", notes);
        }
    }

    private TokensPerJoule() {
    }

    /**
     * @param pods          the pods ("namespace/pod") the figure is of
     * @param tokenReadings each pod's counter readings in the window
     * @param energy        each pod's energy as the ledger answered it (a pod it has no row of is missing)
     * @param energyUnread  why the ledger's GPU-hours could not be read; null when it answered
     */
    public static Result of(Collection<String> pods, Map<String, List<TokenRate.Reading>> tokenReadings,
                            Map<String, PodEnergy> energy, String energyUnread) {
        List<Pod> parts = new ArrayList<>();
        double tokens = 0;
        double joules = 0;
        double allocated = 0;
        double covered = 0;
        Set<String> sources = new TreeSet<>();
        for (String key : new TreeSet<>(pods)) {
            List<TokenRate.Reading> readings = tokenReadings.getOrDefault(key, List.of());
            Double podTokens = TokenRate.increase(readings);
            PodEnergy e = energy.get(key);
            Double podJoules = e == null ? null : e.joules();
            String leftOut = podTokens == null ? "no generation tokens counted (fewer than two readings of the"
                    + " counter in the window)"
                    : energyUnread != null ? "the ledger's GPU-hours could not be read"
                    : e == null ? "the ledger holds no GPU-hours of it in the window"
                    : podJoules == null ? "the ledger measured no energy on its cards (no DCGM total-energy counter or"
                    + " power draw)"
                    : podJoules <= 0 ? "its units' measured energy is 0 J" : null;
            Instant first = readings.stream().map(TokenRate.Reading::at).min(Comparator.naturalOrder()).orElse(null);
            Instant last = readings.stream().map(TokenRate.Reading::at).max(Comparator.naturalOrder()).orElse(null);
            int slash = key.indexOf('/');
            parts.add(new Pod(key.substring(0, slash), key.substring(slash + 1), podTokens, first, last, podJoules,
                    e == null ? null : e.allocatedGpuHours(), e == null ? null : e.coverage(),
                    e == null ? null : e.source(), leftOut == null, leftOut));
            if (leftOut == null) {
                tokens += podTokens;
                joules += podJoules;
                allocated += e.allocatedGpuHours();
                covered += e.energyCoveredHours();
                sources.addAll(e.sources());
            }
        }
        List<Pod> counted = parts.stream().filter(Pod::counted).toList();
        if (counted.isEmpty()) {
            return new Result(null, null, null, null, null, 0, missing(parts, energyUnread), List.of(),
                    List.copyOf(parts));
        }
        Double coverage = allocated > 0 ? Math.min(1, covered / allocated) : null;
        List<String> notes = new ArrayList<>();
        if (coverage != null && coverage < 1) {
            notes.add("energy was measured for " + percent(coverage) + " of the counted pods' allocated GPU-hours;"
                    + " the hours without it count no joules, so the figure reads high");
        }
        List<String> leftOut = parts.stream().filter(p -> !p.counted() && (p.tokens() != null || p.joules() != null))
                .map(p -> p.namespace() + "/" + p.pod() + " (" + p.leftOutBecause() + ")").toList();
        if (!leftOut.isEmpty()) {
            notes.add("left out: " + String.join(", ", leftOut));
        }
        return new Result(tokens / joules, tokens, joules, coverage, String.join(",", sources), counted.size(), null,
                List.copyOf(notes), List.copyOf(parts));
    }

    /** Why there is no figure: nothing to count, the ledger unread, or which half each pod lacked. */
    private static String missing(List<Pod> parts, String energyUnread) {
        List<String> names = parts.stream().map(p -> p.namespace() + "/" + p.pod()).toList();
        if (parts.isEmpty()) {
            return "no pod reported the service's requests or engine gauges in the window";
        }
        if (energyUnread != null) {
            return "the ledger's GPU-hours could not be read (" + energyUnread + "), so the energy of " + names
                    + " is not known";
        }
        if (parts.stream().allMatch(p -> p.tokens() == null)) {
            return "no generation tokens counted for " + names + " (" + TOKEN_SOURCE + ")";
        }
        if (parts.stream().allMatch(p -> p.joules() == null)) {
            return "the ledger measured no energy for " + names + " in the window (no DCGM total-energy counter or"
                    + " power draw on their cards, or no GPU-hours of them)";
        }
        return "no pod had both its tokens counted and its energy measured: " + String.join(", ", parts.stream()
                .map(p -> p.namespace() + "/" + p.pod() + " (" + p.leftOutBecause() + ")").toList());
    }

    private static String percent(double share) {
        return String.format(Locale.ROOT, "%.1f %%", share * 100).replace(".0 %", " %");
    }
}
