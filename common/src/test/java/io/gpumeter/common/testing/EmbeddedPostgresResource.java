package io.gpumeter.common.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Starts a real PostgreSQL server from Maven-served binaries for a service's tests and points the
 * reactive and JDBC (Flyway) datasources at it.
 */
public class EmbeddedPostgresResource implements QuarkusTestResourceLifecycleManager {

    private EmbeddedPostgres postgres;

    @Override
    public Map<String, String> start() {
        try {
            postgres = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
        }
        int port = postgres.getPort();
        return Map.of(
                "quarkus.datasource.reactive.url", "postgresql://localhost:" + port + "/postgres",
                "quarkus.datasource.jdbc.url", "jdbc:postgresql://localhost:" + port + "/postgres",
                "quarkus.datasource.username", "postgres",
                "quarkus.datasource.password", "postgres");
    }

    @Override
    public void stop() {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
