package io.gpumeter.deploy;

import org.junit.jupiter.api.Assumptions;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Outside tools (kubectl, promtool, amtool): found on the PATH, or the calling test is skipped with a message that
 * names the tool and how to get it. Never a silent pass.
 */
final class Tools {

    /** What a finished tool run printed. */
    record Result(int exitCode, String stdout, String stderr) {
        boolean ok() {
            return exitCode == 0;
        }

        /** Both streams, for failure messages. */
        String output() {
            return stdout + stderr;
        }
    }

    private Tools() {
    }

    static Optional<Path> find(String tool) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir).resolve(tool);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }

    /** The tool's path, or the test is skipped ("assumption failed") with a message naming it. */
    static Path require(String tool, String howToGetIt) {
        Optional<Path> found = find(tool);
        Assumptions.assumeTrue(found.isPresent(), () -> tool + " is not on the PATH: skipped (" + howToGetIt + ")");
        return found.get();
    }

    static Path promtool() {
        return require("promtool", "apt-get install prometheus");
    }

    static Path amtool() {
        return require("amtool", "apt-get install prometheus-alertmanager");
    }

    private static volatile String kubectlTooOld;

    /** kubectl with a built-in kustomize new enough for k8s/ (1.27 or newer); older ones skip like a missing one. */
    static Path kubectl() {
        Path kubectl = require("kubectl", "kubectl 1.27 or newer, whose built-in kustomize renders k8s/");
        if (kubectlTooOld == null) {
            Result version = run(Path.of("."), List.of(kubectl.toString(), "version", "--client", "-o", "json"));
            Matcher minor = Pattern.compile("\"minor\"\\s*:\\s*\"(\\d+)").matcher(version.stdout());
            boolean recent = version.ok() && minor.find() && Integer.parseInt(minor.group(1)) >= 27;
            kubectlTooOld = recent ? "" : "kubectl on the PATH (" + kubectl + ") is older than 1.27: skipped, its kustomize "
                    + "cannot render k8s/ (Debian's kubernetes-client is 1.20)";
        }
        Assumptions.assumeTrue(kubectlTooOld.isEmpty(), kubectlTooOld);
        return kubectl;
    }

    /** Runs a tool to completion (2 minutes at most) in a directory. */
    static Result run(Path workDir, List<String> command) {
        List<String> cmd = new ArrayList<>(command);
        try {
            Path out = Files.createTempFile("gpumeter-tool", ".out");
            Path err = Files.createTempFile("gpumeter-tool", ".err");
            try {
                Process p = new ProcessBuilder(cmd).directory(workDir.toFile())
                        .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
                if (!p.waitFor(2, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new IllegalStateException(String.join(" ", cmd) + " did not finish within 2 minutes");
                }
                return new Result(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                        Files.readString(err, StandardCharsets.UTF_8));
            } finally {
                Files.deleteIfExists(out);
                Files.deleteIfExists(err);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
