package io.gpumeter.common.fact;

import java.time.Instant;
import java.util.List;

/**
 * The samples of one series within one minute, gathered before delivery so the ledger writes the minute's rollup
 * once instead of once per scrape. Each value keeps its own instant ({@code minute} plus {@code millis[i]}), so a
 * partial says exactly what the samples it replaces said; the ledger counts each second of the minute at most
 * once, however often a partial is sent or however partials overlap.
 *
 * @param minute the minute, whole (no seconds)
 * @param millis milliseconds into the minute of each value, 0..59999; parallel to {@code values}
 * @param values the values, in the units of {@link UsageField}
 * @see UsageSample for the series' key and the meaning of the other components
 */
public record UsagePartial(String gpuUuid, String node, UsageScope scope, String scopeKey, String migProfile,
                           String namespace, String pod, String container, UsageField field, Instant minute,
                           int[] millis, double[] values) {

    /** How many values the partial carries (0 when its arrays are missing). */
    public int size() {
        return values == null ? 0 : values.length;
    }

    /**
     * Its earliest and its latest sample (none for an empty partial): what a sighting of its series needs, which
     * spans the minute's first to last value.
     */
    public List<UsageSample> earliestAndLatest() {
        if (size() == 0) {
            return List.of();
        }
        int first = 0;
        int last = 0;
        for (int i = 1; i < size(); i++) {
            first = millis[i] < millis[first] ? i : first;
            last = millis[i] > millis[last] ? i : last;
        }
        return List.of(sample(first), sample(last));
    }

    /** The sample at index {@code i}. */
    public UsageSample sample(int i) {
        return new UsageSample(gpuUuid, node, scope, scopeKey, migProfile, namespace, pod, container, field, values[i],
                minute.plusMillis(millis[i]));
    }
}
