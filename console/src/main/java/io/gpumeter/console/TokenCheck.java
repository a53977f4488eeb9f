package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;

import java.time.Instant;
import java.util.Optional;

/**
 * Whether a token may sign anyone in: it is checked as the services check it, by SmallRye JWT with the same settings
 * ({@code mp.jwt.verify.publickey} or {@code .location}, issuer {@code gpumeter}, RS256, not expired), so the console
 * shows a subject only when the suite's key signed the token that names it.
 */
@ApplicationScoped
public class TokenCheck {

    private static final Logger LOG = Logger.getLogger(TokenCheck.class);

    private final JWTParser parser;
    private final ObjectMapper json;
    private final boolean keyConfigured;

    public TokenCheck(JWTParser parser, ObjectMapper json,
                      @ConfigProperty(name = "mp.jwt.verify.publickey") Optional<String> key,
                      @ConfigProperty(name = "mp.jwt.verify.publickey.location") Optional<String> location) {
        this.parser = parser;
        this.json = json;
        this.keyConfigured = key.filter(k -> !k.isBlank()).isPresent() || location.filter(l -> !l.isBlank()).isPresent();
        if (!keyConfigured) {
            LOG.warn("No mp.jwt.verify.publickey (MP_JWT_VERIFY_PUBLICKEY) nor .location: the console signs no one in");
        }
    }

    /** The token's holder when the token is the suite's and still valid; otherwise why it signs no one in. */
    public Viewer.Parsed verify(String text) {
        Viewer.Parsed shape = Viewer.parse(text, json, Instant.now());
        if (shape.viewer().isEmpty()) {
            return shape;
        }
        if (!keyConfigured) {
            return refused("The console has no key to check tokens with: set mp.jwt.verify.publickey "
                    + "(MP_JWT_VERIFY_PUBLICKEY) to the suite's public key, as the services have it.");
        }
        try {
            parser.parse(shape.viewer().get().token());
            return shape;
        } catch (ParseException e) {
            return refused(reason(e, shape.viewer().get()));
        }
    }

    private static String reason(ParseException e, Viewer claimed) {
        InvalidJwtException invalid = cause(e);
        if (invalid != null && invalid.hasExpired()) {
            return "That token expired at " + claimed.expires() + "; sign in with a fresh one (./gpumeter token).";
        }
        if (invalid != null && invalid.hasErrorCode(ErrorCodes.ISSUER_INVALID)) {
            return "That token was not issued by gpumeter (its iss claim); the services refuse it too.";
        }
        LOG.debugf(e, "a token was refused");
        return "That token was not signed by this suite's key, or was changed after it was signed; the services "
                + "refuse it too. Sign in with a token ./gpumeter token printed.";
    }

    private static InvalidJwtException cause(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidJwtException invalid) {
                return invalid;
            }
        }
        return null;
    }

    private static Viewer.Parsed refused(String why) {
        return new Viewer.Parsed(Optional.empty(), why);
    }
}
