package io.gpumeter.launcher.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmbeddedDatabaseTest {

    @TempDir
    Path temp;

    @Test
    void dataSurvivesARestartAndFreshWipesIt() throws Exception {
        Path data = temp.resolve("pgdata");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false)) {
            assertTrue(Files.isRegularFile(data.resolve("PG_VERSION")));
            execute(db.connection(), "create table ledger_probe (id int primary key, note text)");
            execute(db.connection(), "insert into ledger_probe values (1, 'kept')");
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false)) {
            assertEquals("kept", queryNote(db.connection()));
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, true)) {
            SQLException missing = assertThrows(SQLException.class, () -> queryNote(db.connection()));
            assertTrue(missing.getMessage().contains("ledger_probe"), missing.getMessage());
        }
    }

    @Test
    void aDataDirectoryInUseIsRefusedAndConnectionUrlsMatch() throws Exception {
        Path data = temp.resolve("busy");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false)) {
            IllegalStateException busy = assertThrows(IllegalStateException.class,
                    () -> EmbeddedDatabase.start(data, 0, true));
            assertTrue(busy.getMessage().contains("in use"), busy.getMessage());
            DatabaseConnection c = db.connection();
            assertEquals("jdbc:postgresql://localhost:" + db.port() + "/postgres", c.jdbcUrl());
            assertEquals("postgresql://localhost:" + db.port() + "/postgres", c.reactiveUrl());
            execute(c, "select 1");
        }
        EmbeddedDatabase.wipe(data);
        assertFalse(Files.exists(data));
    }

    @Test
    void aConnectionMustBeAPostgresJdbcUrl() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new DatabaseConnection("postgresql://localhost/x", "u", "p"));
        assertTrue(e.getMessage().contains("jdbc:postgresql://"));
    }

    private static void execute(DatabaseConnection c, String sql) throws SQLException {
        try (Connection connection = DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password());
             Statement statement = connection.createStatement()) {
            statement.execute(sql);
        }
    }

    private static String queryNote(DatabaseConnection c) throws SQLException {
        try (Connection connection = DriverManager.getConnection(c.jdbcUrl(), c.user(), c.password());
             Statement statement = connection.createStatement();
             ResultSet rs = statement.executeQuery("select note from ledger_probe where id = 1")) {
            rs.next();
            return rs.getString(1);
        }
    }
}
