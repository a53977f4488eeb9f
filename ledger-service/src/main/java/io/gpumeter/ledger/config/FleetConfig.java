package io.gpumeter.ledger.config;

import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.List;

/**
 * The fleet-wide views: the request shapes and MIG profiles free capacity is probed with, the node pools, and the
 * gauges served on /q/metrics. Each group is a child of gpumeter.ledger.
 */
public interface FleetConfig {

    interface Fragmentation {
        /** Typical vGPU request shapes as GiB:weight; the weights make the overall figure. */
        @WithDefault("10:1,20:1,30:1")
        List<String> shapeMix();

        /** MIG profiles requests ask for; free slices that fit none of them are stranded. */
        @WithDefault("2g.20gb,3g.40gb")
        List<String> migProfiles();

        /**
         * Node labels naming a node pool, first present wins; the card model is the pool otherwise. The change book
         * names each node change's pool by them too.
         */
        @WithDefault("gpumeter.io/pool,cloud.google.com/gke-nodepool,eks.amazonaws.com/nodegroup,kubernetes.azure.com/agentpool,karpenter.sh/nodepool")
        List<String> poolLabels();
    }

    interface Gauges {
        /** How often the fleet gauges are recomputed; "off" disables the job. */
        @WithDefault("60s")
        String every();

        /** How long after a minute ends its usage is taken as complete. */
        @WithDefault("PT30S")
        Duration usageDelay();
    }

    /** The day books of reports (DayBooks). */
    interface DayBooks {
        /** How often the changes every stored answer has seen are forgotten; "off" disables the job. */
        @WithDefault("1m")
        String pruneEvery();

        /** How long a day's stored answer is kept after it was stored. */
        @WithDefault("P40D")
        Duration keep();
    }
}
