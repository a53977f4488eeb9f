package io.gpumeter.ledger.violation.domain;

import java.time.Instant;

/**
 * An episode of a pod using more than it was allocated, or using a card it holds nothing on, or of the quota
 * system's books disagreeing with the device; or a finding of the derivation about facts it did not take as they
 * came.
 *
 * @param kind      SOFT: over the allocation for less than the hard threshold; HARD: sustained over it;
 *                  BYPASS: usage on a card where the pod holds no allocation; DRIFT: HAMi's per-container memory
 *                  sum and the card's FB_USED disagree beyond the tolerance; DRA_ADMIN_ACCESS_UNLABELLED: a
 *                  ResourceClaim's admin-access device booked as an ordinary one, its namespace not labelled
 *                  resource.kubernetes.io/admin-access=true then (namespace, pod and card of the holder, over the
 *                  booked time); DRA_CONSUMER_OTHER_NAMESPACE: claim versions reserved for a pod of another
 *                  namespace, which holds nothing of them (namespace: the claim's; no pod; the detail names the
 *                  claim and the pod; from the first to the last such version observed);
 *                  HAMI_GRANT_UNVERIFIED: a HAMi grant a pod's annotations name that the ledger did not book
 *                  (resource: the check it failed; detail: what the check found); HAMI_OVERCOMMIT: a card whose
 *                  booked HAMi grants promise more cores or memory than HAMi registered for it (resource: CORES
 *                  or MEMORY; peakRatio: the most promised at once divided by what was registered)
 * @param resource  CORES or MEMORY; PROCESS for a bypass seen in nvidia-smi's per-process series; CLAIM for the
 *                  DRA findings
 * @param peakRatio the worst minute's use divided by the allocation (for DRIFT: the gap divided by FB_USED); null
 *                  where there is nothing to divide by (a bypass holds no allocation)
 * @param end       the episode's end; null for a finding on a pod that still holds its allocation
 * @param detail    what a finding found, in words; null for the usage episodes
 */
public record Violation(Kind kind, String resource, String cluster, String gpuUuid, String namespace, String pod,
                        String container, Instant start, Instant end, int minutes, Double peakRatio, String detail) {

    /** A usage episode, which its kind and figures describe. */
    public Violation(Kind kind, String resource, String cluster, String gpuUuid, String namespace, String pod,
                     String container, Instant start, Instant end, int minutes, Double peakRatio) {
        this(kind, resource, cluster, gpuUuid, namespace, pod, container, start, end, minutes, peakRatio, null);
    }

    /** What kind of episode or finding. */
    public enum Kind {
        SOFT, HARD, BYPASS, DRIFT, DRA_ADMIN_ACCESS_UNLABELLED, DRA_CONSUMER_OTHER_NAMESPACE, HAMI_GRANT_UNVERIFIED,
        HAMI_OVERCOMMIT
    }
}
