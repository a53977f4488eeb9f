package io.gpumeter.common.testing;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * One read of a service as that service answered it in its own resource tests: the serving module's test records the
 * answer ({@link #record}) under {@code target/contracts/<service>/<read>.json}, its build packages that folder as
 * its {@code contracts} jar, and each caller's tests take it from the classpath ({@link #of}). A caller checks that
 * every field its own DTO reads is in the example ({@link #readAs}), and its stand-in serves nothing the server does
 * not say ({@link #check}): a field renamed on the server fails the callers' builds.
 */
public final class Contract {

    /** Read as a Quarkus client reads: unknown fields pass, instants from ISO-8601 text. */
    static final ObjectMapper READER = JsonMapper.builder().addModule(new JavaTimeModule())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private final String name;
    private final JsonNode example;
    private final Set<String> freeKeys;

    private Contract(String name, JsonNode example, Set<String> freeKeys) {
        this.name = name;
        this.example = example;
        this.freeKeys = freeKeys;
    }

    /** Records the body a service's own resource answered, as the example of that read. */
    public static void record(String service, String read, String body) {
        Path file = Path.of(System.getProperty("gpumeter.contracts.dir", "target/contracts"), service, read + ".json");
        try {
            Files.createDirectories(file.getParent());
            JsonNode tree = READER.readTree(body);
            Files.writeString(file, READER.writerWithDefaultPrettyPrinter().writeValueAsString(tree));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The example a service's tests recorded; its build must have run them (the contracts jar is empty otherwise). */
    public static Contract of(String service, String read) {
        String resource = "contracts/" + service + "/" + read + ".json";
        try (InputStream in = Contract.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new AssertionError("no example " + resource + " on the classpath: " + service
                        + "'s tests record it; build that module with its tests before this one");
            }
            return new Contract(service + " " + read, READER.readTree(in), Set.of());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An example given as text: for checking this class itself. */
    static Contract ofJson(String name, String json) {
        return new Contract(name, readTree(json), Set.of());
    }

    /**
     * This contract with objects whose keys are data, not fields — a group's dimensions, say — named by the field
     * that holds them: their keys are not compared.
     */
    public Contract freeKeysAt(String... fields) {
        Set<String> free = new TreeSet<>(freeKeys);
        free.addAll(List.of(fields));
        return new Contract(name, example, free);
    }

    /**
     * This example and {@code other}, two answers of the same list read, taken as one: a server that leaves a field
     * out when it is null (an SLO's problem, a policy's scheduler) shows it only in some answers, and a caller that
     * reads it is checked against the answers that have it.
     */
    public Contract with(Contract other) {
        if (!example.isArray() || !other.example.isArray()) {
            throw new IllegalArgumentException("only examples of a list read are taken together: " + name + ", " + other.name);
        }
        ArrayNode both = READER.createArrayNode();
        both.addAll((ArrayNode) example);
        both.addAll((ArrayNode) other.example);
        Set<String> free = new TreeSet<>(freeKeys);
        free.addAll(other.freeKeys);
        return new Contract(name + " with " + other.name, both, free);
    }

    public JsonNode example() {
        return example;
    }

    /** The example as JSON text, for a stand-in to serve. */
    public String json() {
        return example.toString();
    }

    /**
     * The example read into a caller's own type, after checking that every field the type reads (record components,
     * through nested records and lists of them) is in the example: a renamed field fails here, where Jackson alone
     * would leave it null.
     */
    public <T> T readAs(Class<T> type) {
        assertReads(type, false);
        return read(example, type);
    }

    /** The example, an array, read into a list of a caller's own type, after the same check for its elements. */
    public <T> List<T> readListOf(Class<T> type) {
        assertReads(type, true);
        return READER.convertValue(example, READER.getTypeFactory().constructCollectionType(List.class, type));
    }

    private void assertReads(Class<?> type, boolean list) {
        Shape shape = Shape.of(example, freeKeys);
        Set<String> missing = new TreeSet<>();
        for (String path : Shape.readBy(type, list ? "[]" : "", freeKeys)) {
            if (!shape.shows(path)) {
                missing.add(path);
            }
        }
        if (!missing.isEmpty()) {
            throw new AssertionError(type.getSimpleName() + " reads " + missing + ", which the example of " + name
                    + " does not have: the server answers " + shape.paths());
        }
    }

    /**
     * Checks a stand-in's canned answer for this read: it may leave fields out, but it may not hold a field the
     * server's example lacks. Returns the canned answer, for the stand-in to serve.
     */
    public String check(String canned) {
        Shape server = Shape.of(example, freeKeys);
        Set<String> unknown = new TreeSet<>();
        for (String path : Shape.of(readTree(canned), freeKeys).paths()) {
            if (!server.shows(path)) {
                unknown.add(path);
            }
        }
        if (!unknown.isEmpty()) {
            throw new AssertionError("a canned answer of " + name + " holds " + unknown
                    + ", which the server's example does not: the server answers " + server.paths());
        }
        return canned;
    }

    private static JsonNode readTree(String json) {
        try {
            return READER.readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T read(JsonNode node, Class<T> type) {
        try {
            return READER.treeToValue(node, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
