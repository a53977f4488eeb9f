package io.gpumeter.common.testing;

import io.gpumeter.common.security.Tokens;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.lang.JoseException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.List;

/**
 * Tokens signed with the test key pair that the services' tests (common's {@code AuthEnabled}) and the console's
 * verify with, and tokens that look right but are not the suite's: another key's, another issuer's.
 */
public final class TestTokens {

    private static final PrivateKey KEY = Tokens.privateKey(resource("/gpumeter-test-private.pem"));
    /** Another suite's key: its tokens carry the right claims and are not this suite's. */
    private static final PrivateKey OTHER_KEY = Tokens.newKeyPair().getPrivate();

    /** Every service, as the audience of the token a service under test presents to the (fake) services it calls. */
    public static final List<String> ALL_SERVICES = List.of("collector", "ledger", "slo", "alert", "billing");

    /** The token a service under test presents to the services it calls. */
    public static final String SERVICE_TOKEN = Tokens.mint(KEY, "service-under-test", List.of("service"), ALL_SERVICES,
            Duration.ofDays(1));

    private TestTokens() {
    }

    public static String bearer(String... groups) {
        return "Bearer " + Tokens.mint(KEY, "test", List.of(groups), Duration.ofMinutes(10));
    }

    /** A {@code service} token addressed to {@code audiences}, as one service presents to another. */
    public static String serviceBearer(String... audiences) {
        return "Bearer " + Tokens.mint(KEY, "test-service", List.of("service"), List.of(audiences), Duration.ofMinutes(10));
    }

    /** A token holding {@code groups} that is valid for {@code ttl}. */
    public static String bearer(Duration ttl, String... groups) {
        return "Bearer " + Tokens.mint(KEY, "test", List.of(groups), ttl);
    }

    /** A bare token of {@code subject} holding {@code groups}, as a person pastes one, valid for a day. */
    public static String token(String subject, String... groups) {
        return Tokens.mint(KEY, subject, List.of(groups), Duration.ofDays(1));
    }

    /** The claims of {@link #token}, signed with another key than the suite's. */
    public static String foreign(String subject, String... groups) {
        return Tokens.mint(OTHER_KEY, subject, List.of(groups), Duration.ofDays(1));
    }

    /** A token signed with the suite's key whose {@code iss} names someone else, valid for an hour. */
    public static String fromIssuer(String issuer, String subject, String... groups) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(issuer);
        claims.setSubject(subject);
        claims.setIssuedAtToNow();
        claims.setExpirationTimeMinutesInTheFuture(60);
        claims.setStringListClaim("groups", List.of(groups));
        return sign(claims);
    }

    /** A correctly signed token holding {@code groups} that never expires: it has no {@code exp}. */
    public static String bearerWithoutExpiry(String... groups) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(Tokens.ISSUER);
        claims.setSubject("test");
        claims.setIssuedAtToNow();
        claims.setStringListClaim("groups", List.of(groups));
        return "Bearer " + sign(claims);
    }

    private static String sign(JwtClaims claims) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(KEY);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The public half of the test key, as the services and the console under test verify with it. */
    public static String publicKeyPem() {
        return resource("/gpumeter-test-public.pem");
    }

    static String resource(String name) {
        try (InputStream in = TestTokens.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the test-jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
