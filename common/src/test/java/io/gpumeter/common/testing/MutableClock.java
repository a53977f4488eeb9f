package io.gpumeter.common.testing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that follows the system's plus however far a test has moved it on: code that takes the service's
 * {@link Clock} sees time pass without the test sleeping, and the database and the other services' clocks stay
 * close to it as long as the test moves it on by seconds, not days.
 */
public final class MutableClock extends Clock {

    private final AtomicReference<Duration> ahead;
    private final ZoneId zone;

    public MutableClock() {
        this(new AtomicReference<>(Duration.ZERO), ZoneOffset.UTC);
    }

    private MutableClock(AtomicReference<Duration> ahead, ZoneId zone) {
        this.ahead = ahead;
        this.zone = zone;
    }

    /** Time passes: from now on this clock reads {@code by} later than it would. */
    public void advance(Duration by) {
        ahead.accumulateAndGet(by, Duration::plus);
    }

    /** Back to the system's time. */
    public void reset() {
        ahead.set(Duration.ZERO);
    }

    @Override
    public Instant instant() {
        return Instant.now().plus(ahead.get());
    }

    @Override
    public ZoneId getZone() {
        return zone;
    }

    /** The same offset read in another zone: moving either moves both. */
    @Override
    public Clock withZone(ZoneId zone) {
        return new MutableClock(ahead, zone);
    }
}
