package io.gpumeter.common.problem;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.core.Response;

import java.util.Optional;

/**
 * The detail of another gpumeter service's refusal, to pass on to our own caller: only the {@code detail} of its
 * problem document, which that service composed itself, never the raw body (a proxy's or a framework's text).
 */
public final class RelayedProblem {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MAX_DETAIL = 500;

    private RelayedProblem() {
    }

    /** The refusal's problem detail, if the body is a problem document that has one. */
    public static Optional<String> detail(Response response) {
        if (response == null || !response.hasEntity()) {
            return Optional.empty();
        }
        try {
            return detail(response.readEntity(String.class));
        } catch (RuntimeException e) {
            return Optional.empty(); // an unreadable body says nothing we could pass on
        }
    }

    static Optional<String> detail(String body) {
        try {
            JsonNode detail = body == null ? null : JSON.readTree(body).path("detail");
            if (detail == null || !detail.isTextual() || detail.asText().isBlank()) {
                return Optional.empty();
            }
            String text = detail.asText();
            return Optional.of(text.length() > MAX_DETAIL ? text.substring(0, MAX_DETAIL) + "…" : text);
        } catch (java.io.IOException e) {
            return Optional.empty();
        }
    }

    /** "what (HTTP n): detail", or without the detail when the answer had none to pass on. */
    public static String describe(String what, Response response) {
        String head = what + " (HTTP " + response.getStatus() + ")";
        return detail(response).map(d -> head + ": " + d).orElse(head);
    }
}
