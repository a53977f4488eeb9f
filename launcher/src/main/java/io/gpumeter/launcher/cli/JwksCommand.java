package io.gpumeter.launcher.cli;

import io.gpumeter.common.security.Tokens;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;

/** {@code jwks PUBLIC.pem [PUBLIC.pem…]}: the key set that lets the services accept tokens of several signing keys. */
public final class JwksCommand {

    private static final String USAGE = """
            gpumeter jwks PUBLIC.pem [PUBLIC.pem …]
              Prints a JSON Web Key Set of the given RSA public keys (PEM, BEGIN PUBLIC KEY), each with the kid the
              tokens signed by its private half carry. Give it to the services as MP_JWT_VERIFY_PUBLICKEY while a
              signing key is rotated: they accept tokens of the old and the new key (docs/deploy.md).""";

    private JwksCommand() {
    }

    public static String usage() {
        return USAGE;
    }

    public static int run(List<String> args, PrintStream out) throws IOException {
        if (args.isEmpty()) {
            throw new UsageException("name at least one public key file, e.g. gpumeter jwks old.pem new.pem");
        }
        List<PublicKey> keys = new ArrayList<>();
        for (String file : args) {
            if (file.startsWith("--")) {
                throw new UsageException("unknown option " + file);
            }
            Path path = Path.of(file);
            if (!Files.isRegularFile(path)) {
                throw new UsageException(file + " is not a file");
            }
            keys.add(Tokens.publicKey(Files.readString(path)));
        }
        out.println(Tokens.jwks(keys));
        return 0;
    }
}
