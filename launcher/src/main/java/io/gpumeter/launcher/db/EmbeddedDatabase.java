package io.gpumeter.launcher.db;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

/**
 * A real PostgreSQL server run from Maven-served binaries, keeping its data in a directory of the project so that
 * the ledger survives restarts. Only one process can use a data directory at a time. Every connection, over TCP or
 * the local socket, authenticates with the superuser's password (SCRAM); nothing is trusted.
 */
public final class EmbeddedDatabase implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedDatabase.class);
    private static final Duration ORPHAN_STOP_WAIT = Duration.ofSeconds(15);
    /** The lock file the embedded server holds while it runs. */
    private static final String LOCK_FILE = "epg-lock";

    private static final String SUPERUSER = "postgres";
    private static final String PASSWORD_AUTH = "scram-sha-256";

    private final Path dataDirectory;
    private final EmbeddedPostgres postgres;
    private final String password;

    private EmbeddedDatabase(Path dataDirectory, EmbeddedPostgres postgres, String password) {
        this.dataDirectory = dataDirectory;
        this.postgres = postgres;
        this.password = password;
    }

    /** {@code <repo>/.gpumeter/pgdata}: where {@code ./gpumeter up} keeps the ledger. */
    public static Path defaultDataDirectory(Path repoRoot) {
        return repoRoot.resolve(".gpumeter").resolve("pgdata");
    }

    /**
     * Starts PostgreSQL on {@code dataDirectory}, creating the cluster if the directory holds none. A new cluster
     * gets {@code password} for its superuser and password authentication from initdb on; a directory made before
     * gpumeter set passwords is switched to them.
     *
     * @param port     0 for any free port
     * @param fresh    wipe the directory first
     * @param password the superuser's password: the one a directory was made with opens it again
     */
    public static EmbeddedDatabase start(Path dataDirectory, int port, boolean fresh, String password) throws IOException {
        PgPassword.require(password);
        Path dir = dataDirectory.toAbsolutePath().normalize();
        requireUnused(dir);
        if (fresh) {
            wipe(dir);
        }
        Files.createDirectories(dir);
        stopOrphan(dir);
        PgPassword.requireSameAs(dir, password);
        EmbeddedPostgres postgres;
        // initdb reads the password from a file, so that it never appears on a command line.
        Path passwordFile = PgPassword.writeOwnerOnly(dir.getParent(), password);
        try {
            postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dir)
                    .setCleanDataDirectory(false)
                    .setRegisterShutdownHook(false)
                    .setPort(port)
                    .setPGStartupWait(Duration.ofSeconds(60))
                    // Given after zonky's own "-A trust", these win: initdb takes the last of each.
                    .setLocaleConfig("auth-host", PASSWORD_AUTH)
                    .setLocaleConfig("auth-local", PASSWORD_AUTH)
                    .setLocaleConfig("pwfile", passwordFile.toString())
                    .setConnectConfig("password", password)
                    .start();
        } finally {
            Files.deleteIfExists(passwordFile);
        }
        EmbeddedDatabase db = new EmbeddedDatabase(dir, postgres, password);
        try {
            PgPassword.requireForEveryConnection(dir, postgres.getPostgresDatabase(), postgres.getPort(), password);
            PgPassword.remember(dir, password);
        } catch (IOException | RuntimeException e) {
            db.close();
            throw e;
        }
        LOG.info("PostgreSQL listening on port {}, data in {}", postgres.getPort(), dir);
        return db;
    }

    public int port() {
        return postgres.getPort();
    }

    public Path dataDirectory() {
        return dataDirectory;
    }

    /** The database {@code postgres} as superuser {@code postgres}, with its password. */
    public DatabaseConnection connection() {
        return new DatabaseConnection("jdbc:postgresql://localhost:" + port() + "/postgres", SUPERUSER, password);
    }

    /** Stops the server (fast shutdown); the data directory stays. */
    @Override
    public void close() {
        try {
            postgres.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop PostgreSQL on " + dataDirectory, e);
        }
    }

    /** Deletes a data directory and everything in it; a missing directory is fine. */
    public static void wipe(Path dataDirectory) throws IOException {
        if (!Files.exists(dataDirectory)) {
            return;
        }
        requireUnused(dataDirectory);
        stopOrphan(dataDirectory);
        try (Stream<Path> paths = Files.walk(dataDirectory)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** A running server holds a file lock on epg-lock in its data directory; refuse to touch such a directory. */
    private static void requireUnused(Path dataDirectory) throws IOException {
        Path lockFile = dataDirectory.resolve(LOCK_FILE);
        if (!Files.exists(lockFile)) {
            return;
        }
        try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
             FileLock lock = channel.tryLock()) {
            if (lock == null) {
                throw inUse(dataDirectory);
            }
        } catch (OverlappingFileLockException e) {
            throw inUse(dataDirectory);
        }
    }

    private static IllegalStateException inUse(Path dataDirectory) {
        return new IllegalStateException("PostgreSQL data directory " + dataDirectory
                + " is in use by another running gpumeter; stop it first or choose another directory");
    }

    /**
     * A launcher killed without its shutdown hook (kill -9) leaves its postmaster running on the directory, which
     * would refuse the next start; stop it if postmaster.pid names a live postgres process for this directory.
     */
    private static void stopOrphan(Path dataDirectory) throws IOException {
        Path pidFile = dataDirectory.resolve("postmaster.pid");
        if (!Files.isRegularFile(pidFile)) {
            return;
        }
        List<String> lines = Files.readAllLines(pidFile);
        if (lines.size() < 2 || !Path.of(lines.get(1).trim()).toAbsolutePath().normalize().equals(dataDirectory)) {
            return;
        }
        Optional<ProcessHandle> process;
        try {
            process = ProcessHandle.of(Long.parseLong(lines.get(0).trim()));
        } catch (NumberFormatException e) {
            return;
        }
        if (process.isEmpty() || !process.get().isAlive()
                || !process.get().info().command().map(c -> c.contains("postgres")).orElse(false)) {
            return;
        }
        LOG.warn("stopping PostgreSQL (pid {}) left running on {} by an earlier run", process.get().pid(), dataDirectory);
        ProcessHandle postmaster = process.get();
        postmaster.destroy();
        try {
            postmaster.onExit().get(ORPHAN_STOP_WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            postmaster.destroyForcibly();
        }
    }
}
