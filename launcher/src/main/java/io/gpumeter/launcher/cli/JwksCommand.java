package io.gpumeter.launcher.cli;

import io.gpumeter.common.security.Tokens;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code jwks PUBLIC.pem…}: the key set that lets the services accept tokens of several signing keys. */
@Command(name = "jwks", sortOptions = false,
        description = {"Prints a JSON Web Key Set of the given RSA public keys (PEM, BEGIN PUBLIC KEY), each with the "
                + "kid the tokens signed by its private half carry.",
                "Give it to the services as MP_JWT_VERIFY_PUBLICKEY while a signing key is rotated: they accept "
                        + "tokens of the old and the new key (docs/deploy.md)."})
public final class JwksCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PUBLIC.pem", description = "An RSA public key in PEM, e.g. the old "
            + "key's and the new key's.")
    List<Path> files;

    @Mixin
    StandardOptions standard;

    @Override
    public Integer call() throws IOException {
        List<PublicKey> keys = new ArrayList<>();
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                throw new UsageException(file + " is not a file");
            }
            try {
                keys.add(Tokens.publicKey(Files.readString(file)));
            } catch (IllegalArgumentException e) {
                throw new UsageException(file + " holds no RSA public key in PEM (BEGIN PUBLIC KEY)");
            }
        }
        spec.commandLine().getOut().println(Tokens.jwks(keys));
        return 0;
    }
}
