package io.gpumeter.ledger.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** When use above an allocation, or a disagreement of the quota books with the device, is a violation. */
@ConfigMapping(prefix = "gpumeter.violations")
public interface ViolationConfig {

    /** Use up to this share above the allocation is within it (0.10 = up to 110 %). */
    @WithDefault("0.10")
    double tolerance();

    /** An over-use episode lasting this long is a hard violation; shorter ones are soft. */
    @WithDefault("5m")
    Duration hardAfter();

    /** HAMi's per-container memory sum may differ from the card's FB_USED by this share of FB_USED … */
    @WithDefault("0.10")
    double driftTolerance();

    /** … and by this many MiB before the minute counts as drift. */
    @WithDefault("512")
    double driftFloorMib();
}
