package io.gpumeter.collector.kubernetes;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Reads a stream of Kubernetes watch events, one JSON object per line, as {@code kubectl get --raw
 * '/api/v1/pods?watch=1'} prints them. A line that is not a watch event fails the whole stream, naming the line;
 * an event whose object cannot be metered is skipped with a counted reason.
 */
public final class WatchStreamReader {

    /** A line that is not a watch event. */
    public static final class MalformedLine extends RuntimeException {
        private final long line;

        MalformedLine(long line, String detail) {
            super("line " + line + ": " + detail, null, false, false);
            this.line = line;
        }

        public long line() {
            return line;
        }
    }

    /** Too many lines for one request. */
    public static final class TooManyLines extends RuntimeException {
        TooManyLines(int max) {
            super("a replay request may carry at most " + max + " lines; split the stream", null, false, false);
        }
    }

    /** Lines parsed together by one task: large enough that handing a block over costs nothing next to its parsing. */
    static final int BLOCK = 500;

    /**
     * The bytes of a block, unless one line alone is longer. A block that grew to hold 500 lines of a replay took 1.75
     * MB in three arrays, two of them humongous objects in G1 (half a region of a small heap, 512 KB, or more), which
     * the collector allocates straight into the old generation: this allocation was a sixth of the collector's.
     */
    static final int BLOCK_BYTES = 1 << 18;

    private final int maxLines;
    private final Executor parsers;
    private final int parallelism;

    /** Reads on the calling thread alone. */
    public WatchStreamReader(int maxLines) {
        this(maxLines, Runnable::run, 1);
    }

    /**
     * Parses blocks of lines on {@code parsers}, up to {@code parallelism} at once, while this thread reads the next:
     * a replay's lines are independent until their facts are gathered, which happens in line order. At most
     * {@code parallelism + 1} blocks are held at a time.
     */
    public WatchStreamReader(int maxLines, Executor parsers, int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism must be at least 1");
        }
        this.maxLines = maxLines;
        this.parsers = parsers;
        this.parallelism = parallelism;
    }

    /**
     * Reads every line into the sink, in line order; returns the number of non-empty lines. The first malformed line
     * in the stream fails it, as when read one line after the other; too many lines fail it only when no line before
     * the limit was malformed.
     */
    public int read(InputStream body, Instant observedAt, FactSink sink) throws IOException {
        ByteLines lines = new ByteLines(body);
        Deque<Block> parsing = new ArrayDeque<>();
        Deque<byte[]> spare = new ArrayDeque<>(); // the arrays of blocks gathered, for the blocks read next
        int events = 0;
        long lineNumber = 0;
        Block block = new Block(spare);
        try {
            while (lines.next()) {
                lineNumber++;
                if (isBlank(lines.buffer(), lines.start(), lines.length())) {
                    continue;
                }
                if (++events > maxLines) {
                    while (!parsing.isEmpty()) {
                        gather(parsing.removeFirst(), sink, spare);
                    }
                    throw new TooManyLines(maxLines);
                }
                if (block.size > 0 && !block.fits(lines.length())) {
                    hand(block, observedAt, parsing, sink, spare);
                    block = new Block(spare);
                }
                if (block.add(lineNumber, lines.buffer(), lines.start(), lines.length())) {
                    hand(block, observedAt, parsing, sink, spare);
                    block = new Block(spare);
                }
            }
            if (block.size > 0) {
                hand(block, observedAt, parsing, sink, spare);
            }
            while (!parsing.isEmpty()) {
                gather(parsing.removeFirst(), sink, spare);
            }
            return events;
        } finally {
            parsing.forEach(b -> b.parsed.cancel(false));
        }
    }

    private void hand(Block block, Instant observedAt, Deque<Block> parsing, FactSink sink, Deque<byte[]> spare) {
        if (parsing.size() > parallelism) {
            gather(parsing.removeFirst(), sink, spare);
        }
        FactSink into = sink.fresh();
        block.parsed = CompletableFuture.supplyAsync(() -> block.parse(observedAt, into), parsers);
        parsing.addLast(block);
    }

    /**
     * Waits for the oldest block and adds its facts; its first malformed line fails the stream. The block's array is
     * then spare: its facts hold strings of their own, nothing of the bytes they were read from.
     */
    private static void gather(Block block, FactSink sink, Deque<byte[]> spare) {
        try {
            sink.addAll(block.parsed.join());
            if (block.data.length == BLOCK_BYTES) {
                spare.push(block.data);
            }
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException cause) {
                throw cause;
            }
            if (e.getCause() instanceof Error cause) {
                throw cause;
            }
            throw e;
        }
    }

    /** Whether a line holds only whitespace, as {@link String#isBlank()} has it. */
    static boolean isBlank(byte[] data, int offset, int length) {
        for (int i = offset; i < offset + length; i++) {
            byte b = data[i];
            if (b < 0) { // not ASCII: let the characters decide
                return new String(data, offset, length, StandardCharsets.UTF_8).isBlank();
            }
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return true;
    }

    /** Consecutive non-empty lines with their line numbers, their bytes copied end to end. */
    private static final class Block {
        private byte[] data;
        private int used;
        private final int[] starts = new int[BLOCK];
        private final int[] lengths = new int[BLOCK];
        private final long[] numbers = new long[BLOCK];
        private int size;
        private CompletableFuture<FactSink> parsed;

        Block(Deque<byte[]> spare) {
            data = spare.isEmpty() ? new byte[BLOCK_BYTES] : spare.pop();
        }

        boolean fits(int length) {
            return used + length <= data.length;
        }

        /** Adds a line, growing the block only for a line longer than it; answers whether the block is now full. */
        boolean add(long number, byte[] line, int start, int length) {
            if (used + length > data.length) {
                data = Arrays.copyOf(data, used + length);
            }
            System.arraycopy(line, start, data, used, length);
            starts[size] = used;
            lengths[size] = length;
            numbers[size++] = number;
            used += length;
            return size == BLOCK;
        }

        /** Reads the block's lines into {@code sink}, an empty one reading against the request's GPU stack. */
        FactSink parse(Instant observedAt, FactSink sink) {
            for (int i = 0; i < size; i++) {
                WatchEvents.read(data, starts[i], lengths[i], numbers[i], observedAt, sink);
            }
            return sink;
        }
    }
}
