package io.gpumeter.collector.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** What the collector watches and how it delivers facts to the ledger. */
@ConfigMapping(prefix = "gpumeter.collector")
public interface CollectorConfig {

    /** The name of the cluster every fact from this collector belongs to. */
    @WithDefault("default")
    String cluster();

    /** The live watch of the Kubernetes API. */
    Watch watch();

    /** Delivery of watched facts to the ledger. */
    Delivery delivery();

    /** Limits of the replay endpoint. */
    Replay replay();

    interface Watch {
        /** Watch Namespaces, Nodes and Pods through the configured Kubernetes API server. */
        @WithDefault("true")
        boolean enabled();

        /** Only these namespaces' pods; all namespaces when empty. */
        Optional<List<String>> namespaces();

        /** How long to wait before trying again to start a watch that failed. */
        @WithDefault("30s")
        Duration retryInterval();

        /** Informer resync period; a resync re-sends every object, which the ledger stores once. */
        @WithDefault("10m")
        Duration resync();
    }

    interface Delivery {
        /** Facts per batch sent to the ledger. */
        @WithDefault("2000")
        int batchSize();

        /** Facts held while the ledger is unreachable; the watch waits when the buffer is full. */
        @WithDefault("200000")
        int bufferCapacity();

        /** How often watched facts are sent to the ledger. */
        @WithDefault("2s")
        Duration flushInterval();
    }

    interface Replay {
        /** Most NDJSON lines one replay request may carry. */
        @WithDefault("200000")
        int maxLines();
    }
}
