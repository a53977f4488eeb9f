package io.gpumeter.console;

import org.jose4j.jwa.AlgorithmConstraints;
import org.jose4j.jwe.ContentEncryptionAlgorithmIdentifiers;
import org.jose4j.jwe.JsonWebEncryption;
import org.jose4j.jwe.KeyManagementAlgorithmIdentifiers;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.consumer.InvalidJwtException;
import org.jose4j.keys.AesKey;
import org.jose4j.lang.JoseException;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Optional;

/**
 * Seals the console's own messages (the session cookie, the list of signed-out sessions) so that whoever holds one
 * can neither read nor change it: a JWE in compact form, encrypted and authenticated with AES-256-GCM under a key
 * that every replica derives from the same secret. Each message names its use, so one kind is never taken for the
 * other.
 */
final class Sealer {

    static final int MIN_SECRET_LENGTH = 32;
    private static final String USE = "use";

    private final AesKey key;

    /** {@code secret}: at least 32 characters of randomness; the AES-256 key is its SHA-256 digest. */
    Sealer(String secret) {
        if (secret == null || secret.strip().length() < MIN_SECRET_LENGTH) {
            throw new IllegalArgumentException("gpumeter.console.session.key must be at least " + MIN_SECRET_LENGTH
                    + " characters of randomness, e.g. head -c 32 /dev/urandom | base64");
        }
        try {
            key = new AesKey(MessageDigest.getInstance("SHA-256").digest(secret.strip().getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    String seal(String use, JwtClaims claims) {
        claims.setStringClaim(USE, use);
        JsonWebEncryption jwe = new JsonWebEncryption();
        jwe.setAlgorithmHeaderValue(KeyManagementAlgorithmIdentifiers.DIRECT);
        jwe.setEncryptionMethodHeaderParameter(ContentEncryptionAlgorithmIdentifiers.AES_256_GCM);
        jwe.setKey(key);
        jwe.setPayload(claims.toJson());
        try {
            return jwe.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException("cannot seal with AES-256-GCM", e);
        }
    }

    /** The claims of a message this key sealed for {@code use}; empty for anything else, altered or not. */
    Optional<JwtClaims> open(String use, String sealed) {
        if (sealed == null || sealed.isBlank()) {
            return Optional.empty();
        }
        try {
            JsonWebEncryption jwe = new JsonWebEncryption();
            // only what seal() makes: no other key management or cipher may be named by the message itself
            jwe.setAlgorithmConstraints(new AlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT,
                    KeyManagementAlgorithmIdentifiers.DIRECT));
            jwe.setContentEncryptionAlgorithmConstraints(new AlgorithmConstraints(AlgorithmConstraints.ConstraintType.PERMIT,
                    ContentEncryptionAlgorithmIdentifiers.AES_256_GCM));
            jwe.setCompactSerialization(sealed.strip());
            jwe.setKey(key);
            JwtClaims claims = JwtClaims.parse(jwe.getPayload());
            return use.equals(claims.getStringClaimValue(USE)) ? Optional.of(claims) : Optional.empty();
        } catch (JoseException | InvalidJwtException | MalformedClaimException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
