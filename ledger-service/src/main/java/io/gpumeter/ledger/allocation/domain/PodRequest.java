package io.gpumeter.ledger.allocation.domain;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * What a pod asked for, in card-equivalents, from its creation until it ended (null while it still exists),
 * attributed as of its creation.
 */
public record PodRequest(String cluster, String podUid, String namespace, String pod, Instant requestedAt,
                         Instant until, BigDecimal requestedFraction, String tenant, String team, String project) {
}
