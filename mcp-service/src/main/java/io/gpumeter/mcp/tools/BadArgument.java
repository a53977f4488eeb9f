package io.gpumeter.mcp.tools;

/** A tool argument that is missing, unknown or not in its format: the call's error names it and says what was wrong. */
public class BadArgument extends RuntimeException {

    private final String argument;

    public BadArgument(String argument, String detail) {
        super(detail);
        this.argument = argument;
    }

    public String argument() {
        return argument;
    }

    /** The words the tool error carries. */
    public String text() {
        return "Argument '" + argument + "': " + getMessage();
    }
}
