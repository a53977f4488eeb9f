package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageScope;

import java.time.Instant;

/**
 * One row of the usage minutes as stored: a series' minute with the sum and the most of its values and the bitmask
 * of the seconds they were read in (bit n for second n).
 */
public record StoredMinute(String gpuUuid, String scope, String scopeKey, String field, Instant minute, double sum,
                           double max, long seconds) {

    /**
     * The minute as a partial {@code POST /api/v1/usage} takes, which the intake folds into a row with the same
     * seconds, sum and most: the most in the first second it was read, the rest of the sum shared equally by the
     * others (the rows keep no more than that, so no more can be given back). A container's or process's series
     * names its pod, as the exporter's label did, so that the intake sees the pod on the card again. Null for a row
     * without a second.
     *
     * @param node the card's node, where known (the rows do not keep it)
     */
    public UsagePartial partial(String node) {
        int n = Long.bitCount(seconds);
        if (n == 0) {
            return null;
        }
        int[] millis = new int[n];
        double[] values = new double[n];
        double rest = n == 1 ? 0 : Math.max(0, (sum - max) / (n - 1));
        int i = 0;
        for (int second = 0; second < 60; second++) {
            if ((seconds & (1L << second)) != 0) {
                millis[i] = second * 1000;
                values[i] = i == 0 ? max : Math.min(max, rest);
                i++;
            }
        }
        String[] key = scopeKey == null ? new String[0] : scopeKey.split("/", -1);
        UsageScope kind = UsageScope.valueOf(scope);
        boolean named = kind == UsageScope.CONTAINER && key.length == 3 || kind == UsageScope.PROCESS && key.length == 4;
        return new UsagePartial(gpuUuid, node, kind, scopeKey, null, named ? key[0] : null, named ? key[1] : null,
                named ? key[2] : null, UsageField.valueOf(field), minute, millis, values);
    }
}
