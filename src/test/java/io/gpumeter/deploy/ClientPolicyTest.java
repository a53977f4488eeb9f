package io.gpumeter.deploy;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One way to call a service: every client class takes its timeout, retries and breaker from configuration (common's
 * defaults, a service's per-class entries) through class-level annotations, and reads answers through common's
 * {@code Answers}; no method carries numbers of its own, and no client judges a status code by hand.
 */
class ClientPolicyTest {

    private static final Pattern METHOD_LEVEL_POLICY = Pattern.compile("(?m)^ {4}@(Timeout|Retry|CircuitBreaker)\\b");
    private static final Pattern POLICY_NUMBERS = Pattern.compile(
            "@(Timeout|Retry|CircuitBreaker)\\([^)]*\\b(value|maxRetries|delay|jitter|requestVolumeThreshold|failureRatio)\\s*=");
    private static final Pattern HAND_STATUS = Pattern.compile("getStatus\\(\\)\\s*==\\s*404");
    private static final Pattern PER_CLASS_KEY = Pattern.compile("^(?:%\\w+\\.)?quarkus\\.fault-tolerance\\.\"([\\w.]+)(/\\w+)?\"\\.");

    @Test
    void everyClientTakesItsPolicyFromConfigurationAtClassLevel() {
        List<Path> clients = clients();
        assertTrue(clients.size() >= 8, "the five services' client classes: " + clients);
        List<String> wrong = new ArrayList<>();
        for (Path client : clients) {
            String src = Repo.read(client);
            if (!src.contains("\n@Timeout")) {
                wrong.add(client.getFileName() + ": no class-level @Timeout");
            }
            if (METHOD_LEVEL_POLICY.matcher(src).find()) {
                wrong.add(client.getFileName() + ": a method carries its own timeout, retry or breaker");
            }
            if (POLICY_NUMBERS.matcher(src).find()) {
                wrong.add(client.getFileName() + ": numbers in an annotation instead of configuration");
            }
            if (HAND_STATUS.matcher(src).find()) {
                wrong.add(client.getFileName() + ": judges a 404 by hand instead of through Answers");
            }
        }
        assertEquals(List.of(), wrong);
    }

    @Test
    void commonHoldsTheOneDefaultPolicy() throws IOException {
        Properties defaults = new Properties();
        try (Reader in = Files.newBufferedReader(
                Repo.root().resolve("common/src/main/resources/META-INF/microprofile-config.properties"))) {
            defaults.load(in);
        }
        for (String key : List.of("timeout.value", "timeout.unit", "retry.max-retries", "retry.delay", "retry.jitter",
                "circuit-breaker.request-volume-threshold", "circuit-breaker.failure-ratio", "circuit-breaker.delay")) {
            assertTrue(defaults.containsKey("quarkus.fault-tolerance.global." + key), "common sets no default " + key);
        }
        for (String svc : Repo.SERVICES) {
            String props = Repo.read(Repo.root().resolve(svc + "-service/src/main/resources/application.properties"));
            assertFalse(props.lines().anyMatch(l -> l.startsWith("quarkus.fault-tolerance.global.")),
                    svc + "-service redefines the default policy instead of overriding one client");
        }
    }

    @Test
    void everyPerClientSettingNamesAClientThatExists() {
        List<String> unknown = new ArrayList<>();
        for (String svc : Repo.SERVICES) {
            Path module = Repo.root().resolve(svc + "-service");
            String props = Repo.read(module.resolve("src/main/resources/application.properties"));
            for (String line : props.lines().toList()) {
                Matcher m = PER_CLASS_KEY.matcher(line);
                if (m.find()) {
                    Path source = module.resolve("src/main/java/" + m.group(1).replace('.', '/') + ".java");
                    if (!Files.isRegularFile(source)) {
                        unknown.add(svc + "-service: " + m.group(1));
                    } else if (m.group(2) != null) {
                        // A class-level policy is configured per class: a method's key would configure nothing.
                        unknown.add(svc + "-service: " + m.group(1) + m.group(2) + " (a method key)");
                    }
                }
            }
        }
        assertEquals(List.of(), unknown, "settings for classes that do not exist, or for methods of a class-level policy, configure nothing");
    }

    /** The classes that hold a {@code @RestClient} of another service. */
    private static List<Path> clients() {
        List<Path> found = new ArrayList<>();
        for (String svc : Repo.SERVICES) {
            Path sources = Repo.root().resolve(svc + "-service/src/main/java");
            try (Stream<Path> files = Files.walk(sources)) {
                files.filter(f -> f.toString().endsWith(".java"))
                        .filter(f -> Repo.read(f).contains("@RestClient "))
                        .forEach(found::add);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return found;
    }
}
