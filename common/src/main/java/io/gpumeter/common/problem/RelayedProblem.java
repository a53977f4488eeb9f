package io.gpumeter.common.problem;

import jakarta.ws.rs.core.Response;

import java.util.Optional;

/**
 * The detail of another gpumeter service's refusal, to pass on to our own caller: only the {@code detail} of its
 * problem document, which that service composed itself, never the raw body (a proxy's or a framework's text).
 */
public final class RelayedProblem {

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
        return Problem.parse(body).map(Problem::detail)
                .map(text -> text.length() > MAX_DETAIL ? text.substring(0, MAX_DETAIL) + "…" : text);
    }

    /** "what (HTTP n): detail", or without the detail when the answer had none to pass on. */
    public static String describe(String what, Response response) {
        String head = what + " (HTTP " + response.getStatus() + ")";
        return detail(response).map(d -> head + ": " + d).orElse(head);
    }
}
