package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Plan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Callable;

/** {@code simulate}: the simulated fleet history as NDJSON watch events. */
@Command(name = "simulate", sortOptions = false,
        description = {"Prints the simulated fleet history as newline-delimited Kubernetes watch events, the body "
                + "POST /api/v1/ingest/kubernetes?cluster=... of the collector accepts. Same seed and end, same bytes.",
                "A summary (events, pods, time span) goes to standard error."})
public final class SimulateCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--seed", paramLabel = "N", converter = Converters.WholeNumber.class,
            defaultValue = "" + FleetSimulator.DEFAULT_SEED, description = "The random seed (default ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--end", paramLabel = "T", converter = Converters.Rfc3339.class, description = "The history's "
            + "last instant, RFC 3339 such as 2026-11-30T12:00:00Z (default: now, to the minute).")
    Instant end;

    @Option(names = "--out", paramLabel = "FILE", description = "Write to FILE instead of standard output.")
    Path out;

    @Mixin
    StandardOptions standard;

    @Override
    public Integer call() throws IOException {
        FleetSimulator simulator = new FleetSimulator(seed, end != null ? end : FleetSimulator.defaultEnd(Clock.systemUTC()));
        Path target = out == null ? null : CallerPaths.resolve(out);
        if (target != null) {
            try (Writer w = Files.newBufferedWriter(target, StandardCharsets.UTF_8)) {
                simulator.toNdjson(w);
            }
        } else {
            PrintWriter w = spec.commandLine().getOut();
            simulator.toNdjson(w);
            w.flush();
        }
        Plan plan = simulator.plan();
        spec.commandLine().getErr().printf("%d events, %d pods, %s to %s (month boundary %s)%s%n", plan.events().size(),
                plan.pods().size(), plan.start(), plan.end(), plan.window().monthBoundary(),
                target != null ? ", written to " + target.toAbsolutePath() : "");
        return 0;
    }
}
