package io.gpumeter.launcher.cli;

/**
 * Text from a service's answer made safe to print in a terminal. Pod names, events and container messages are written
 * by tenants: an escape sequence in one could move the cursor, rewrite lines above, retitle the window or hide what
 * follows, a newline could forge a line of the answer, and a bidirectional override could show text other than what
 * is there. Each such character is printed as a visible escape ({@code \x1b}, {@code \u202e}) instead.
 */
public final class TerminalText {

    private TerminalText() {
    }

    /** {@code text} with every control, format and line-separating character written as a visible escape. */
    public static String safe(String text) {
        if (text == null) {
            return "";
        }
        StringBuilder out = null;
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            int width = Character.charCount(c);
            if (unsafe(c)) {
                if (out == null) {
                    out = new StringBuilder(text.length() + 8).append(text, 0, i);
                }
                out.append(c < 0x100 ? String.format("\\x%02x", c) : String.format("\\u%04x", c));
            } else if (out != null) {
                out.appendCodePoint(c);
            }
            i += width;
        }
        return out == null ? text : out.toString();
    }

    /**
     * C0 and C1 controls and DEL (escape sequences, carriage return, backspace, newline), format characters (the
     * bidirectional overrides and isolates, zero-width characters), line and paragraph separators, and a lone surrogate.
     */
    static boolean unsafe(int c) {
        int type = Character.getType(c);
        return c < 0x20 || (c >= 0x7f && c <= 0x9f) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE;
    }
}
