package io.gpumeter.collector.usage;

/** Walks a body line by line, numbering from 1, refusing over-long lines and stray carriage returns. */
final class LineReader {

    /** 64 KiB: a full 212-column nvidia-smi row is under 7,000 characters, a dcgm-exporter sample under 1,000. */
    static final int DEFAULT_MAX_LINE = 64 * 1024;

    private final String text;
    private final int maxLine;
    private int position;
    private int number;
    private String line;

    LineReader(String text, int maxLine) {
        this.text = text == null ? "" : text;
        this.maxLine = maxLine;
        // a byte-order mark from a Windows editor is not content
        this.position = this.text.startsWith("\uFEFF") ? 1 : 0;
    }

    /** Advances to the next line; false at the end (a missing final newline is fine). */
    boolean next() {
        if (position >= text.length()) {
            return false;
        }
        int newline = text.indexOf('\n', position);
        int end = newline < 0 ? text.length() : newline;
        number++;
        int stop = end > position && text.charAt(end - 1) == '\r' ? end - 1 : end;
        if (stop - position > maxLine) {
            throw new UsageParseException(number, "line is longer than " + maxLine + " characters");
        }
        line = text.substring(position, stop);
        if (line.indexOf('\r') >= 0) {
            throw new UsageParseException(number, "carriage return inside the line");
        }
        position = end + 1;
        return true;
    }

    String line() {
        return line;
    }

    int number() {
        return number;
    }
}
