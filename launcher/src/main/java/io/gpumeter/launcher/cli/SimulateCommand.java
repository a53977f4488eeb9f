package io.gpumeter.launcher.cli;

import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Plan;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** {@code simulate --seed N [--end T] [--out FILE]}: the simulated fleet history as NDJSON watch events. */
public final class SimulateCommand {

    private static final String USAGE = """
            gpumeter simulate [--seed N] [--end 2026-11-30T12:00:00Z] [--out FILE]
              Prints the simulated fleet history as newline-delimited Kubernetes watch events, the body
              POST /api/v1/ingest/kubernetes?cluster=… of the collector accepts. Same seed and end, same bytes.
              --seed N   random seed (default 42)
              --end T    last instant of the history (default: now, to the minute)
              --out FILE write to FILE instead of standard output""";

    private SimulateCommand() {
    }

    public static String usage() {
        return USAGE;
    }

    public static int run(List<String> args, PrintStream out, PrintStream err) throws IOException {
        Arguments a = Arguments.parse(args, Set.of(), Set.of("seed", "end", "out"));
        FleetSimulator simulator = new FleetSimulator(a.longValue("seed", FleetSimulator.DEFAULT_SEED),
                a.instant("end").orElse(FleetSimulator.defaultEnd(Clock.systemUTC())));
        Optional<Path> file = a.path("out");
        if (file.isPresent()) {
            try (Writer w = Files.newBufferedWriter(file.get(), StandardCharsets.UTF_8)) {
                simulator.toNdjson(w);
            }
        } else {
            Writer w = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
            simulator.toNdjson(w);
            w.flush();
        }
        Plan plan = simulator.plan();
        err.printf("%d events, %d pods, %s to %s (month boundary %s)%s%n", plan.events().size(), plan.pods().size(),
                plan.start(), plan.end(), plan.window().monthBoundary(),
                file.map(f -> ", written to " + f.toAbsolutePath()).orElse(""));
        return 0;
    }
}
