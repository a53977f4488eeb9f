package io.gpumeter.alert.rest;

import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Alertmanager's webhook token: nothing passes without one configured, and only the exact token with one. */
class WebhookTokenTest {

    @Test
    void withoutAConfiguredTokenNothingIsAccepted() {
        for (Optional<String> none : java.util.List.of(Optional.<String>empty(), Optional.of(""), Optional.of("   "))) {
            WebhookToken token = WebhookToken.of(none);
            assertFalse(token.configured(), "configured: '" + none + "'");
            assertFalse(token.accepts(null));
            assertFalse(token.accepts("Bearer "));
            assertFalse(token.accepts("Bearer    "));
            assertFalse(token.accepts("Bearer anything"));
        }
    }

    @Test
    void onlyTheConfiguredBearerTokenIsAccepted() {
        WebhookToken token = WebhookToken.of(Optional.of(" s3cret-token "));
        assertTrue(token.configured());
        assertTrue(token.accepts("Bearer s3cret-token"));
        assertTrue(token.accepts("bearer s3cret-token "), "the scheme is case-insensitive, as RFC 9110 says");
        assertFalse(token.accepts(null));
        assertFalse(token.accepts("s3cret-token"), "no scheme");
        assertFalse(token.accepts("Basic s3cret-token"));
        assertFalse(token.accepts("Bearer s3cret-toke"), "a prefix");
        assertFalse(token.accepts("Bearer s3cret-token2"), "a longer one");
        assertFalse(token.accepts("Bearer S3CRET-TOKEN"), "the token itself is case-sensitive");
        assertFalse(token.accepts("Bearer "));
    }
}
