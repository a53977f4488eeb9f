package io.gpumeter.collector.host;

import io.gpumeter.collector.usage.Sample;

/** What a host sample's value and time must be. */
final class HostValues {

    private HostValues() {
    }

    /** A counter is a finite number, never negative; a gauge a finite number. */
    static void check(Sample s, HostSlot slot) {
        double v = s.value();
        if (!Double.isFinite(v) || slot.counter() && v < 0) {
            throw new HostInputException(s.name(), (slot.counter() ? "counter " : "gauge ") + s.name() + s.labels()
                    + " is " + v + "; a " + (slot.counter() ? "counter is a finite number, never negative"
                    : "gauge is a finite number") + ". Nothing of this body is stored");
        }
    }

    /** The sample's own timestamp when it has one, else the time the body arrived. */
    static long at(Sample s, long receivedAtMs) {
        return s.timestampMs().isPresent() ? s.timestampMs().getAsLong() : receivedAtMs;
    }
}
