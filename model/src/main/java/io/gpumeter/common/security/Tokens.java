package io.gpumeter.common.security;

import org.jose4j.jwk.JsonWebKey;
import org.jose4j.jwk.JsonWebKeySet;
import org.jose4j.jwk.RsaJsonWebKey;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;

import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.interfaces.RSAPublicKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.List;

/**
 * Key pairs and signed tokens for local runs, tests and operators: RS256 JWTs with the roles in {@code groups}, as
 * SmallRye JWT verifies them ({@code mp.jwt.verify.publickey}, {@code mp.jwt.verify.issuer}). Each token names its
 * key in {@code kid} (the key's RFC 7638 thumbprint), so that services given a key set of an old and a new key
 * during a rotation pick the right one.
 */
public final class Tokens {

    public static final String ISSUER = "gpumeter";
    /**
     * The longest a token may live (exp − iat), for people and services alike: the services refuse longer ones
     * ({@code gpumeter.auth.max-token-lifetime}), so a leaked token is good for a month at most.
     */
    public static final Duration MAX_LIFETIME = Duration.ofDays(30);

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
        return mint(key, subject, groups, List.of(), ttl);
    }

    /**
     * As {@link #mint(PrivateKey, String, List, Duration)}, addressed to {@code audiences} (the {@code aud} claim):
     * a {@code service} token names the services it may call.
     */
    public static String mint(PrivateKey key, String subject, List<String> groups, List<String> audiences, Duration ttl) {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setSubject(subject);
        claims.setClaim("upn", subject);
        if (!audiences.isEmpty()) {
            claims.setAudience(audiences);
        }
        // exp is counted from the very iat written, so exp − iat is exactly the lifetime asked for.
        NumericDate issuedAt = NumericDate.now();
        claims.setIssuedAt(issuedAt);
        claims.setExpirationTime(NumericDate.fromSeconds(issuedAt.getValue() + Math.max(60, ttl.toSeconds())));
        claims.setGeneratedJwtId();
        claims.setStringListClaim("groups", groups);
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        if (key instanceof RSAPrivateCrtKey crt) {
            jws.setKeyIdHeaderValue(keyId(publicKey(crt)));
        }
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setHeader("typ", "JWT");
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new IllegalStateException("could not sign a token: " + e.getMessage(), e);
        }
    }

    public static PublicKey publicKey(String pem) {
        String base64 = pem.replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("not an RSA public key in PEM form (BEGIN PUBLIC KEY)", e);
        }
    }

    /** The public half of an RSA private key that carries its public exponent (every key this class makes). */
    public static PublicKey publicKey(RSAPrivateCrtKey key) {
        try {
            return KeyFactory.getInstance("RSA").generatePublic(new RSAPublicKeySpec(key.getModulus(), key.getPublicExponent()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The {@code kid} of a key: its RFC 7638 SHA-256 thumbprint, base64url. */
    public static String keyId(PublicKey key) {
        return new RsaJsonWebKey((RSAPublicKey) key).calculateBase64urlEncodedThumbprint("SHA-256");
    }

    /**
     * A JSON Web Key Set of {@code keys} with their {@code kid}s, for {@code mp.jwt.verify.publickey}: the services
     * accept tokens signed by any of them, which lets a new signing key come in before the old one leaves.
     */
    public static String jwks(List<PublicKey> keys) {
        JsonWebKeySet set = new JsonWebKeySet();
        for (PublicKey key : keys) {
            RsaJsonWebKey jwk = new RsaJsonWebKey((RSAPublicKey) key);
            jwk.setKeyId(keyId(key));
            jwk.setAlgorithm(AlgorithmIdentifiers.RSA_USING_SHA256);
            jwk.setUse("sig");
            set.addJsonWebKey(jwk);
        }
        return set.toJson(JsonWebKey.OutputControlLevel.PUBLIC_ONLY);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }
}
