package io.gpumeter.launcher.suite;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * One file per running service ({@code <state>/run/<service>.pid}: child pid, launcher pid, jar), so that a run
 * killed without its shutdown hook can be cleaned up by the next one instead of answering its health checks.
 */
final class RunRecords {

    private static final Logger LOG = LoggerFactory.getLogger(RunRecords.class);

    private final Path directory;

    RunRecords(Path directory) {
        this.directory = directory;
    }

    void write(Service service, long childPid, Path jar) {
        try {
            Files.createDirectories(directory);
            Files.writeString(file(service), childPid + " " + ProcessHandle.current().pid() + " " + jar + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void remove(Service service) {
        try {
            Files.deleteIfExists(file(service));
        } catch (IOException e) {
            LOG.warn("could not remove {}: {}", file(service), e.getMessage());
        }
    }

    /**
     * Refuses to go on while another live launcher owns {@code service}; stops the service a dead launcher left
     * behind (only if it still runs that very jar).
     */
    void clearStale(Service service) {
        Path file = file(service);
        if (!Files.isRegularFile(file)) {
            return;
        }
        String[] parts;
        try {
            parts = Files.readString(file).trim().split(" ", 3);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (parts.length < 3) {
            remove(service);
            return;
        }
        long child = Long.parseLong(parts[0]);
        long launcher = Long.parseLong(parts[1]);
        String jar = parts[2];
        if (launcher != ProcessHandle.current().pid() && ProcessHandle.of(launcher).map(ProcessHandle::isAlive).orElse(false)) {
            throw new SuiteException(service.module() + " belongs to another running gpumeter (pid " + launcher
                    + ", see " + file + "); stop that one first.");
        }
        Optional<ProcessHandle> orphan = ProcessHandle.of(child).filter(ProcessHandle::isAlive)
                .filter(p -> p.info().commandLine().map(c -> c.contains(jar)).orElse(false));
        if (orphan.isPresent()) {
            LOG.warn("stopping {} (pid {}) left running by an earlier gpumeter", service.module(), child);
            orphan.get().destroy();
            try {
                orphan.get().onExit().get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                orphan.get().destroyForcibly();
            }
        }
        remove(service);
    }

    private Path file(Service service) {
        return directory.resolve(service.id() + ".pid");
    }
}
