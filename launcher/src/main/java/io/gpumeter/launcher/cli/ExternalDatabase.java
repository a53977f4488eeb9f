package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.db.DatabaseConnection;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The PostgreSQL {@code up} is told to use instead of its embedded one: the URL and user from their options, else the
 * environment; the password from a file's first line, else the environment, never from an argument (ps shows those
 * to every user of the machine).
 */
final class ExternalDatabase {

    static final String URL_ENV = "GPUMETER_DB_URL";
    static final String USER_ENV = "GPUMETER_DB_USER";
    static final String PASSWORD_ENV = "GPUMETER_DB_PASSWORD";

    private ExternalDatabase() {
    }

    /** The connection the options and environment name; empty when neither names a URL. */
    static Optional<DatabaseConnection> named(String dbUrl, String dbUser, Path passwordFile, Map<String, String> env) {
        Optional<String> url = Optional.ofNullable(dbUrl).or(() -> Optional.ofNullable(env.get(URL_ENV)))
                .filter(u -> !u.isBlank());
        if (url.isEmpty()) {
            return Optional.empty();
        }
        String user = dbUser != null ? dbUser : env.getOrDefault(USER_ENV, "postgres");
        try {
            return Optional.of(new DatabaseConnection(url.get(), user, password(passwordFile, env)));
        } catch (IllegalArgumentException e) {
            throw new UsageException("--db-url: " + e.getMessage());
        }
    }

    /** The file's first line when one is named, else the environment's; never an argument. */
    private static String password(Path file, Map<String, String> env) {
        if (file == null) {
            return env.getOrDefault(PASSWORD_ENV, "");
        }
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UsageException("--db-password-file: cannot read " + file.toAbsolutePath());
        }
        String line = text.lines().findFirst().orElse("");
        if (line.isEmpty()) {
            throw new UsageException("--db-password-file: " + file.toAbsolutePath()
                    + " is empty; its first line is the password");
        }
        return line;
    }
}
