package io.gpumeter.launcher.db;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.sql.DataSource;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

/**
 * Password authentication for the embedded PostgreSQL: the password file initdb reads, and a pg_hba.conf in which
 * every connection, local socket or TCP, must give the superuser's password (SCRAM); no line trusts anyone.
 */
final class PgPassword {

    private static final Logger LOG = LoggerFactory.getLogger(PgPassword.class);
    private static final String METHOD = "scram-sha-256";
    /** Written over a pg_hba.conf that trusted connections. */
    static final String HBA = """
            # Written by gpumeter: every connection gives the superuser's password (SCRAM); nothing is trusted.
            # TYPE  DATABASE  USER  ADDRESS       METHOD
            local   all       all                 scram-sha-256
            host    all       all   127.0.0.1/32  scram-sha-256
            host    all       all   ::1/128       scram-sha-256
            """;
    /** SQLSTATEs of a refused login: invalid_password, invalid_authorization_specification. */
    private static final Set<String> REFUSED = Set.of("28P01", "28000");
    private static final Duration RELOAD_WAIT = Duration.ofSeconds(10);
    /** A salted digest of the password a data directory opens with, so that another one fails at once. */
    private static final String CHECK_FILE = "gpumeter-password.check";
    private static final SecureRandom RANDOM = new SecureRandom();

    private PgPassword() {
    }

    static void require(String password) {
        if (password == null || password.isBlank() || password.contains("\n") || password.contains("\r")) {
            throw new IllegalArgumentException("the embedded PostgreSQL needs a password of one line");
        }
    }

    /** A file holding only the text (the password, for initdb), readable by the owner alone. */
    static Path writeOwnerOnly(Path directory, String password) throws IOException {
        Files.createDirectories(directory);
        Path file = Files.createTempFile(directory, "pwfile", ".tmp");
        try {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the directory's own protection applies
        }
        Files.writeString(file, password + "\n");
        return file;
    }

    /**
     * Fails before the server starts when the directory was opened with another password: the server would
     * otherwise refuse every login until its start-up wait runs out.
     */
    static void requireSameAs(Path dataDirectory, String password) throws IOException {
        Path check = dataDirectory.resolve(CHECK_FILE);
        if (!Files.isRegularFile(check)) {
            return;
        }
        String[] saltAndDigest = Files.readString(check).strip().split(":");
        if (saltAndDigest.length != 2 || !MessageDigest.isEqual(HexFormat.of().parseHex(saltAndDigest[1]),
                digest(HexFormat.of().parseHex(saltAndDigest[0]), password))) {
            throw new IOException("PostgreSQL in " + dataDirectory + " was made with another password than the one "
                    + "kept for it; it was made with other keys: start with --fresh, or point --data-dir elsewhere");
        }
    }

    /** Notes the password a directory just opened with, for {@link #requireSameAs}. */
    static void remember(Path dataDirectory, String password) throws IOException {
        byte[] salt = new byte[16];
        RANDOM.nextBytes(salt);
        Path tmp = writeOwnerOnly(dataDirectory, HexFormat.of().formatHex(salt) + ":"
                + HexFormat.of().formatHex(digest(salt, password)));
        Files.move(tmp, dataDirectory.resolve(CHECK_FILE), StandardCopyOption.REPLACE_EXISTING);
    }

    private static byte[] digest(byte[] salt, String password) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(salt);
            return sha.digest(password.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * A data directory made before gpumeter set passwords trusts every local connection: give the superuser the
     * password, replace pg_hba.conf, reload, and wait until a wrong password is refused.
     */
    static void requireForEveryConnection(Path dataDirectory, DataSource superuser, int port, String password)
            throws IOException {
        Path hba = dataDirectory.resolve("pg_hba.conf");
        if (Files.isRegularFile(hba) && !trusting(Files.readAllLines(hba))) {
            return;
        }
        LOG.warn("switching PostgreSQL in {} from trust to password authentication", dataDirectory);
        try (Connection c = superuser.getConnection(); Statement s = c.createStatement()) {
            // A utility statement takes no bind parameters; the literal is quoted as SQL quotes it.
            s.execute("ALTER ROLE postgres PASSWORD '" + password.replace("'", "''") + "'");
            Files.writeString(hba, HBA);
            s.execute("SELECT pg_reload_conf()");
        } catch (SQLException e) {
            throw new IOException("could not switch PostgreSQL in " + dataDirectory + " to password authentication: "
                    + e.getMessage(), e);
        }
        awaitRefusal(port);
    }

    /** Whether any rule of the file lets a connection in without the SCRAM password. */
    static boolean trusting(List<String> hbaLines) {
        return hbaLines.stream().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .anyMatch(l -> !Arrays.asList(l.split("\\s+")).contains(METHOD));
    }

    private static void awaitRefusal(int port) throws IOException {
        long deadline = System.nanoTime() + RELOAD_WAIT.toNanos();
        String url = "jdbc:postgresql://localhost:" + port + "/postgres";
        while (System.nanoTime() < deadline) {
            try (Connection ignored = DriverManager.getConnection(url, "postgres", "not-the-password")) {
                sleep();
            } catch (SQLException e) {
                if (REFUSED.contains(e.getSQLState())) {
                    return;
                }
                sleep();
            }
        }
        throw new IOException("PostgreSQL on port " + port + " still lets a wrong password in after its reload");
    }

    private static void sleep() throws IOException {
        try {
            Thread.sleep(100);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while PostgreSQL reloaded its configuration", e);
        }
    }
}
