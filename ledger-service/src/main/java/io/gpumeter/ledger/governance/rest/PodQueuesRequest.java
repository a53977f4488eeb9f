package io.gpumeter.ledger.governance.rest;

import io.gpumeter.ledger.rest.HoldingsRequest;

import java.util.List;

/** The body of a pod queues read: a set of pods, optionally of one cluster. */
public record PodQueuesRequest(String cluster, List<HoldingsRequest.PodRef> pods) {
}
