package io.gpumeter.console;

import io.gpumeter.common.security.TokenClaims;
import io.gpumeter.common.security.TokenRules;
import io.smallrye.jwt.auth.principal.JWTParser;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * Whether a token may sign anyone in: its claims are read by the model ({@link TokenClaims}), its signature is
 * checked as the services check it, by SmallRye JWT with the same settings ({@code mp.jwt.verify.publickey} or
 * {@code .location}, issuer {@code gpumeter}, RS256, not expired), and it must pass the services' own
 * {@link TokenRules} (lifetime, an ingest token's roles, one tenant): the console shows a subject only when the
 * suite's key signed the token that names it, and signs no one in whom every service would refuse.
 */
@ApplicationScoped
public class TokenCheck {

    private static final Logger LOG = Logger.getLogger(TokenCheck.class);

    private final JWTParser parser;
    private final boolean keyConfigured;
    private final Duration maxLifetime;

    public TokenCheck(JWTParser parser,
                      @ConfigProperty(name = "mp.jwt.verify.publickey") Optional<String> key,
                      @ConfigProperty(name = "mp.jwt.verify.publickey.location") Optional<String> location,
                      @ConfigProperty(name = "gpumeter.auth.max-token-lifetime", defaultValue = "P30D") Duration maxLifetime) {
        this.parser = parser;
        this.maxLifetime = maxLifetime;
        this.keyConfigured = key.filter(k -> !k.isBlank()).isPresent() || location.filter(l -> !l.isBlank()).isPresent();
        if (!keyConfigured) {
            LOG.warn("No mp.jwt.verify.publickey (MP_JWT_VERIFY_PUBLICKEY) nor .location: the console signs no one in");
        }
    }

    /** The token's holder when the token is the suite's, still valid and acceptable to the services; otherwise why not. */
    public Viewer.Parsed verify(String text) {
        TokenClaims.Read read = TokenClaims.read(text, Instant.now());
        if (read.claims().isEmpty()) {
            return refused(read.problem());
        }
        TokenClaims claims = read.claims().get();
        if (!keyConfigured) {
            return refused("The console has no key to check tokens with: set mp.jwt.verify.publickey "
                    + "(MP_JWT_VERIFY_PUBLICKEY) to the suite's public key, as the services have it.");
        }
        try {
            parser.parse(claims.token());
        } catch (ParseException e) {
            return refused(reason(e, claims));
        }
        Optional<TokenRules.Refusal> refusal = claims.refusal(maxLifetime);
        if (refusal.isPresent()) {
            return refused(refusal.get().detail() + " The services refuse this token too: sign in with another.");
        }
        return new Viewer.Parsed(Optional.of(Viewer.of(claims)), null);
    }

    private static String reason(ParseException e, TokenClaims claimed) {
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
