package io.gpumeter.slo.triage;

import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Spell;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The causes of a slow spell the verdict did not pick, and what ruled each out: the neighbours on its cards (none
 * arrived or rose), its own load (its request rate did not rise), the host's and the card's causes (none of their
 * pressures rose, {@link PressureFacts}); null where it could not be ruled out.
 */
final class PerformanceAlternatives {

    /** The suspects an answer describes when it rules neighbours out. */
    static final int DESCRIBED = 3;

    private PerformanceAlternatives() {
    }

    static List<Triage.Alternative> of(PerformanceCause.Verdict v, Spell spell, PerformanceCause.Thresholds t, Names names) {
        FailureCause cause = v.cause();
        List<Triage.Alternative> alternatives = new ArrayList<>();
        if (cause != FailureCause.NEIGHBOUR_INTERFERENCE) {
            alternatives.add(new Triage.Alternative(FailureCause.NEIGHBOUR_INTERFERENCE.label(),
                    neighboursRuledOut(v, spell, t, names)));
        }
        if (cause != FailureCause.OWN_LOAD) {
            alternatives.add(new Triage.Alternative(FailureCause.OWN_LOAD.label(), loadRuledOut(v, t)));
        }
        for (FailureCause c : PressureFacts.CAUSES) {
            if (c != cause) {
                alternatives.add(new Triage.Alternative(c.label(), PressureFacts.ruledOut(c, v, spell, t, names)));
            }
        }
        return alternatives;
    }

    /** What ruled neighbour interference out; null when it could not be (its neighbours were not read whole). */
    private static String neighboursRuledOut(PerformanceCause.Verdict v, Spell spell, PerformanceCause.Thresholds t,
                                             Names names) {
        List<PerformanceCause.Signal> neighbours = spell.signals().stream().filter(PerformanceCause.Signal::neighbour)
                .toList();
        if (!spell.neighboursRead() || v.changed(FailureCause.NEIGHBOUR_INTERFERENCE)) {
            return null;
        }
        if (neighbours.isEmpty()) {
            return "no other pod held its cards at " + spell.start();
        }
        List<String> described = new ArrayList<>();
        for (PerformanceCause.Signal n : neighbours.subList(0, Math.min(DESCRIBED, neighbours.size()))) {
            SuspectRanking.Suspect s = n.suspect();
            String arrived = s.arrivedMinutesBefore() == null ? "arrival unknown"
                    : String.format(Locale.ROOT, "present %.1f min before", s.arrivedMinutesBefore());
            String activity = n.ownRise().map(r -> String.format(Locale.ROOT, "its own %s +%.3f", r.field(), r.rise()))
                    .orElse(s.rises() == null || s.rises().isEmpty() ? "no activity curve" : "only the card's curves");
            described.add(names.pod(s.key()) + " (" + arrived + ", " + activity + ")");
        }
        int more = neighbours.size() - described.size();
        return String.format(Locale.ROOT, "no neighbour on its cards arrived in the %d min before %s or rose by %s: %s%s",
                SuspectRanking.ARRIVAL_HORIZON.toMinutes(), spell.start(), PerformanceDiagnosis.plain(t.minActivityRise()),
                String.join("; ", described), more > 0 ? " and " + more + " more" : "");
    }

    /** What ruled the service's own load out; null when it could not be (it rose too, or there was no baseline). */
    private static String loadRuledOut(PerformanceCause.Verdict v, PerformanceCause.Thresholds t) {
        RequestRate r = v.rate();
        if (v.loadRose() || r == null || r.ratio() == null) {
            return null;
        }
        return String.format(Locale.ROOT, "its request rate did not rise: %s a minute against %s before (x%s, under x%s)",
                PerformanceDiagnosis.plain(r.spellPerMinute()), PerformanceDiagnosis.plain(r.baselinePerMinute()), PerformanceDiagnosis.plain(r.ratio()), PerformanceDiagnosis.plain(t.loadRise()));
    }
}
