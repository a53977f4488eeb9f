package io.gpumeter.alert.domain;

import java.time.Instant;

/** A firing alert as stored: which rule raised it, under which fingerprint, since when. */
public record Episode(String fingerprint, String alertname, Instant startsAt) {
}
