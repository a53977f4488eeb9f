package io.gpumeter.ledger.hami.domain;

import java.time.Instant;

/**
 * A HAMi grant a pod's annotations name but the ledger did not book ({@code HAMI_GRANT_UNVERIFIED}), attributed as
 * the pod's allocation would have been at its start.
 *
 * @param check  the first check the grant failed; {@link HamiCheck#NODE_NOT_KNOWN} while it waits for its node
 * @param detail what the check found, in words
 * @param until  the end of the pod's allocation, null while held
 */
public record GrantFinding(String cluster, String podUid, String namespace, String pod, String node, String gpuUuid,
                           long memoryMib, int cores, HamiCheck check, String detail, Instant since, Instant until,
                           String tenant, String team, String project) {

    public static final String KIND = "HAMI_GRANT_UNVERIFIED";
}
