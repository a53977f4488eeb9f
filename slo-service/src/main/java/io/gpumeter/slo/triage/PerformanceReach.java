package io.gpumeter.slo.triage;

import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Inputs;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Other;
import io.gpumeter.slo.triage.PerformanceDiagnosis.Spell;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * How far a slow service's cause reached and how often it struck: other services' spells on its cards judged to the
 * same cause then (its scope), and its own spells of the week before judged alike (its recurrence), each by the same
 * {@link PerformanceCause} as the spell itself.
 */
final class PerformanceReach {

    private PerformanceReach() {
    }

    /**
     * The other services' pods on the same cards whose spells then triage to the same cause: NODE when there are any
     * (the cause reaches past the service), else POD. A pod whose tenant is not known is counted, never named.
     */
    static Triage.Scope scope(Inputs in, FailureCause cause, PerformanceCause.Thresholds t, Names names) {
        Set<String> alike = new TreeSet<>();
        Set<String> unnamed = new TreeSet<>();
        for (Other o : in.others()) {
            if (judge(o.spell(), o.requests(), in.baseline(), t) != cause) {
                continue;
            }
            for (String pod : o.podsOnCards()) {
                (names.knows(pod) ? alike : unnamed).add(pod);
            }
        }
        alike.forEach(names::pod);
        return new Triage.Scope(alike.isEmpty() && unnamed.isEmpty() ? "POD" : "NODE", List.copyOf(alike),
                unnamed.size());
    }

    /** The service's spells in the week before {@code at} judged to the same cause, this one included. */
    static Triage.Recurrence recurrence(Inputs in, FailureCause cause, PerformanceCause.Thresholds t) {
        Instant since = in.at().minus(PerformanceDiagnosis.RECURRENCE);
        Map<Long, Instant> same = new LinkedHashMap<>();
        for (Spell s : in.history()) {
            if (s.end().isAfter(since) && !s.start().isAfter(in.at())
                    && judge(s, in.requests(), in.baseline(), t) == cause) {
                same.put(s.eventId(), s.start());
            }
        }
        List<Instant> starts = new ArrayList<>(same.values());
        if (in.spell().eventId() == null || !same.containsKey(in.spell().eventId())) {
            starts.add(in.spell().start());
        }
        return new Triage.Recurrence(starts.size(), starts.stream().filter(Objects::nonNull)
                .min(Comparator.naturalOrder()).orElse(in.spell().start()));
    }

    private static FailureCause judge(Spell s, NavigableMap<Instant, Long> requests, Duration baseline,
                                      PerformanceCause.Thresholds t) {
        return PerformanceCause.decide(s.signals(), s.neighboursRead(),
                RequestRate.of(requests, s.start(), s.end(), baseline), t).cause();
    }
}
