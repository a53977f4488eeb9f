package io.gpumeter.billing.domain;

import java.time.Instant;
import java.util.List;

/**
 * A month whose bill is frozen: its bounds, currency and normalization as they were at close, and the rate cards
 * each stretch was priced with (energy terms included), copied so that later changes to the stored cards cannot
 * reprice it. {@code energyRecorded} is false for a month closed before billing stored energy: its lines carry none,
 * it prints without the energy columns and its corrections leave energy out.
 */
public record ClosedMonth(BillingPeriod period, String currency, Normalization normalization, Instant closedAt,
                          List<RateCardTimeline.Stretch> stretches, boolean energyRecorded) {

    public ClosedMonth {
        stretches = List.copyOf(stretches);
    }

    public String label() {
        return period.label();
    }
}
