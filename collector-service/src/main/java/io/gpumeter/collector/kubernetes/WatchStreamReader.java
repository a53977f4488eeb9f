package io.gpumeter.collector.kubernetes;

import io.gpumeter.common.problem.JsonFault;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.gpumeter.collector.governance.GovernanceKinds;
import io.gpumeter.common.fact.WatchEventType;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Reads a stream of Kubernetes watch events, one JSON object per line, as {@code kubectl get --raw
 * '/api/v1/pods?watch=1'} prints them. A line that is not a watch event fails the whole stream, naming the line;
 * an event whose object cannot be metered is skipped with a counted reason.
 */
public final class WatchStreamReader {

    /** Reads one line; two values on a line are not a watch event. */
    private static final ObjectMapper LINES = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** Binds objects to the Kubernetes model; its nested deserializers break under FAIL_ON_TRAILING_TOKENS. */
    private static final ObjectMapper MODEL = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "Pod", Pod.class, "Node", Node.class, "Namespace", Namespace.class);

    /** Dynamic Resource Allocation kinds, read in their GA shape only (earlier versions nest requests differently). */
    static final String DRA_API = "resource.k8s.io/v1";
    private static final Map<String, Class<? extends HasMetadata>> DRA_KINDS = Map.of(
            "ResourceClaim", ResourceClaim.class, "ResourceSlice", ResourceSlice.class, "DeviceClass", DeviceClass.class);

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
        BufferedReader reader = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8), 1 << 16);
        Deque<CompletableFuture<FactSink>> parsing = new ArrayDeque<>();
        int events = 0;
        long lineNumber = 0;
        Block block = new Block();
        try {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lineNumber++;
                if (line.isBlank()) {
                    continue;
                }
                if (++events > maxLines) {
                    while (!parsing.isEmpty()) {
                        gather(parsing.removeFirst(), sink);
                    }
                    throw new TooManyLines(maxLines);
                }
                if (block.add(lineNumber, line)) {
                    hand(block, observedAt, parsing, sink);
                    block = new Block();
                }
            }
            if (block.size > 0) {
                hand(block, observedAt, parsing, sink);
            }
            while (!parsing.isEmpty()) {
                gather(parsing.removeFirst(), sink);
            }
            return events;
        } finally {
            parsing.forEach(f -> f.cancel(false));
        }
    }

    private void hand(Block block, Instant observedAt, Deque<CompletableFuture<FactSink>> parsing, FactSink sink) {
        if (parsing.size() > parallelism) {
            gather(parsing.removeFirst(), sink);
        }
        parsing.addLast(CompletableFuture.supplyAsync(() -> block.parse(observedAt), parsers));
    }

    /** Waits for the oldest block and adds its facts; its first malformed line fails the stream. */
    private static void gather(CompletableFuture<FactSink> parsed, FactSink sink) {
        try {
            sink.addAll(parsed.join());
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

    /** Consecutive non-empty lines with their line numbers. */
    private static final class Block {
        private final String[] lines = new String[BLOCK];
        private final long[] numbers = new long[BLOCK];
        private int size;

        /** Adds a line; answers whether the block is now full. */
        boolean add(long number, String line) {
            lines[size] = line;
            numbers[size++] = number;
            return size == BLOCK;
        }

        FactSink parse(Instant observedAt) {
            FactSink sink = new FactSink();
            for (int i = 0; i < size; i++) {
                readEvent(lines[i], numbers[i], observedAt, sink);
            }
            return sink;
        }
    }

    private static void readEvent(String line, long lineNumber, Instant observedAt, FactSink sink) {
        JsonNode event;
        try {
            event = LINES.readTree(line);
        } catch (JsonProcessingException e) {
            throw new MalformedLine(lineNumber, "not valid JSON (" + JsonFault.of(e).detail() + ")");
        }
        if (event == null || !event.isObject()) {
            throw new MalformedLine(lineNumber, "a watch event must be a JSON object {\"type\":…,\"object\":{…}}");
        }
        JsonNode type = event.get("type");
        if (type == null || !type.isTextual()) {
            throw new MalformedLine(lineNumber, "\"type\" is missing or not a string");
        }
        if ("BOOKMARK".equals(type.asText()) || "ERROR".equals(type.asText())) {
            sink.skip(type.asText() + " event");
            return;
        }
        WatchEventType eventType;
        try {
            eventType = WatchEventType.parse(type.asText());
        } catch (IllegalArgumentException e) {
            throw new MalformedLine(lineNumber, e.getMessage());
        }
        JsonNode object = event.get("object");
        if (object == null || !object.isObject()) {
            throw new MalformedLine(lineNumber, "\"object\" is missing or not a JSON object");
        }
        String kind = object.path("kind").asText("");
        Class<? extends HasMetadata> model;
        try {
            model = GovernanceKinds.model(object.path("apiVersion").asText(""), kind);
        } catch (Skip e) {
            sink.skip(e.reason());
            return;
        }
        if (model == null && DRA_KINDS.containsKey(kind)) {
            String apiVersion = object.path("apiVersion").asText("");
            if (!DRA_API.equals(apiVersion)) {
                sink.skip(kind + " of " + (apiVersion.isEmpty() ? "no apiVersion" : apiVersion) + " not metered; only " + DRA_API);
                return;
            }
            model = DRA_KINDS.get(kind);
        }
        if (model == null) {
            model = KINDS.get(kind);
        }
        if (model == null) {
            sink.skip(kind.isEmpty() ? "object without kind" : "kind " + kind + " not metered yet");
            return;
        }
        HasMetadata resource;
        try {
            resource = MODEL.treeToValue(object, model);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            sink.skip("unreadable " + kind);
            return;
        }
        sink.accept(eventType, resource, observedAt);
    }
}
