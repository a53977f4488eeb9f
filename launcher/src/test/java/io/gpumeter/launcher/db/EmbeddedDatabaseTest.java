package io.gpumeter.launcher.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class EmbeddedDatabaseTest {

    private static final String PASSWORD = "Kx9-generated_password-2f";

    @TempDir
    Path temp;

    @Test
    void everyConnectionGivesThePasswordAndTheNextStartOpensWithTheSameOne() throws Exception {
        Path data = temp.resolve("pgdata");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false, PASSWORD)) {
            DatabaseConnection c = db.connection();
            assertEquals(PASSWORD, c.password());
            assertRefused(c.jdbcUrl(), null);
            assertRefused(c.jdbcUrl(), "");
            assertRefused(c.jdbcUrl(), "postgres");
            execute(c, "create table kept (n int)");
            List<String> hba = Files.readAllLines(data.resolve("pg_hba.conf"));
            assertFalse(PgPassword.trusting(hba), "every rule wants the password: " + hba);
            assertTrue(hba.stream().noneMatch(l -> !l.strip().startsWith("#") && l.contains("trust")), String.join("\n", hba));
            String password = PASSWORD;
            assertTrue(ProcessHandle.allProcesses().noneMatch(p -> p.info().commandLine().orElse("").contains(password)),
                    "no process shows the password on its command line");
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false, PASSWORD)) {
            execute(db.connection(), "select n from kept");
            assertRefused(db.connection().jdbcUrl(), null);
        }
        long t0 = System.nanoTime();
        IOException other = assertThrows(IOException.class, () -> EmbeddedDatabase.start(data, 0, false, "another-password"));
        assertTrue(other.getMessage().contains("another password"), other.getMessage());
        assertTrue(System.nanoTime() - t0 < 10_000_000_000L, "refused before the server's start-up wait");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false, PASSWORD)) {
            execute(db.connection(), "select n from kept");
        }
    }

    @Test
    void aDataDirectoryThatTrustedEveryLocalConnectionIsSwitchedToThePassword() throws Exception {
        Path data = temp.resolve("trusting");
        // How gpumeter made its data directories before they had passwords.
        try (EmbeddedPostgres old = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .setRegisterShutdownHook(false).start()) {
            old.getPostgresDatabase().getConnection().close();
        }
        assertTrue(PgPassword.trusting(Files.readAllLines(data.resolve("pg_hba.conf"))));
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false, PASSWORD)) {
            assertRefused(db.connection().jdbcUrl(), null);
            assertRefused(db.connection().jdbcUrl(), "postgres");
            execute(db.connection(), "select 1");
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false, PASSWORD)) {
            execute(db.connection(), "select 1");
        }
    }

    @Test
    void trustIsAnyRuleWithoutTheScramMethod() {
        assertFalse(PgPassword.trusting(PgPassword.HBA.lines().toList()));
        assertFalse(PgPassword.trusting(List.of("# host all all 0.0.0.0/0 trust", "", "local all all scram-sha-256")));
        assertTrue(PgPassword.trusting(List.of("local all all scram-sha-256", "host all all 127.0.0.1/32 trust")));
        assertTrue(PgPassword.trusting(List.of("host all all ::1/128 md5")), "md5 is not the SCRAM password");
        assertTrue(PgPassword.trusting(List.of("local all all peer")));
    }

    private static void assertRefused(String jdbcUrl, String password) {
        SQLException e = assertThrows(SQLException.class, () -> {
            Properties login = new Properties();
            login.setProperty("user", "postgres");
            if (password != null) {
                login.setProperty("password", password);
            }
            DriverManager.getConnection(jdbcUrl, login).close();
        }, "a connection with password " + password);
        assertTrue(e.getMessage().contains("password"), e.getMessage());
    }

    @Test
    void dataSurvivesARestartAndFreshWipesIt() throws Exception {
        Path data = temp.resolve("pgdata");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false, PASSWORD)) {
            assertTrue(Files.isRegularFile(data.resolve("PG_VERSION")));
            execute(db.connection(), "create table ledger_probe (id int primary key, note text)");
            execute(db.connection(), "insert into ledger_probe values (1, 'kept')");
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false, PASSWORD)) {
            assertEquals("kept", queryNote(db.connection()));
        }
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, true, PASSWORD)) {
            SQLException missing = assertThrows(SQLException.class, () -> queryNote(db.connection()));
            assertTrue(missing.getMessage().contains("ledger_probe"), missing.getMessage());
        }
    }

    @Test
    void aDataDirectoryInUseIsRefusedAndConnectionUrlsMatch() throws Exception {
        Path data = temp.resolve("busy");
        try (EmbeddedDatabase db = EmbeddedDatabase.start(data, 0, false, PASSWORD)) {
            IllegalStateException busy = assertThrows(IllegalStateException.class,
                    () -> EmbeddedDatabase.start(data, 0, true, PASSWORD));
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
