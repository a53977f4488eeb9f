package io.gpumeter.common.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * How long a per-minute table keeps its minutes before they are folded into hours, how long the hours are kept, and
 * when the job that does it runs: the same settings for each service that rolls minutes up (the ledger's usage,
 * slo-service's latency).
 */
public interface RetentionConfig {

    /** How long rows are kept per minute; older minutes are folded into hours. Minute-resolution reads reach this far. */
    @WithDefault("P35D")
    Duration minutes();

    /** How long the hour rows are kept; older ones are deleted. */
    @WithDefault("P400D")
    Duration hours();

    /** How often the retention job runs; "off" disables it. */
    @WithDefault("1h")
    String every();

    /** How long after start-up the job first runs, so it never competes with a replica's warm-up. */
    @WithDefault("5m")
    String delay();
}
