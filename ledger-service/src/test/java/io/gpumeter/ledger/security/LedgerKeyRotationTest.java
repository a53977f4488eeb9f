package io.gpumeter.ledger.security;

import io.gpumeter.common.security.Tokens;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;

import java.security.KeyPair;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;

/**
 * A signing-key rotation: the ledger verifies with a key set of the old (test) key and a new one, and accepts
 * tokens of either, each picked by the kid the token carries; tokens of any other key stay refused.
 */
@QuarkusTest
@TestProfile(LedgerKeyRotationTest.OldAndNewKey.class)
@WithTestResource(EmbeddedPostgresResource.class)
class LedgerKeyRotationTest {

    static final KeyPair NEXT = nextKey();

    /** One new key per JVM, shared through a system property: the profile and the test may load this class twice. */
    private static synchronized KeyPair nextKey() {
        String pem = System.getProperty("gpumeter.test.next-key");
        if (pem == null) {
            pem = Tokens.privateKeyPem(Tokens.newKeyPair().getPrivate());
            System.setProperty("gpumeter.test.next-key", pem);
        }
        java.security.interfaces.RSAPrivateCrtKey key = (java.security.interfaces.RSAPrivateCrtKey) Tokens.privateKey(pem);
        return new KeyPair(Tokens.publicKey(key), key);
    }

    public static class OldAndNewKey implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.auth.enabled", "true",
                    "mp.jwt.verify.publickey", Tokens.jwks(List.of(Tokens.publicKey(TestTokens.publicKeyPem()), NEXT.getPublic())));
        }
    }

    @Test
    void tokensOfTheOldAndTheNewKeyAreAcceptedAndOthersRefused() throws Exception {
        given().header("Authorization", TestTokens.bearer("reader")).get("/api/v1/normalization").then().statusCode(200);
        String next = Tokens.mint(NEXT.getPrivate(), "rotated", List.of("reader"), Duration.ofMinutes(5));
        given().header("Authorization", "Bearer " + next).get("/api/v1/normalization").then().statusCode(200);
        String stranger = Tokens.mint(Tokens.newKeyPair().getPrivate(), "x", List.of("reader"), Duration.ofMinutes(5));
        given().header("Authorization", "Bearer " + stranger).get("/api/v1/normalization").then().statusCode(401);
        given().header("Authorization", "Bearer " + withoutKid(NEXT)).get("/api/v1/normalization").then().statusCode(401);
    }

    /** A token of a listed key that does not say which: with several keys, the services cannot pick one. */
    private static String withoutKid(KeyPair pair) throws Exception {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(Tokens.ISSUER);
        claims.setSubject("no-kid");
        claims.setIssuedAtToNow();
        claims.setExpirationTimeMinutesInTheFuture(5);
        claims.setStringListClaim("groups", List.of("reader"));
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(pair.getPrivate());
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        return jws.getCompactSerialization();
    }
}
