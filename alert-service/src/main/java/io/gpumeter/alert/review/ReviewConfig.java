package io.gpumeter.alert.review;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;

/** Post-incident reviews (gpumeter.alert.review.*): when an incident counts as waiting too long for its review. */
@ConfigMapping(prefix = "gpumeter.alert.review")
public interface ReviewConfig {

    /**
     * An incident that started this long ago without a review is listed by {@code reviewed=false} (its default
     * {@code olderThan}) and raises IncidentUnreviewed.
     */
    @WithDefault("24h")
    Duration unreviewedAfter();
}
