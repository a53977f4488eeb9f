package io.gpumeter.alert.domain;

import java.time.Instant;

/** A pod that holds a unit of a card now, and since when. */
public record Holder(String namespace, String pod, String tenant, Instant since) {
}
