package io.gpumeter.common.security;

import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.lang.JoseException;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * Key pairs and signed tokens for local runs, tests and operators: RS256 JWTs with the roles in {@code groups}, as
 * SmallRye JWT verifies them ({@code mp.jwt.verify.publickey}, {@code mp.jwt.verify.issuer}).
 */
public final class Tokens {

    public static final String ISSUER = "gpumeter";

    private Tokens() {
    }

    public static KeyPair newKeyPair() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("this JVM cannot generate RSA keys", e);
        }
    }

    public static String publicKeyPem(PublicKey key) {
        return pem("PUBLIC KEY", key.getEncoded());
    }

    public static String privateKeyPem(PrivateKey key) {
        return pem("PRIVATE KEY", key.getEncoded());
    }

    public static PrivateKey privateKey(String pem) {
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not a PKCS#8 RSA private key in PEM form", e);
        }
    }

    /** A token for {@code subject} holding {@code groups} (e.g. {@code admin}, {@code tenant:acme}), valid for {@code ttl}. */
    public static String mint(PrivateKey key, String subject, List<String> groups, Duration ttl) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setSubject(subject);
        claims.setClaim("upn", subject);
        claims.setIssuedAtToNow();
        claims.setExpirationTimeMinutesInTheFuture(Math.max(1, ttl.toMinutes()));
        claims.setGeneratedJwtId();
        claims.setStringListClaim("groups", groups);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setHeader("typ", "JWT");
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException("could not sign a token: " + e.getMessage(), e);
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
