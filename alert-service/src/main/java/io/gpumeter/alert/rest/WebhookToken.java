package io.gpumeter.alert.rest;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * Alertmanager's bearer token for the webhook. Without a configured token nothing is accepted: an unset token must
 * never leave a door that cordons nodes open.
 */
final class WebhookToken {

    private static final String BEARER = "Bearer ";

    /** SHA-256 of the configured token; empty when none (or a blank one) is configured. */
    private final Optional<byte[]> expected;

    private WebhookToken(Optional<byte[]> expected) {
        this.expected = expected;
    }

    static WebhookToken of(Optional<String> configured) {
        return new WebhookToken(configured.map(String::strip).filter(t -> !t.isEmpty()).map(WebhookToken::digest));
    }

    boolean configured() {
        return expected.isPresent();
    }

    /** Whether the Authorization header carries the configured token; always false when none is configured. */
    boolean accepts(String authorization) {
        if (expected.isEmpty() || authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return false;
        }
        // Digests of equal length, compared in constant time: neither the token's content nor its length leaks.
        return MessageDigest.isEqual(digest(authorization.substring(BEARER.length()).strip()), expected.get());
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}
