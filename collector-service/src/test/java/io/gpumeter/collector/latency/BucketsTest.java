package io.gpumeter.collector.latency;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

class BucketsTest {

    private static final double INF = Double.POSITIVE_INFINITY;

    private static Buckets b(double[] bounds, long... counts) {
        return new Buckets(bounds, counts);
    }

    @Test
    void growthIsTheDifferenceBucketByBucket() {
        double[] bounds = {0.1, 1, INF};
        assertEquals(b(bounds, 2, 0, 1), b(bounds, 5, 4, 1).since(b(bounds, 3, 4, 0)));
    }

    @Test
    void aBucketThatShrankMeansTheCountersStartedAgain() {
        double[] bounds = {0.1, 1, INF};
        assertEquals(b(bounds, 1, 9, 0), b(bounds, 1, 9, 0).since(b(bounds, 3, 4, 0)));
    }

    @Test
    void otherBoundsCountAsARestart() {
        assertEquals(b(new double[]{0.2, INF}, 1, 0), b(new double[]{0.2, INF}, 1, 0).since(b(new double[]{0.1, INF}, 0, 0)));
    }

    @Test
    void valuesSitAtTheUpperBoundInMilliseconds() {
        Buckets buckets = b(new double[]{0.025, 0.075, INF}, 1, 2, 1);
        assertEquals(25.0, buckets.valueMsAt(0));
        assertEquals(75.0, buckets.valueMsAt(1));
        assertEquals(75.0, buckets.valueMsAt(2));
        assertEquals(75.0, buckets.valueMsAt(3), "above the last finite bound: that bound");
    }

    @Test
    void onlyAnInfBucketHasNoValue() {
        assertFalse(b(new double[]{INF}, 3).valued());
    }
}
