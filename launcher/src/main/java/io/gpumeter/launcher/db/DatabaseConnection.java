package io.gpumeter.launcher.db;

import java.util.Objects;

/**
 * Where the services find PostgreSQL: a JDBC URL (for Flyway) plus credentials; the reactive URL is derived.
 *
 * @param jdbcUrl e.g. {@code jdbc:postgresql://localhost:5432/postgres}
 */
public record DatabaseConnection(String jdbcUrl, String user, String password) {

    private static final String JDBC_PREFIX = "jdbc:postgresql://";

    public DatabaseConnection {
        Objects.requireNonNull(jdbcUrl, "jdbcUrl");
        if (!jdbcUrl.startsWith(JDBC_PREFIX)) {
            throw new IllegalArgumentException("database URL must start with " + JDBC_PREFIX + ", got '" + jdbcUrl + "'");
        }
        user = user == null ? "postgres" : user;
        password = password == null ? "" : password;
    }

    /** The same server in the reactive client's form, e.g. {@code postgresql://localhost:5432/postgres}. */
    public String reactiveUrl() {
        return jdbcUrl.substring("jdbc:".length());
    }

    @Override
    public String toString() {
        return "DatabaseConnection[" + jdbcUrl + " as " + user + "]";
    }
}
