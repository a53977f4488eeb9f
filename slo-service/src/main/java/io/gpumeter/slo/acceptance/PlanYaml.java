package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import io.gpumeter.common.problem.InvalidInput;
import org.yaml.snakeyaml.LoaderOptions;

import java.io.IOException;

/**
 * Reads a plan written in YAML into the same tree a JSON plan is read into, so {@link PlanReader} judges both alike.
 * A plan is plain data: anchors and aliases are refused (an alias is where a "billion laughs" body multiplies itself),
 * a key given twice in one mapping is refused, and the text, its nesting and its length are bounded before it is read.
 */
public final class PlanYaml {

    /** A plan of 32 cells and 100 clauses is some 30,000 characters; nothing a person writes comes near this. */
    static final int MAX_CODE_POINTS = 1_000_000;
    static final int MAX_NESTING = 20;

    private static final ObjectMapper YAML = new ObjectMapper(YAMLFactory.builder()
            .loaderOptions(loaderOptions())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING).build())
            .build());

    private PlanYaml() {
    }

    private static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setCodePointLimit(MAX_CODE_POINTS);
        options.setNestingDepthLimit(MAX_NESTING);
        options.setMaxAliasesForCollections(0);
        options.setAllowDuplicateKeys(false);
        options.setAllowRecursiveKeys(false);
        return options;
    }

    /** @throws InvalidInput naming the field (or "plan") and the line at fault */
    public static JsonNode read(String body) {
        String text = body == null ? "" : body;
        if (text.codePointCount(0, text.length()) > MAX_CODE_POINTS) {
            throw new InvalidInput("plan", "a YAML plan holds at most " + MAX_CODE_POINTS + " characters");
        }
        refuseAnchorsAndAliases(text);
        try (JsonParser parser = YAML.createParser(text)) {
            JsonNode tree = YAML.readTree(parser);
            if (tree == null || tree.isMissingNode()) {
                throw new InvalidInput("plan", "the body is empty: a YAML plan is a mapping of name, from, to, cells"
                        + " and assertions");
            }
            return tree;
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /**
     * One pass over the events before anything is built: an anchor or an alias anywhere ends the read, so no alias is
     * ever resolved, however many a body holds.
     */
    private static void refuseAnchorsAndAliases(String text) {
        try (YAMLParser parser = (YAMLParser) YAML.createParser(text)) {
            for (JsonToken t = parser.nextToken(); t != null; t = parser.nextToken()) {
                if (parser.isCurrentAlias() || parser.getObjectId() != null) {
                    String field = path(parser.getParsingContext(), t);
                    throw new InvalidInput(field.isEmpty() ? "plan" : field, (field.isEmpty() ? "the plan" : field)
                            + " uses a YAML anchor or alias (line " + parser.currentLocation().getLineNr()
                            + "): a plan is plain data, write each value out");
                }
            }
        } catch (IOException e) {
            throw unreadable(e);
        }
    }

    /** Why a body could not be read, in the plan's words: a read error, nesting past the limit, or anything else. */
    private static InvalidInput unreadable(IOException e) {
        if (e instanceof StreamReadException read) {
            return refusal(read);
        }
        if (e instanceof StreamConstraintsException) {
            return new InvalidInput("plan", "the YAML plan is nested deeper than " + MAX_NESTING + " levels");
        }
        return new InvalidInput("plan", "the body is not a YAML plan that can be read");
    }

    /** A syntax error, a key given twice, or a limit passed: said in plain words with the line, never the parser's. */
    private static InvalidInput refusal(StreamReadException e) {
        int line = e.getLocation() == null ? -1 : e.getLocation().getLineNr();
        String at = line > 0 ? " (line " + line + ")" : "";
        JsonParser p = e.getProcessor();
        if (p != null && e.getOriginalMessage() != null
                && e.getOriginalMessage().startsWith("Duplicate field")) {
            String field = path(p.getParsingContext(), JsonToken.FIELD_NAME);
            return new InvalidInput(field.isEmpty() ? "plan" : field, field + " is given twice" + at
                    + ": each key appears once in its mapping");
        }
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (message.contains("exceeds the limit") || message.contains("Nesting Depth")) {
            return new InvalidInput("plan", "the YAML plan is too large or too deeply nested" + at);
        }
        return new InvalidInput("plan", "the body is not valid YAML" + at);
    }

    /** The field a parser stands on, written as PlanReader names fields: {@code cells[1].selector.service}. */
    static String path(JsonStreamContext context, JsonToken token) {
        java.util.Deque<String> parts = new java.util.ArrayDeque<>();
        JsonStreamContext c = context;
        // a container's start token already stands in the new container, which its parent names
        if (token == JsonToken.START_OBJECT || token == JsonToken.START_ARRAY) {
            c = c.getParent();
        }
        for (; c != null && !c.inRoot(); c = c.getParent()) {
            if (c.inArray()) {
                parts.addFirst("[" + Math.max(0, c.getCurrentIndex()) + "]");
            } else if (c.getCurrentName() != null) {
                parts.addFirst("." + c.getCurrentName());
            }
        }
        String s = String.join("", parts);
        return s.startsWith(".") ? s.substring(1) : s;
    }
}
