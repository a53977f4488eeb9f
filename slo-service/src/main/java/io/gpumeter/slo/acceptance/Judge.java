package io.gpumeter.slo.acceptance;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.slo.acceptance.Plan.Clause;
import io.gpumeter.slo.acceptance.Plan.Kind;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns each clause into a verdict: PASS or FAIL against its limit when the figure could be computed, NO_DATA when
 * it could not — never PASS without data.
 */
public final class Judge {

    /** Figures are kept to 4 decimal places: latencies to a tenth of a microsecond, ratios well past their limits. */
    static final int SCALE = 4;

    private Judge() {
    }

    public static Run.Outcome judge(Plan plan, Clause clause, Map<String, CellData> cells, FleetFigures fleet) {
        if (clause.kind() == Kind.BLOCKED) {
            return blocked(plan, clause, fleet);
        }
        CellData cell = cells.get(clause.cell());
        Figures.Figure figure = Figures.of(clause.metric(), clause.sli(), cell, cells, fleet);
        List<Run.Call> calls = new ArrayList<>();
        List<Run.PodFact> pods = new ArrayList<>(cell.facts());
        String csv = figure.csv();
        Double observed = figure.value();
        String missing = figure.missing();
        // what a computed figure's reader should know of it (energy measured for part of the hours), by cell
        List<String> notes = new ArrayList<>();
        if (figure.note() != null) {
            notes.add(clause.kind() == Kind.RATIO ? clause.cell() + ": " + figure.note() : figure.note());
        }
        if (clause.kind() == Kind.RATIO) {
            CellData base = cells.get(clause.baselineCell());
            Figures.Figure baseline = Figures.of(clause.metric(), clause.sli(), base, cells, fleet);
            if (baseline.note() != null) {
                notes.add(clause.baselineCell() + ": " + baseline.note());
            }
            pods.addAll(base.facts());
            csv = csv + baseline.csv().substring(baseline.csv().indexOf('\n') + 1);
            calls.addAll(baseline.calls());
            if (observed != null && (baseline.value() == null || baseline.value() == 0)) {
                missing = baseline.value() == null ? clause.baselineCell() + ": " + baseline.missing()
                        : clause.baselineCell() + " has a figure of 0 to divide by";
                observed = null;
            } else if (observed != null) {
                observed = observed / baseline.value();
            }
        }
        figure.calls().forEach(c -> {
            if (!calls.contains(c)) {
                calls.add(0, c);
            }
        });
        if (clause.metric().takesSli() || clause.metric() == Plan.Metric.INTERFERENCE_FACTOR) {
            // where a reviewer reads the cell's latency again: slo-service's own read of the same stored minutes
            calls.add(0, new Run.Call(CurlLine.slo("/api/v1/latency", "service", cell.service(),
                    "namespace", cell.namespace(), "sli", String.valueOf(clause.sli() == null ? "TTFT" : clause.sli()),
                    "from", plan.from().toString(), "to", plan.to().toString()), 200,
                    "the cell's minutes as stored in slo.latency_minute; the curve CSV holds them"));
        }
        boolean floor = clause.max() == null;
        BigDecimal limit = floor ? clause.min() : clause.max();
        String comparison = floor ? ">=" : "<=";
        String unit = clause.kind() == Kind.RATIO ? "x" : clause.metric().unit();
        if ("cost".equals(unit) && CostFigures.currency(fleet) != null) {
            unit = CostFigures.currency(fleet); // billing's currency, e.g. USD
        }
        String what = clause.metric() + (clause.sli() == null ? "" : " " + clause.sli()) + " of " + clause.cell()
                + (clause.kind() == Kind.RATIO ? " over " + clause.baselineCell() : "");
        Run.Evidence evidence = new Run.Evidence(List.copyOf(calls), List.copyOf(pods), List.of(), csv);
        if (observed == null) {
            return new Run.Outcome(clause.name(), clause.quadrant().name(), clause.kind().name(),
                    clause.metric().name(), sli(clause), clause.cell(), clause.baselineCell(), Run.NO_DATA, null, limit, comparison, unit,
                    what + ": no data (" + missing + ")", evidence);
        }
        BigDecimal value = BigDecimal.valueOf(observed).setScale(SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
        boolean pass = floor ? value.compareTo(limit) >= 0 : value.compareTo(limit) <= 0;
        // a ceiling bounds the figure from above, a floor from below; a clause with both must meet both
        if (pass && !floor && clause.min() != null) {
            pass = value.compareTo(clause.min()) >= 0;
        }
        String verdict = pass ? Run.PASS : Run.FAIL;
        return new Run.Outcome(clause.name(), clause.quadrant().name(), clause.kind().name(), clause.metric().name(),
                sli(clause), clause.cell(), clause.baselineCell(), verdict, value, limit, comparison, unit, what + " = " + value.toPlainString()
                + " " + unit + " " + comparison + " " + limit.toPlainString() + ": " + verdict
                + (notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")"), evidence);
    }

    /**
     * The pod (or Kueue workload) must be among what the ledger lists as waiting — Pending or rejected — having begun
     * to wait before the window's end, with the reason the cluster gave quoted. The ledger lists what waits when the
     * run is computed; the figure is how long it had waited when the clause's time was up ({@code from + within}, at
     * most {@code to}).
     */
    private static Run.Outcome blocked(Plan plan, Clause clause, FleetFigures fleet) {
        Instant at = checkedAt(plan, clause);
        LedgerReads.Read<JsonNode> read = fleet.pending.get(at);
        List<Run.Call> calls = read == null ? List.of() : List.of(read.call());
        BigDecimal limit = BigDecimal.valueOf(clause.within().toSeconds());
        String what = clause.namespace() + "/" + clause.pod() + " held back by " + at;
        if (read == null || read.answer() == null) {
            return new Run.Outcome(clause.name(), clause.quadrant().name(), "BLOCKED", null, null, null, null,
                    Run.NO_DATA, null, limit, "<=", "s", what + ": no data (the ledger gave no answer)",
                    new Run.Evidence(calls, List.of(), List.of(), "namespace,name,state,waiting_since,age_seconds\n"));
        }
        StringBuilder csv = new StringBuilder("namespace,name,state,waiting_since,age_seconds,reason\n");
        JsonNode found = null;
        for (JsonNode p : read.answer()) {
            if (clause.namespace().equals(p.path("namespace").asText()) && clause.pod().equals(p.path("name").asText())) {
                found = p;
                csv.append(PackCsv.line(p.path("namespace"), p.path("name"), p.path("state"), p.path("waitingSince"),
                        p.path("ageSeconds"), p.path("reason")));
            }
        }
        if (found == null) {
            return new Run.Outcome(clause.name(), clause.quadrant().name(), "BLOCKED", null, null, null, null,
                    Run.FAIL, null, limit, "<=", "s", what + ": not waiting in any queue at " + at
                    + ", so not held back: FAIL",
                    new Run.Evidence(calls, List.of(), List.of(), csv.toString()));
        }
        List<String> quotes = new ArrayList<>();
        for (String field : List.of("state", "reasonClass", "reason", "message")) {
            if (!found.path(field).asText("").isEmpty()) {
                quotes.add(field + ": " + found.path(field).asText());
            }
        }
        Instant since = found.hasNonNull("waitingSince") ? Instant.parse(found.path("waitingSince").asText()) : at;
        if (!since.isBefore(plan.to())) {
            return new Run.Outcome(clause.name(), clause.quadrant().name(), "BLOCKED", null, null, null, null,
                    Run.FAIL, null, limit, "<=", "s", what + ": it began waiting at " + since
                    + ", after the window: FAIL",
                    new Run.Evidence(calls, List.of(), List.copyOf(quotes), csv.toString()));
        }
        BigDecimal waited = BigDecimal.valueOf(Math.max(0, java.time.Duration.between(since, at).toSeconds()));
        return new Run.Outcome(clause.name(), clause.quadrant().name(), "BLOCKED", null, null, null, null,
                Run.PASS, waited, limit, "<=", "s", what + ": waiting since " + since + " ("
                + found.path("state").asText("") + ": " + found.path("message").asText(found.path("reason").asText(""))
                + "): PASS",
                new Run.Evidence(calls, List.of(), List.copyOf(quotes), csv.toString()));
    }

    static Instant checkedAt(Plan plan, Clause clause) {
        Instant due = plan.from().plus(clause.within());
        return due.isAfter(plan.to()) ? plan.to() : due;
    }

    private static String sli(Clause clause) {
        return clause.sli() == null ? null : clause.sli().name();
    }
}
