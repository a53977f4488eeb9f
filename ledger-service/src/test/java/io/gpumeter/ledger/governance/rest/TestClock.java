package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.MutableClock;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;

/**
 * The ledger's clock in its tests: the system's, unless a test moves it on to see something fall due without
 * sleeping (and puts it back, since every test of the module shares it).
 */
public class TestClock {

    static final MutableClock CLOCK = new MutableClock();

    @Produces
    @Singleton
    Clock clock() {
        return CLOCK;
    }
}
