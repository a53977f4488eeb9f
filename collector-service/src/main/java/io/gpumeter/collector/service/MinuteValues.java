package io.gpumeter.collector.service;

import java.util.Arrays;

/**
 * The values of one series-minute in a {@link UsageBuffer}, in arrival order; {@code seconds} has bit n set when
 * second n is held.
 */
final class MinuteValues {
    long seconds;
    int[] millis = new int[4];
    double[] values = new double[4];
    int size;

    /** @return whether the value is on a second not held before */
    boolean offer(int millisIntoMinute, double value) {
        int second = millisIntoMinute / 1000;
        if ((seconds & (1L << second)) != 0) {
            for (int i = 0; i < size; i++) {
                if (millis[i] / 1000 == second && millisIntoMinute < millis[i]) {
                    millis[i] = millisIntoMinute;
                    values[i] = value;
                }
            }
            return false;
        }
        if (size == millis.length) {
            millis = Arrays.copyOf(millis, Math.min(60, size * 2));
            values = Arrays.copyOf(values, millis.length);
        }
        seconds |= 1L << second;
        millis[size] = millisIntoMinute;
        values[size++] = value;
        return true;
    }
}

