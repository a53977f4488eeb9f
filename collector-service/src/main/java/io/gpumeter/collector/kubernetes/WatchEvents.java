package io.gpumeter.collector.kubernetes;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.JsonFault;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * Reads one line of a watch stream: a watch event whose object becomes a fact, an event skipped with a counted
 * reason, or a {@link WatchStreamReader.MalformedLine}.
 * <p>
 * A line is read twice at most. The first reading walks its tokens, notes the event's type and where its object
 * starts and ends, and binds that stretch of bytes straight to the Kubernetes model (a plainly written pod field by
 * field, {@link PlainPods}; anything else through the model's own binding). Any line it cannot take as
 * plainly well formed (a syntax error, a field named twice, a type, kind or apiVersion that is not a string, a byte
 * order mark, bytes that are not UTF-8) is read again as text into a JSON tree, which decides and words every refusal:
 * a line's outcome is the tree's, the first reading only avoids building the tree. A pod's event written in the API
 * server's order (type, then the object, its kind and apiVersion first, either way round) is read in one pass instead of a walk and a
 * binding; any other line, and any such line that pass declines, is walked.
 */
final class WatchEvents {

    /** Reads one line; two values on a line are not a watch event. */
    private static final ObjectMapper LINES = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /** Binds objects to the Kubernetes model; its nested deserializers break under FAIL_ON_TRAILING_TOKENS. */
    private static final ObjectMapper MODEL = JsonMapper.builder()
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    /** Binds pods without what no translator reads (see {@link LeanPods}). */
    private static final ObjectMapper POD_MODEL = LeanPods.mapper(MODEL);

    private WatchEvents() {
    }

    /** Reads the line in {@code data[offset, offset + length)} into the sink. */
    static void read(byte[] data, int offset, int length, long lineNumber, Instant observedAt, FactSink sink) {
        if (!readPlain(data, offset, length, observedAt, sink)) {
            read(new String(data, offset, length, StandardCharsets.UTF_8), lineNumber, observedAt, sink);
        }
    }

    /** The first reading; false, having added nothing to the sink, when the line must be read as a tree. */
    static boolean readPlain(byte[] data, int offset, int length, Instant observedAt, FactSink sink) {
        if (length >= 3 && data[offset] == (byte) 0xEF && data[offset + 1] == (byte) 0xBB && data[offset + 2] == (byte) 0xBF) {
            return false;
        }
        return readPod(data, offset, length, observedAt, sink) || readWalked(data, offset, length, observedAt, sink);
    }

    /**
     * A pod's event as an API server writes it, {@code {"type":…,"object":{"kind":"Pod","apiVersion":…,…}}} in that
     * order (kind and apiVersion either way round), read in one pass of its tokens; false, having added nothing, for
     * any other line (the walk reads it) and for a pod {@link PlainPods} declines.
     */
    static boolean readPod(byte[] data, int offset, int length, Instant observedAt, FactSink sink) {
        Pod pod;
        WatchEventType eventType;
        try (JsonParser p = LINES.getFactory().createParser(data, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT || !"type".equals(p.nextFieldName())
                    || p.nextToken() != JsonToken.VALUE_STRING) {
                return false;
            }
            String type = p.getText();
            if (!"object".equals(p.nextFieldName()) || p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            String kind = null;
            String apiVersion = null;
            for (int i = 0; i < 2; i++) { // kind and apiVersion, in either order
                String name = p.nextFieldName();
                if (p.nextToken() != JsonToken.VALUE_STRING) {
                    return false;
                }
                if ("kind".equals(name) && kind == null) {
                    kind = p.getText();
                } else if ("apiVersion".equals(name) && apiVersion == null) {
                    apiVersion = p.getText();
                } else {
                    return false;
                }
            }
            if (!"Pod".equals(kind) || KindModels.of(apiVersion, kind, null) != Pod.class) {
                return false;
            }
            pod = PlainPods.rest(p, apiVersion);
            if (pod == null || p.nextToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return false;
            }
            eventType = WatchEventType.parse(type);
        } catch (IOException | InvalidInput e) {
            return false;
        }
        sink.accept(eventType, pod, observedAt);
        return true;
    }

    /** Walks the line's tokens for its type and the stretch of its object, then binds that stretch. */
    private static boolean readWalked(byte[] data, int offset, int length, Instant observedAt, FactSink sink) {
        String type = null;
        String kind = null;
        String apiVersion = null;
        int objectStart = -1;
        int objectEnd = -1;
        try (JsonParser p = LINES.getFactory().createParser(data, offset, length)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken value = p.nextToken();
                if ("type".equals(field)) {
                    if (type != null || value != JsonToken.VALUE_STRING) {
                        return false;
                    }
                    type = p.getText();
                } else if ("object".equals(field)) {
                    if (objectStart >= 0 || value != JsonToken.START_OBJECT) {
                        return false;
                    }
                    objectStart = offset + (int) p.currentTokenLocation().getByteOffset();
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        String name = p.currentName();
                        JsonToken v = p.nextToken();
                        if ("kind".equals(name) || "apiVersion".equals(name)) {
                            if (v != JsonToken.VALUE_STRING || ("kind".equals(name) ? kind : apiVersion) != null) {
                                return false;
                            }
                            if ("kind".equals(name)) {
                                kind = p.getText();
                            } else {
                                apiVersion = p.getText();
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                    objectEnd = offset + (int) p.currentLocation().getByteOffset();
                } else {
                    p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        // Where the parser counts from is its own affair: the stretch must be exactly the object's braces.
        if (type == null || objectStart < offset || objectEnd > offset + length || objectEnd <= objectStart
                || data[objectStart] != '{' || data[objectEnd - 1] != '}') {
            return false;
        }
        WatchEventType eventType;
        try {
            eventType = WatchEventType.parse(type);
        } catch (InvalidInput e) {
            return false;
        }
        Class<? extends HasMetadata> model = KindModels.of(apiVersion == null ? "" : apiVersion, kind == null ? "" : kind, null);
        if (model == null) {
            return false;
        }
        HasMetadata resource = model == Pod.class
                ? PlainPods.read(LINES.getFactory(), data, objectStart, objectEnd - objectStart) : null;
        try {
            if (resource == null) {
                resource = mapper(model).readValue(data, objectStart, objectEnd - objectStart, model);
            }
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
        sink.accept(eventType, resource, observedAt);
        return true;
    }

    /** The tree reading: decides every line the first reading could not take. */
    static void read(String line, long lineNumber, Instant observedAt, FactSink sink) {
        JsonNode event;
        try {
            event = LINES.readTree(line);
        } catch (JsonProcessingException e) {
            throw new WatchStreamReader.MalformedLine(lineNumber, "not valid JSON (" + JsonFault.of(e).detail() + ")");
        }
        if (event == null || !event.isObject()) {
            throw new WatchStreamReader.MalformedLine(lineNumber, "a watch event must be a JSON object {\"type\":…,\"object\":{…}}");
        }
        JsonNode type = event.get("type");
        if (type == null || !type.isTextual()) {
            throw new WatchStreamReader.MalformedLine(lineNumber, "\"type\" is missing or not a string");
        }
        if ("BOOKMARK".equals(type.asText()) || "ERROR".equals(type.asText())) {
            sink.skip(type.asText() + " event");
            return;
        }
        WatchEventType eventType;
        try {
            eventType = WatchEventType.parse(type.asText());
        } catch (InvalidInput e) { // its text is ours: the values a watch event's type may take
            throw new WatchStreamReader.MalformedLine(lineNumber, e.getMessage());
        }
        JsonNode object = event.get("object");
        if (object == null || !object.isObject()) {
            throw new WatchStreamReader.MalformedLine(lineNumber, "\"object\" is missing or not a JSON object");
        }
        String kind = object.path("kind").asText("");
        Class<? extends HasMetadata> model = KindModels.of(object.path("apiVersion").asText(""), kind, sink);
        if (model == null) {
            return;
        }
        HasMetadata resource;
        try {
            resource = mapper(model).treeToValue(object, model);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            sink.skip("unreadable " + kind);
            return;
        }
        sink.accept(eventType, resource, observedAt);
    }

    private static ObjectMapper mapper(Class<? extends HasMetadata> model) {
        return model == Pod.class ? POD_MODEL : MODEL;
    }
}
