package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * MTTR: the mean time to recover of the ledger's incidents of the cell's pods that started in the window — recovered
 * less started, over those that recovered. One not recovered (still open, or its pod gone) is in no mean, as in the
 * ledger's own MTTR; it is listed all the same.
 */
final class Mttr {

    /** One incident as the ledger answered it, with its repair in seconds (null: not recovered). */
    record Repair(String id, String namespace, String pod, String cause, String rootCauseClass, Instant startedAt,
                  Instant recoveredAt, Instant endedAt, Double seconds) {
    }

    private Mttr() {
    }

    static List<Repair> of(List<JsonNode> incidents) {
        List<Repair> out = new ArrayList<>();
        for (JsonNode i : incidents) {
            Instant started = instant(i, "startedAt");
            Instant recovered = instant(i, "recoveredAt");
            Double seconds = started == null || recovered == null ? null
                    : Duration.between(started, recovered).toMillis() / 1000.0;
            out.add(new Repair(text(i, "id"), text(i, "namespace"), text(i, "pod"), text(i, "cause"),
                    text(i, "rootCauseClass"), started, recovered, instant(i, "endedAt"), seconds));
        }
        return out;
    }

    /** The mean repair in seconds of those recovered; null when none was. */
    static Double mean(List<Repair> repairs) {
        List<Double> recovered = repairs.stream().map(Repair::seconds).filter(s -> s != null).toList();
        return recovered.isEmpty() ? null
                : recovered.stream().mapToDouble(Double::doubleValue).sum() / recovered.size();
    }

    static Figures.Figure figure(CellData cell) {
        LedgerReads.Read<List<JsonNode>> read = cell.incidents();
        List<Repair> repairs = read == null || read.answer() == null ? List.of() : of(read.answer());
        StringBuilder csv = new StringBuilder("cell,incident_id,namespace,pod,cause,root_cause_class,started_at,"
                + "recovered_at,ended_at,repair_seconds\n");
        repairs.forEach(r -> csv.append(PackCsv.line(cell.cell().name(), r.id(), r.namespace(), r.pod(), r.cause(),
                r.rootCauseClass(), r.startedAt(), r.recoveredAt(), r.endedAt(), r.seconds())));
        List<Run.Call> calls = new ArrayList<>(cell.calls());
        if (read != null) {
            calls.add(read.call());
        }
        String missing = cell.pods().isEmpty() ? "the cell's pods reported no requests in the window"
                : read == null || read.answer() == null ? "the ledger gave no incidents of the cell's pods"
                : repairs.isEmpty() ? "no incident of the cell's pods started in the window: nothing to recover from"
                : repairs.size() + " incident(s) of the cell's pods started in the window, none recovered";
        return Figures.from(mean(repairs), missing, calls, csv.toString());
    }

    private static String text(JsonNode node, String field) {
        return node.path(field).isTextual() ? node.path(field).asText() : null;
    }

    /** An instant the ledger wrote; one it did not write as one is left out rather than failing the run. */
    private static Instant instant(JsonNode node, String field) {
        String v = text(node, field);
        try {
            return v == null ? null : Instant.parse(v);
        } catch (java.time.format.DateTimeParseException e) {
            return null;
        }
    }
}
