package io.gpumeter.common.problem;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.util.Optional;

/**
 * An RFC 9457 problem document: what went wrong, in words a user can act on, and which input caused it.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String field, String instance) {

    public static final String MEDIA_TYPE = "application/problem+json";

    /** Read as a tree, which needs no reflection (native images) and no settings of the caller's. */
    private static final ObjectMapper JSON = new ObjectMapper();

    public static Problem of(int status, String title, String detail, String field) {
        return new Problem("about:blank", title, status, detail, field, null);
    }

    /**
     * The problem document another gpumeter service answered, as the services relay a refusal and the console shows
     * one: an object whose members are taken when they are non-blank strings (status when a whole number), the rest
     * null. Empty when the body is no JSON object, however it is labelled.
     */
    public static Optional<Problem> parse(String body) {
        if (body == null || body.isBlank()) {
            return Optional.empty();
        }
        JsonNode tree;
        try {
            tree = JSON.readTree(body);
        } catch (JacksonException e) {
            return Optional.empty();
        }
        if (tree == null || !tree.isObject()) {
            return Optional.empty();
        }
        JsonNode status = tree.path("status");
        return Optional.of(new Problem(text(tree, "type"), text(tree, "title"), status.canConvertToInt() && status.isIntegralNumber()
                ? status.intValue() : 0, text(tree, "detail"), text(tree, "field"), text(tree, "instance")));
    }

    private static String text(JsonNode tree, String member) {
        JsonNode value = tree.get(member);
        return value == null || !value.isTextual() || value.asText().isBlank() ? null : value.asText();
    }
}
