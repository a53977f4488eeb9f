package io.gpumeter.alert.domain;

import java.time.Instant;

/**
 * An episode the ledger found: SOFT or HARD over-use of an allocation, BYPASS (use with no allocation), DRIFT (HAMi's
 * books disagree with the card). {@code end} is null while it lasts.
 */
public record ViolationEpisode(String kind, String resource, String gpuUuid, String namespace, String pod,
                               Instant start, Instant end, Double peakRatio) {

    /** Whether the episode lasted into [since, …). */
    public boolean lastsInto(Instant since) {
        return end == null || !end.isBefore(since);
    }
}
