package io.gpumeter.slo.acceptance;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * COLD_START: how long the cell's pods created in the window took from their creation to their first successful
 * request. The creation is the ledger's (the pod's metadata.creationTimestamp); the first success is the first of the
 * pod's stored minutes, at or after the minute of its creation, in which a request succeeded. Minutes are all slo-service
 * keeps of a request, so a start-up is counted to that minute's end: at most a minute over the true time, never under.
 * A pod that answered no request successfully by the window's end counts until then, so a pod that never came up
 * cannot make the cell look fast. The cell's figure is its slowest pod's.
 */
final class ColdStarts {

    /**
     * One pod of the cell: its creation (null when the ledger does not know it), its first minute with a successful
     * request since (null: none in the window) and its start-up in seconds (null when it was not created in the window).
     */
    record Start(String pod, Instant createdAt, Instant firstOkMinute, Double seconds) {
    }

    private ColdStarts() {
    }

    static List<Start> of(List<String> pods, Map<String, Instant> createdAt, Map<String, List<Instant>> okMinutes,
                          Instant from, Instant to) {
        List<Start> out = new ArrayList<>();
        for (String pod : pods) {
            Instant created = createdAt.get(pod);
            Instant first = created == null ? null : firstOkSince(okMinutes.getOrDefault(pod, List.of()), created);
            Double seconds = null;
            if (created != null && !created.isBefore(from) && created.isBefore(to)) {
                Instant up = first == null ? to : first.plus(1, ChronoUnit.MINUTES);
                seconds = Duration.between(created, up).toMillis() / 1000.0;
            }
            out.add(new Start(pod, created, first, seconds));
        }
        return out;
    }

    /** The first minute with a success that ends after the creation: the minute it was created in counts. */
    private static Instant firstOkSince(List<Instant> minutes, Instant created) {
        Instant minuteOfCreation = created.truncatedTo(ChronoUnit.MINUTES);
        return minutes.stream().filter(m -> !m.isBefore(minuteOfCreation)).findFirst().orElse(null);
    }

    /** The slowest start-up of the pods created in the window; null when none was. */
    static Double longest(List<Start> starts) {
        return starts.stream().map(Start::seconds).filter(s -> s != null).max(Double::compare).orElse(null);
    }

    static Figures.Figure figure(CellData cell) {
        List<Start> starts = of(cell.pods(), cell.createdAt(), cell.okMinutes(), cell.window().start(),
                cell.window().end());
        StringBuilder csv = new StringBuilder("cell,pod,created_at,first_ok_minute,cold_start_seconds\n");
        starts.forEach(s -> csv.append(PackCsv.line(cell.cell().name(), s.pod(), s.createdAt(), s.firstOkMinute(),
                s.seconds())));
        String missing = cell.pods().isEmpty() ? "the cell's pods reported no requests in the window"
                : cell.createdAt().isEmpty() ? "the ledger knows when none of the cell's pods " + cell.pods()
                + " was created"
                : "no pod of the cell was created in the window: those it has had started before it";
        return Figures.from(longest(starts), missing, cell.calls(), csv.toString());
    }
}
