package io.gpumeter.slo.triage;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Inputs;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Neighbourhood;
import io.gpumeter.slo.triage.PerformanceDiagnosis.SloReading;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** What a service's triage looked at, and what it could not read or rule out, in the order it was looked at. */
final class PerformanceChecks {

    private PerformanceChecks() {
    }

    /** @param service the service as the answer names it */
    static List<String> of(Inputs in, PerformanceCause.Verdict v, RequestRate rate, String service, Names names) {
        FailureCause cause = v.cause();
        List<String> checked = new ArrayList<>();
        checked.add("jitter events of " + service + " overlapping " + in.lookBack().start() + " to "
                + in.lookBack().end() + ": " + (in.jitter().isEmpty() ? "none" : String.join(", ",
                in.jitter().stream().map(j -> "event " + j.id() + " (SLO " + j.slo() + ")").toList())));
        sloLines(service, in.slos(), in.lookBack(), checked);
        checked.add("the spell: " + in.spell().start() + " to " + in.spell().end() + (in.spell().eventId() == null
                ? " (from the first bad minute of a burning SLO in the look-back)" : " (jitter event " + in.spell().eventId() + ")"));
        Neighbourhood hood = in.neighbourhood();
        checked.add("neighbours: " + hood.source() + "; " + hood.neighbours().size() + " other pod"
                + (hood.neighbours().size() == 1 ? "" : "s") + " on its cards");
        hood.gaps().forEach(g -> checked.add("not read: " + g));
        if (!in.spell().neighboursRead()) {
            checked.add("neighbour interference could not be ruled out: its cards or their other pods were not read whole");
        }
        checked.add("request rate: " + rate.spell().start() + " to " + rate.spell().end() + " against "
                + rate.baseline().start() + " to " + rate.baseline().end());
        if (rate.ratio() == null) {
            checked.add("own load could not be ruled out: no requests from " + rate.baseline().start() + " to "
                    + rate.baseline().end() + " to compare with");
        } else if (v.loadRose() && cause != FailureCause.OWN_LOAD) {
            checked.add(String.format(Locale.ROOT, "own load was not ruled out: its request rate rose too (x%s)",
                    PerformanceDiagnosis.plain(rate.ratio())));
        }
        if (in.interference() != null && in.interference().ifLatency() == null) {
            checked.add("interference factor " + in.interference().window().start() + " to "
                    + in.interference().window().end() + ": no minutes both alone and shared on its cards to compare");
        }
        checked.addAll(PressureFacts.checks(in, v, names));
        checked.add("recurrence: its jitter events in the " + PerformanceDiagnosis.RECURRENCE.toDays() + " days before " + in.at()
                + ", each judged by the suspects and the request rates stored with it");
        checked.add("scope: other services' jitter events overlapping the spell whose pods were its neighbours");
        checked.addAll(in.notes());
        return checked;
    }

    static void sloLines(String service, List<SloReading> slos, TimeWindow lookBack, List<String> checked) {
        if (slos.isEmpty()) {
            checked.add("SLOs: none selects " + service);
        }
        for (SloReading s : slos) {
            checked.add("SLO " + s.name() + (s.sli() == null ? "" : " (" + s.sli() + ")") + ": " + (s.problem() != null
                    ? "could not be read (" + s.problem() + ")" : s.firstFiring() != null
                    ? "burning from " + s.firstFiring() : "not burning from " + lookBack.start() + " to "
                    + lookBack.end() + " (" + s.state() + " at " + lookBack.end() + ")"));
        }
    }
}
