package io.gpumeter.collector.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a stream into lines of bytes where {@link java.io.BufferedReader#readLine()} splits characters: at a line
 * feed, a carriage return, or both together. A replay's lines are parsed from their UTF-8 bytes, so decoding them into
 * strings first would be wasted work. The current line is a view into a buffer that the next call may overwrite.
 */
final class ByteLines {

    private final InputStream in;
    private byte[] buffer = new byte[1 << 16];
    /** The unread bytes are [next, limit). */
    private int next;
    private int limit;
    private boolean ended;
    /** The last line ended at a carriage return, so a line feed right after it belongs to that line's end. */
    private boolean afterCarriageReturn;

    private int start;
    private int length;

    ByteLines(InputStream in) {
        this.in = in;
    }

    /** Moves to the next line; false at the end of the stream. */
    boolean next() throws IOException {
        if (afterCarriageReturn) {
            while (next == limit) {
                if (!fill()) {
                    return false;
                }
            }
            if (buffer[next] == '\n') {
                next++;
            }
            afterCarriageReturn = false;
        }
        int scanned = next;
        while (true) {
            for (int i = scanned; i < limit; i++) {
                byte b = buffer[i];
                if (b == '\n' || b == '\r') {
                    start = next;
                    length = i - next;
                    next = i + 1;
                    afterCarriageReturn = b == '\r';
                    return true;
                }
            }
            int kept = limit - next;
            if (!fill()) {
                if (next == limit) {
                    return false;
                }
                start = next;
                length = limit - next;
                next = limit;
                return true;
            }
            scanned = kept; // fill() moved the unread bytes to the buffer's start
        }
    }

    byte[] buffer() {
        return buffer;
    }

    int start() {
        return start;
    }

    int length() {
        return length;
    }

    /** Moves the unread bytes to the front, growing the buffer if they fill it, and reads more; false at the end. */
    private boolean fill() throws IOException {
        if (ended) {
            return false;
        }
        int kept = limit - next;
        if (kept == buffer.length) {
            buffer = Arrays.copyOf(buffer, buffer.length * 2);
        } else if (next > 0) {
            System.arraycopy(buffer, next, buffer, 0, kept);
        }
        next = 0;
        limit = kept;
        int read = in.read(buffer, limit, buffer.length - limit);
        if (read < 0) {
            ended = true;
            return false;
        }
        limit += read;
        return true;
    }
}
