package io.gpumeter.console;

import jakarta.enterprise.context.ApplicationScoped;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The one-time sign-in link {@code /signin?code=…}: the launcher mints a code for the admin at start-up and prints the
 * link; the first request bearing the code signs in with the configured token and uses it up.
 */
@ApplicationScoped
public class SigninCodes {

    private final Optional<String> code;
    private final Optional<String> token;
    private final AtomicBoolean used = new AtomicBoolean();

    public SigninCodes(ConsoleConfig config) {
        this.code = config.signin().code().filter(c -> c.length() >= 16);
        this.token = config.signin().token().filter(t -> !t.isBlank());
    }

    /** The token for a matching, unused code, once; empty for any other code or a second use. */
    public Optional<String> consume(String given) {
        if (given == null || code.isEmpty() || token.isEmpty()) {
            return Optional.empty();
        }
        boolean matches = MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8), code.get().getBytes(StandardCharsets.UTF_8));
        return matches && used.compareAndSet(false, true) ? token : Optional.empty();
    }
}
