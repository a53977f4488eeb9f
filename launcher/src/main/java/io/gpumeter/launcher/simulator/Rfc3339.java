package io.gpumeter.launcher.simulator;

import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/** Kubernetes timestamps: RFC 3339 in UTC with whole seconds, e.g. {@code 2026-11-03T09:15:00Z}. */
public final class Rfc3339 {

    private Rfc3339() {
    }

    public static String format(Instant at) {
        return at == null ? null : DateTimeFormatter.ISO_INSTANT.format(at.truncatedTo(ChronoUnit.SECONDS));
    }
}
