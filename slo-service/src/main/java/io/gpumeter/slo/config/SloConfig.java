package io.gpumeter.slo.config;

import io.gpumeter.common.config.RetentionConfig;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
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

    /** Jitter event detection. */
    Jitter jitter();

    /** Interference factor queries. */
    Interference interference();

    /** Tenant selectors: which pods belonged to a tenant, from the ledger. */
    Tenants tenants();

    /** Attainment breakdowns to cards and nodes. */
    Breakdown breakdown();

    /** How long latency minutes and the hours folded from them are kept. */
    RetentionConfig retention();

    /** What changed before a jitter event or a burning SLO, and a change's jitter impact, from the ledger's change book. */
    Changes changes();

    /** Triage of a slow inference service: what is looked at, and when a rise counts. */
    TriageWindows triage();

    /** The capacity plan and the commitments it makes (docs/adr/0023-the-commitment-model-lives-in-slo-service.md). */
    Capacity capacity();

    /** How the capacity plan reads history, which floors its margins keep and what gives first per shape. */
    interface Capacity {

        /** Days of daily history a trend is fitted on (a request may ask for another with history=). */
        @WithDefault("56d")
        String history();

        /** Share of usable cards allocated-hours demand may fill: cards = GPU-hours per day / 24 h / this. */
        @WithDefault("0.85")
        double targetUtilization();

        /** Normal quantile of the forecast's and the slope's intervals (1.96 = 95%). */
        @WithDefault("1.96")
        double intervalZ();

        /** The least each margin holds back, as a share of capacity, whatever was measured. */
        Floors floors();

        /**
         * What gives first when a shape's demand exceeds its commitment, per workload class (inference, training,
         * notebook, batch, other): queue, throttle, preempt or degrade (to a smaller form).
         */
        Map<String, String> degrade();

        /** The same per request shape (whole, mig-3g.40gb, hami, dra:…), which wins over the class's. */
        @WithName("degrade-shape")
        Map<String, String> degradeShape();

        /** How many of the latest passing acceptance runs are searched for a service's throughput at its SLO. */
        @WithDefault("200")
        int acceptanceRuns();
    }

    /** Configured floors of the three margins. */
    interface Floors {

        @WithDefault("0")
        double jitter();

        @WithDefault("0.02")
        double failures();

        @WithDefault("0")
        double peaks();
    }

    /** How a service's slow spell is looked for and its cause decided. */
    interface TriageWindows {

        /** How far before {@code at} a jitter event or a burning SLO makes the service slow at {@code at}. */
        @WithDefault("PT1H")
        Duration lookBack();

        /** The span before a slow spell its request rate is compared with. */
        @WithDefault("PT1H")
        Duration baseline();

        /** The service's own load rose when its request rate in the spell is at least this many times the baseline's. */
        @WithDefault("1.5")
        double loadRise();

        /**
         * A neighbour's activity rose when its own DRAM_ACTIVE or SM_ACTIVE (a ratio, 0..1) just before the spell is at
         * least this much above its earlier mean.
         */
        @WithDefault("0.1")
        double minActivityRise();
    }

    /** The change book read from the ledger. */
    interface Changes {

        /**
         * How far before a jitter event's start, or a firing SLO's status, the changes it carries reach; the pods of a
         * firing SLO are placed on their nodes over the same span.
         */
        @WithDefault("P1D")
        Duration lookBack();

        /** Longest span (both windows together) a change's jitter impact counts events over. */
        @WithDefault("P14D")
        Duration maxImpactSpan();
    }

    /** Reading pods' tenants from the ledger. */
    interface Tenants {

        /** Pod-hours whose tenant is remembered (least recently used go first). */
        @WithDefault("200000")
        int cacheSize();

        /**
         * How long after an hour ends a pod the ledger did not know in it is remembered as unknown; until then it is
         * asked again, since the pod's facts may still be on their way.
         */
        @WithDefault("PT15M")
        Duration unknownSettle();
    }

    /** Attainment breakdown limits. */
    interface Breakdown {

        /** Longest window one breakdown may span: its pods are placed on their cards through the ledger. */
        @WithDefault("P7D")
        Duration maxWindow();
    }

    /** Jitter events: minutes whose p99 is over k x an SLO's threshold. */
    interface Jitter {

        /** k: a minute is bad when its p99 is strictly above k x the SLO's thresholdMs. */
        @WithDefault("2")
        BigDecimal factor();

        /** How often detection runs on its own (a Quarkus duration such as 1m; off disables it). */
        @WithDefault("1m")
        String every();

        /** How far back each scheduled detection looks; events still open are extended and refreshed. */
        @WithDefault("PT30M")
        Duration lookback();

        /** How far before an event's start and after its end the neighbours' and the service's curves reach. */
        @WithDefault("PT10M")
        Duration curveMargin();

        /** Longest window one detection request may span. */
        @WithDefault("P1D")
        Duration maxDetectionWindow();
    }

    /** Interference factor limits. */
    interface Interference {

        /** Longest window one query may span. */
        @WithDefault("P1D")
        Duration maxWindow();
    }

    /** Metric and label names of the exported Prometheus rules. */
    interface Rules {

        /** The label that carries the service an SLO selects. */
        @WithDefault("service")
        String serviceLabel();

        /**
         * The label that carries the namespace of the pod a series was scraped from (set by Prometheus's Kubernetes
         * discovery, not by the pod): a service is known by its namespace and name.
         */
        @WithDefault("namespace")
        String namespaceLabel();

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
