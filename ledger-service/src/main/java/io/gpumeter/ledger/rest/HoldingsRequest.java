package io.gpumeter.ledger.rest;

import java.util.List;

/** A bulk holdings read: the window, optionally one cluster, and the pods. */
public record HoldingsRequest(String from, String to, String cluster, List<PodRef> pods) {

    /** A pod by namespace and name. */
    public record PodRef(String namespace, String pod) {
    }
}
