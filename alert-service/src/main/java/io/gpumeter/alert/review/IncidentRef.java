package io.gpumeter.alert.review;

import java.time.Instant;

/**
 * One incident as the ledger serves it ({@code GET /api/v1/failures/incidents}, {@code …/incidents/{id}}), keyed by
 * its stable {@code id}; kept in a review as it was when the review was written.
 */
public record IncidentRef(String id, String cluster, String cause, String rootCauseClass, String scope, String node,
                          String gpuUuid, String namespace, String pod, Instant startedAt, Instant recoveredAt,
                          Instant endedAt, boolean open, Integer occurrences, String evidence) {

    /** What the incident happened to, as a page names it: the pod (namespace/name), else the card or the node. */
    public String subject() {
        if (pod != null && !pod.isBlank()) {
            return namespace == null ? pod : namespace + "/" + pod;
        }
        if (gpuUuid != null && !gpuUuid.isBlank()) {
            return gpuUuid + (node == null ? "" : " on " + node);
        }
        return node == null ? "(no subject)" : node;
    }
}
