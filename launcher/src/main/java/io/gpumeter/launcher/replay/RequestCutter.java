package io.gpumeter.launcher.replay;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * Cuts a stream of watch events, one per line (ended by a line feed, CRLF too), into replay requests the collector
 * takes: at most {@code maxLines} lines and {@code maxBytes} bytes each, cut only between lines, every byte kept
 * (blank lines too, so that a line number in a refusal counts as the stream's do). A line longer than
 * {@code maxBytes} goes alone, for the collector to refuse in words.
 */
public final class RequestCutter {

    /** One request's bytes and the stream's number of its first line. */
    public record Request(int index, long firstLine, int lines, byte[] body) {
        public Span span() {
            return new Span(index, firstLine, lines);
        }
    }

    /** Where a request is in the stream, without its bytes: what is kept of it once sent. */
    public record Span(int index, long firstLine, int lines) {
        @Override
        public String toString() {
            return "request " + index + " (lines " + firstLine + "–" + (firstLine + lines - 1) + ")";
        }
    }

    private final InputStream in;
    private final int maxLines;
    private final int maxBytes;
    private final byte[] buffer = new byte[1 << 16];
    private int next;
    private int limit;
    private boolean ended;
    /** The bytes of the line that did not fit the last request, which opens the next one. */
    private ByteArrayOutputStream carried;
    private long line = 1;
    private int index;

    public RequestCutter(InputStream in, int maxLines, int maxBytes) {
        if (maxLines < 1 || maxBytes < 1) {
            throw new IllegalArgumentException("a request needs room for one line");
        }
        this.in = in;
        this.maxLines = maxLines;
        this.maxBytes = maxBytes;
    }

    /** The next request, empty at the end of the stream. */
    public Optional<Request> next() throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream(Math.min(maxBytes, 1 << 20));
        long first = line;
        int lines = 0;
        if (carried != null) {
            carried.writeTo(body);
            carried = null;
            lines = 1;
            line++;
        }
        while (lines < maxLines) {
            ByteArrayOutputStream current = new ByteArrayOutputStream();
            if (!readLine(current)) {
                break;
            }
            if (lines > 0 && body.size() + current.size() > maxBytes) {
                carried = current;
                break;
            }
            current.writeTo(body);
            lines++;
            line++;
        }
        if (lines == 0) {
            return Optional.empty();
        }
        return Optional.of(new Request(++index, first, lines, body.toByteArray()));
    }

    /** Reads one line with its end of line into {@code out}; false at the end of the stream with nothing read. */
    private boolean readLine(ByteArrayOutputStream out) throws IOException {
        boolean any = false;
        while (true) {
            if (next == limit && !fill()) {
                return any;
            }
            any = true;
            int start = next;
            while (next < limit) {
                byte b = buffer[next++];
                if (b == '\n') {
                    out.write(buffer, start, next - start);
                    return true;
                }
            }
            out.write(buffer, start, next - start);
        }
    }

    private boolean fill() throws IOException {
        if (ended) {
            return false;
        }
        int read = in.read(buffer);
        if (read < 0) {
            ended = true;
            return false;
        }
        next = 0;
        limit = read;
        return true;
    }
}
