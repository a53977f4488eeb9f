package io.gpumeter.ledger.allocation.domain;

import java.time.Instant;

/**
 * A stretch of one allocation unit during which its attribution (tenant, team, project) stays the same.
 *
 * @param since    when the pod's allocation began (the segment may start later, at an attribution change)
 * @param until    when the allocation ended; null while the unit is still held
 * @param segEnd   null while the unit is still held
 */
public record AllocationSegment(String cluster, String podUid, int unitIndex, String namespace, String pod,
                                String node, AllocationUnit unit, Instant since, Instant until, Instant segStart,
                                Instant segEnd,
                                String ownerKind, String ownerName, String tenant, String team, String project) {
}
