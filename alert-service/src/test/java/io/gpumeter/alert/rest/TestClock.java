package io.gpumeter.alert.rest;

import io.gpumeter.common.testing.MutableClock;
import jakarta.enterprise.inject.Alternative;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;

/**
 * The service's clock for a test profile that enables it: the system's, moved on by the tests where the code under
 * test has to see time pass (a back-off running out, an evaluation growing old) without the test sleeping.
 */
@Alternative
public class TestClock {

    static final MutableClock CLOCK = new MutableClock();

    @Produces
    @Singleton
    Clock clock() {
        return CLOCK;
    }
}
