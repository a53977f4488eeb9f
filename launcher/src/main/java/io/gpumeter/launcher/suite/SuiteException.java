package io.gpumeter.launcher.suite;

/** The suite could not be started or stopped; the message says what to do about it. */
public class SuiteException extends RuntimeException {

    public SuiteException(String message) {
        super(message);
    }

    public SuiteException(String message, Throwable cause) {
        super(message, cause);
    }
}
