package io.gpumeter.collector.usage;

/** Input that is not what the named producer writes; carries the 1-based line at fault. */
public final class UsageParseException extends RuntimeException {

    private final int line;
    private final String reason;

    public UsageParseException(int line, String reason) {
        // no stack trace: hostile bodies must be cheap to refuse
        super("line " + line + ": " + reason, null, false, false);
        this.line = line;
        this.reason = reason;
    }

    /** The 1-based line of the body at fault; line 1 when the body as a whole is unusable (empty, no header). */
    public int line() {
        return line;
    }

    /** What is wrong, without the line prefix. */
    public String reason() {
        return reason;
    }
}
