package io.gpumeter.collector.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.OptionalInt;

/**
 * How what the collector gathers reaches the ledger (watched facts, usage samples) and how much one replay request may
 * carry. Each group is a child of gpumeter.collector.
 */
public interface DeliveryConfig {

    interface Delivery {
        /** Facts per batch sent to the ledger. */
        @WithDefault("2000")
        int batchSize();

        /** Facts held while the ledger is unreachable; the watch waits when the buffer is full. */
        @WithDefault("200000")
        int bufferCapacity();

        /** How often watched facts are sent to the ledger: the retries once a flush found the ledger away. */
        @WithDefault("2s")
        Duration flushInterval();

        /** How long a watched fact waits for others to share its batch before a flush starts; 0 leaves it to the interval. */
        @WithDefault("100ms")
        Duration linger();

        /**
         * Usage batches sent to the ledger at once. The ledger adds a cluster's minute rollups side by side, so a
         * second request keeps its cores busy while the first one's books are written; 1 sends one at a time.
         */
        @WithDefault("2")
        int usageInFlight();
    }

    interface Usage {
        /**
         * How often buffered usage goes to the ledger as per-minute partials, e.g. 2s; "off" (or 0) delivers each
         * push at once and answers with the ledger's receipt.
         */
        @WithDefault("2s")
        String flushInterval();

        /** Most usage values held for the ledger; a push that does not fit is a 503, nothing of it kept. */
        @WithDefault("2000000")
        int bufferCapacity();

        /** Most values in one batch to the ledger; holding this many open also starts a flush at once. */
        @WithDefault("100000")
        int batchSize();
    }

    interface Replay {
        /** Most NDJSON lines one replay request may carry. */
        @WithDefault("200000")
        int maxLines();

        /**
         * Threads that parse a replay request's lines at once; by default one per core. The facts are gathered in
         * line order whatever the number.
         */
        OptionalInt parsers();
    }
}
