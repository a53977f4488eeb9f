package io.gpumeter.ledger.repository;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A database of its own for a test of the ledger's migrations: migrated to a version, written as a ledger of that
 * version wrote it, migrated on, then read back one column at a time. Registered as a static extension, it starts
 * before the class's tests and stops after them.
 */
final class MigrationDatabase implements BeforeAllCallback, AfterAllCallback {

    private EmbeddedPostgres postgres;

    @Override
    public void beforeAll(ExtensionContext context) throws IOException {
        postgres = EmbeddedPostgres.builder().start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws IOException {
        postgres.close();
    }

    /** Migrates the ledger's schema up to {@code target} (a version, or "latest"). */
    void migrate(String target) {
        Flyway.configure().dataSource(postgres.getPostgresDatabase()).schemas("ledger").defaultSchema("ledger")
                .locations("classpath:db/migration").target(target).load().migrate();
    }

    Connection connect() throws SQLException {
        return postgres.getPostgresDatabase().getConnection();
    }

    /** The first column of every row the query answers, as text. */
    static List<String> column(Statement sql, String query) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rows = sql.executeQuery(query)) {
            while (rows.next()) {
                out.add(rows.getString(1));
            }
        }
        return out;
    }
}
