package io.gpumeter.launcher.suite;

import io.gpumeter.common.security.Tokens;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.security.PrivateKey;
import java.security.interfaces.RSAPrivateCrtKey;
import java.time.Duration;
import java.util.List;

/**
 * The key pair of a local run, kept in the state directory so that tokens printed once stay valid across restarts:
 * the services verify with the public half, {@code ./gpumeter up} and {@code ./gpumeter token} sign with the
 * private half.
 */
public final class LocalKeys {

    private final PrivateKey privateKey;
    private final String publicKeyPem;

    private LocalKeys(PrivateKey privateKey, String publicKeyPem) {
        this.privateKey = privateKey;
        this.publicKeyPem = publicKeyPem;
    }

    /** Reads {@code <state>/keys/private.pem}, creating a new pair (owner-readable only) the first time. */
    public static LocalKeys in(Path stateDirectory) {
        Path dir = stateDirectory.resolve("keys");
        Path file = dir.resolve("private.pem");
        try {
            if (!Files.isRegularFile(file)) {
                Files.createDirectories(dir);
                KeyPair pair = Tokens.newKeyPair();
                Path tmp = Files.createTempFile(dir, "private", ".tmp");
                try {
                    Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
                } catch (UnsupportedOperationException e) {
                    // not a POSIX file system: the directory's own protection applies
                }
                Files.writeString(tmp, Tokens.privateKeyPem(pair.getPrivate()));
                Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            }
            PrivateKey key = Tokens.privateKey(Files.readString(file));
            return new LocalKeys(key, Tokens.publicKeyPem(publicHalf(key)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the local key pair in " + dir, e);
        }
    }

    public String publicKeyPem() {
        return publicKeyPem;
    }

    /** The private half, for the MCP server that signs each call's token for its caller; never on a command line. */
    public String privateKeyPem() {
        return Tokens.privateKeyPem(privateKey);
    }

    public String token(String subject, List<String> groups, Duration ttl) {
        return Tokens.mint(privateKey, subject, groups, ttl);
    }

    /** A token addressed to {@code audiences}, as a service token names the services it calls. */
    public String token(String subject, List<String> groups, List<String> audiences, Duration ttl) {
        return Tokens.mint(privateKey, subject, groups, audiences, ttl);
    }

    private static java.security.PublicKey publicHalf(PrivateKey key) {
        if (!(key instanceof RSAPrivateCrtKey crt)) {
            throw new IllegalStateException("the local key is not an RSA key with its public exponent");
        }
        return Tokens.publicKey(crt);
    }
}
