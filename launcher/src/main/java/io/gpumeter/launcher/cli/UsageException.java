package io.gpumeter.launcher.cli;

/** The command line was wrong; the message says how. */
public class UsageException extends RuntimeException {

    public UsageException(String message) {
        super(message);
    }
}
