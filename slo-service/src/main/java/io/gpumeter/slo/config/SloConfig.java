package io.gpumeter.slo.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Optional;

/**
 * Limits of slo-service's latency intake and SLO evaluation.
 */
@ConfigMapping(prefix = "gpumeter.slo")
public interface SloConfig {

    /** Latency intake. */
    Latency latency();

    /** The longest SLO window accepted; status reads every minute of it. */
    @WithDefault("P35D")
    Duration maxWindow();

    /** What the exported Prometheus rules read. */
    Rules rules();

    /** Metric and label names of the exported Prometheus rules. */
    interface Rules {

        /** The label that carries the service an SLO selects. */
        @WithDefault("service")
        String serviceLabel();

        /** Histogram (seconds) of time to first token. */
        @WithDefault("vllm:time_to_first_token_seconds")
        String ttftHistogram();

        /** Histogram (seconds) of inter-token latency. */
        @WithDefault("vllm:inter_token_latency_seconds")
        String itlHistogram();

        /** Histogram (seconds) of end-to-end request latency. */
        @WithDefault("vllm:e2e_request_latency_seconds")
        String e2eHistogram();

        /** Counter of all requests; AVAILABILITY SLOs are left out of the rules without it. */
        Optional<String> requestsMetric();

        /** Counter of failed requests; AVAILABILITY SLOs are left out of the rules without it. */
        Optional<String> errorsMetric();
    }

    /** Latency intake limits. */
    interface Latency {

        /** Most request records one ingest body may carry; more is a 413. */
        @WithDefault("100000")
        int maxLines();

        /** Longest window a latency query may span; its minute curve has one point per minute. */
        @WithDefault("P7D")
        Duration maxQueryWindow();
    }
}
