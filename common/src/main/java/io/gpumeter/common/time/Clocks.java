package io.gpumeter.common.time;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

import java.time.Clock;

/**
 * The one source of "now" in every service: beans inject a {@link Clock} instead of reading the system time, so a
 * test can put a fixed or stepping clock in its place by producing its own.
 */
@ApplicationScoped
public class Clocks {

    @Produces
    @Singleton
    @DefaultBean
    public Clock clock() {
        return Clock.systemUTC();
    }
}
