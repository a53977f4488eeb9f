package io.gpumeter.launcher.suite;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * What a test does to a running {@link Suite} to see how the rest copes: stop, kill and restart one service, stop
 * and restart the embedded PostgreSQL. Each step holds the suite's lock, as its own start and stop do.
 */
public final class SuiteFaults {

    private static final Logger LOG = LoggerFactory.getLogger(SuiteFaults.class);

    private final Suite suite;

    SuiteFaults(Suite suite) {
        this.suite = suite;
    }

    /** Starts one service (again), e.g. after {@link #stop(Service)}, and waits until it is ready. */
    public void start(Service service) {
        synchronized (suite) {
            if (suite.processes().process(service) != null) {
                throw new SuiteException(service.module() + " is already running");
            }
            if (suite.db().connection() == null) {
                throw new SuiteException("the suite is not started");
            }
            suite.prepare(service);
            suite.awaitReady(List.of(suite.spawn(service)));
        }
    }

    /** Stops one service (SIGTERM, then SIGKILL after the grace period); the others keep running. */
    public void stop(Service service) {
        synchronized (suite) {
            ServiceProcess process = suite.processes().release(service);
            if (process != null) {
                process.terminate();
                process.awaitExitOrKill(suite.config().stopGrace());
                suite.processes().forget(service);
                LOG.info("{} stopped", service.module());
            }
        }
    }

    /**
     * Kills one service at once (SIGKILL, no shutdown hooks): a crash. {@link #start(Service)} brings it back.
     */
    public void kill(Service service) {
        synchronized (suite) {
            ServiceProcess process = suite.processes().release(service);
            if (process != null) {
                process.kill();
                suite.processes().forget(service);
                LOG.info("{} killed", service.module());
            }
        }
    }

    /**
     * Stops the embedded PostgreSQL (fast shutdown) and leaves the services running, as an outage of the database
     * would; {@link #startDatabase()} brings it back on the same data directory and port.
     */
    public void stopDatabase() {
        synchronized (suite) {
            suite.db().stopEmbedded();
        }
    }

    /** Starts the embedded PostgreSQL again after {@link #stopDatabase()}, on the port the services know. */
    public void startDatabase() {
        synchronized (suite) {
            suite.db().restartEmbedded();
        }
    }
}
