package io.gpumeter.launcher.suite;

import io.gpumeter.launcher.db.DatabaseConnection;
import io.gpumeter.launcher.db.EmbeddedDatabase;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Optional;

/**
 * The PostgreSQL of a suite: the one given, or an embedded server that the suite starts first and stops last, and
 * that {@link SuiteFaults} may stop and restart in between. Guarded by the suite's lock.
 */
final class SuiteDatabase {

    private static final Logger LOG = LoggerFactory.getLogger(SuiteDatabase.class);

    private final SuiteConfig config;
    private final ServiceEnvironment secrets;
    private EmbeddedDatabase embedded;
    private DatabaseConnection connection;
    /** The embedded server's port while it is stopped by {@link #stopEmbedded()}. */
    private int stoppedPort;

    SuiteDatabase(SuiteConfig config, ServiceEnvironment secrets) {
        this.config = config;
        this.secrets = secrets;
    }

    /** The PostgreSQL the services use, or null before start. */
    DatabaseConnection connection() {
        return connection;
    }

    /** The embedded server while it runs. */
    Optional<EmbeddedDatabase> embedded() {
        return Optional.ofNullable(embedded);
    }

    void open() {
        if (config.externalDatabase() != null) {
            connection = config.externalDatabase();
            return;
        }
        try {
            embedded = EmbeddedDatabase.start(config.dataDirectory(), config.databasePort(), config.freshDatabase(),
                    secrets.databasePassword());
        } catch (IOException | IllegalStateException e) {
            throw new SuiteException("could not start the embedded PostgreSQL on " + config.dataDirectory() + ": "
                    + e.getMessage(), e);
        }
        connection = embedded.connection();
    }

    /** Stops the embedded server, if one runs; safe to call twice. */
    void close() {
        if (embedded != null) {
            try {
                embedded.close();
            } catch (RuntimeException e) {
                LOG.warn("PostgreSQL did not stop cleanly: {}", e.getMessage());
            }
            embedded = null;
        }
        connection = null;
    }

    /** Stops the embedded server (fast shutdown) and keeps its port for {@link #restartEmbedded()}. */
    void stopEmbedded() {
        if (embedded == null) {
            throw new SuiteException(connection == null ? "the suite is not started"
                    : "the suite runs no embedded PostgreSQL, or it is already stopped");
        }
        stoppedPort = embedded.port();
        embedded.close();
        embedded = null;
        LOG.info("PostgreSQL stopped; the services keep running");
    }

    /** Starts the embedded server again on the same data directory and the port the services know. */
    void restartEmbedded() {
        if (embedded != null || connection == null || config.externalDatabase() != null) {
            throw new SuiteException("the embedded PostgreSQL is running already or was never started");
        }
        try {
            embedded = EmbeddedDatabase.start(config.dataDirectory(), stoppedPort, false, secrets.databasePassword());
        } catch (IOException | IllegalStateException e) {
            throw new SuiteException("could not restart the embedded PostgreSQL on " + config.dataDirectory() + ": "
                    + e.getMessage(), e);
        }
    }
}
