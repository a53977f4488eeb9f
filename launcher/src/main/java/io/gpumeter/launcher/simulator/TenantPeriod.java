package io.gpumeter.launcher.simulator;

import java.time.Instant;

/** From {@code since} on, a namespace carries tenant label {@code tenant}. */
public record TenantPeriod(String tenant, Instant since) {
}
