package io.gpumeter.launcher.suite;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * Random secrets of a local run, each generated once and kept beside the key pair in {@code <state>/keys}, readable
 * by the owner only: the Alertmanager webhook token, the embedded PostgreSQL's password and the console's session
 * key. Kept, not regenerated, so that a database made by one run opens in the next, a configured Alertmanager keeps
 * working and a console restarted keeps its users signed in.
 */
public final class LocalSecrets {

    /** Alertmanager's bearer token for alert-service's webhook. */
    public static final String WEBHOOK_TOKEN = "webhook-token";
    /** The password of the embedded PostgreSQL's superuser. */
    public static final String DATABASE_PASSWORD = "db-password";
    /** The key that seals the console's session cookies; kept, so that a restarted console keeps its sessions. */
    public static final String CONSOLE_SESSION_KEY = "console-session-key";

    private static final SecureRandom RANDOM = new SecureRandom();

    private final Path directory;

    private LocalSecrets(Path directory) {
        this.directory = directory;
    }

    public static LocalSecrets in(Path stateDirectory) {
        return new LocalSecrets(stateDirectory.resolve("keys"));
    }

    public Path file(String name) {
        return directory.resolve(name);
    }

    /** The secret kept under {@code name}, made (256 random bits, base64url) the first time it is asked for. */
    public String get(String name) {
        Path file = file(name);
        try {
            if (!Files.isRegularFile(file)) {
                create(file);
            }
            String secret = Files.readString(file).strip();
            if (secret.isEmpty()) {
                throw new IllegalStateException(file + " is empty; delete it to have a new secret generated");
            }
            return secret;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the secret " + name + " in " + directory, e);
        }
    }

    private void create(Path file) throws IOException {
        if (!Files.isDirectory(directory)) {
            Files.createDirectories(directory);
            ownerOnly(directory, "rwx------");
        }
        Path tmp = Files.createTempFile(directory, file.getFileName().toString(), ".tmp");
        try {
            // The permissions are set before the secret is written, so it is never readable by others.
            ownerOnly(tmp, "rw-------");
            Files.writeString(tmp, newSecret() + "\n");
            Files.move(tmp, file);
        } catch (FileAlreadyExistsException e) {
            // another launcher made it first: its secret is the one
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static void ownerOnly(Path path, String permissions) throws IOException {
        try {
            Files.setPosixFilePermissions(path, PosixFilePermissions.fromString(permissions));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: the directory's own protection applies
        }
    }
}
