package io.gpumeter.launcher.suite;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** One service running as a child JVM, its output appended to a log file. */
final class ServiceProcess {

    private static final int TAIL_BYTES = 8192;

    private final Service service;
    private final int port;
    private final int managementPort;
    private final Path logFile;
    private final Process process;
    private final Instant startedAt = Instant.now();
    private volatile Duration readyAfter;

    private ServiceProcess(Service service, int port, int managementPort, Path logFile, Process process) {
        this.service = service;
        this.port = port;
        this.managementPort = managementPort;
        this.logFile = logFile;
        this.process = process;
    }

    static ServiceProcess spawn(Service service, Path java, Path jar, Path workDir, int port, int managementPort,
                                List<String> jvmOptions, Map<String, String> env, Path logFile) throws IOException {
        Files.createDirectories(logFile.getParent());
        Files.writeString(logFile, "---- " + service.module() + " starting at " + Instant.now() + " on port " + port
                        + " ----" + System.lineSeparator(), StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        List<String> command = new ArrayList<>();
        command.add(java.toString());
        command.addAll(jvmOptions);
        command.add("-jar");
        command.add(jar.toString());
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(workDir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(env);
        return new ServiceProcess(service, port, managementPort, logFile, builder.start());
    }

    Service service() {
        return service;
    }

    int port() {
        return port;
    }

    /** Where the process serves {@code /q/health}. */
    int managementPort() {
        return managementPort;
    }

    long pid() {
        return process.pid();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    Path logFile() {
        return logFile;
    }

    /** Notes that the service answered ready, and how long after its start. */
    void markReady() {
        if (readyAfter == null) {
            readyAfter = Duration.between(startedAt, Instant.now());
        }
    }

    /** How long the service took from its start to its first ready answer; null until then. */
    Duration readyAfter() {
        return readyAfter;
    }

    /** Asks the service to shut down (SIGTERM), children first. */
    void terminate() {
        process.descendants().forEach(ProcessHandle::destroy);
        process.destroy();
    }

    /** Kills the service and its children at once (SIGKILL) and waits for the exit. */
    void kill() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        process.onExit().join();
    }

    /** Waits up to {@code grace} for the exit; kills (SIGKILL) whatever is still alive after it. */
    void awaitExitOrKill(Duration grace) {
        try {
            process.onExit().get(Math.max(0, grace.toMillis()), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // fall through to the kill
        }
        if (process.isAlive()) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            process.onExit().join();
        }
    }

    /** The last lines of the log, for error messages. */
    String logTail() {
        try (RandomAccessFile file = new RandomAccessFile(logFile.toFile(), "r")) {
            long length = file.length();
            long from = Math.max(0, length - TAIL_BYTES);
            byte[] bytes = new byte[(int) (length - from)];
            file.seek(from);
            file.readFully(bytes);
            String text = new String(bytes, StandardCharsets.UTF_8);
            return from > 0 ? text.substring(Math.max(0, text.indexOf('\n') + 1)) : text;
        } catch (IOException e) {
            return "(log " + logFile + " unreadable: " + e.getMessage() + ")";
        }
    }
}
