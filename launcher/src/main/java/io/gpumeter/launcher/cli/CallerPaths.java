package io.gpumeter.launcher.cli;

import java.nio.file.Path;

/**
 * Paths as the caller of {@code ./gpumeter} meant them: the script runs the launcher from the repository, so a
 * relative path on its command line is resolved against the directory the caller was in, which the script passes on.
 */
final class CallerPaths {

    static final String PROPERTY = "gpumeter.caller.dir";

    private CallerPaths() {
    }

    static Path resolve(Path path) {
        String caller = System.getProperty(PROPERTY);
        return path.isAbsolute() || caller == null || caller.isBlank() ? path : Path.of(caller).resolve(path);
    }
}
