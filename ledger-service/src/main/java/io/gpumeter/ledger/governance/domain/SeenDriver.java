package io.gpumeter.ledger.governance.domain;

import java.time.Instant;

/** A driver version a data path saw on a card: when it was first and last seen there. */
public record SeenDriver(String node, String gpuUuid, String source, String version, Instant firstSeen,
                         Instant lastSeen) {
}
