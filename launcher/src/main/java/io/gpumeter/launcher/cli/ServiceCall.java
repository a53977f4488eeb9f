package io.gpumeter.launcher.cli;

import io.gpumeter.common.fact.ClusterName;
import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.launcher.suite.LocalKeys;
import io.gpumeter.launcher.suite.Service;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** What the commands that call a suite service share: its address, the --cluster check and the bearer token. */
final class ServiceCall {

    private ServiceCall() {
    }

    /** The service's base address, {@code given} or the local run's, without a trailing slash. */
    static String base(URI given, Service service) {
        URI address = given != null ? given : URI.create("http://127.0.0.1:" + service.defaultPort());
        return address.toString().replaceAll("/+$", "");
    }

    /** Refuses a --cluster that is no cluster name, in our own words naming the option; null is none given. */
    static void requireCluster(String cluster) {
        if (cluster == null) {
            return;
        }
        try {
            ClusterName.require("--cluster", cluster);
        } catch (InvalidInput e) {
            throw new UsageException(e.getMessage());
        }
    }

    /**
     * The token to send: the file's, GPUMETER_TOKEN, or one the local run's key (under {@code stateDir}) signs for
     * {@code subject} with {@code roles} for an hour; empty when there is none of these.
     */
    static Optional<String> token(Path tokenFile, Map<String, String> env, Path stateDir, String subject,
                                  List<String> roles) throws IOException {
        if (tokenFile != null) {
            return Optional.of(Files.readString(CallerPaths.resolve(tokenFile)).trim());
        }
        String given = env.get("GPUMETER_TOKEN");
        if (given != null && !given.isBlank()) {
            return Optional.of(given.trim());
        }
        Path state = stateDir.toAbsolutePath().normalize();
        if (Files.isDirectory(state.resolve("keys"))) {
            return Optional.of(LocalKeys.in(state).token(subject, roles, Duration.ofHours(1)));
        }
        return Optional.empty();
    }
}
