package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.governance.domain.TrailEntry;
import io.gpumeter.ledger.governance.domain.WaitEpisode;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * How often the same cause made one owner's objects (a Job's pods, its Workloads, its PodGroups) wait in the seven
 * days before an instant. A wait still going then is judged by the tree with the facts of then; a wait that ended
 * before is counted when what was said of it last (the class of its last refusal) names the same cause or the same
 * refusal as this one: the nodes of its own time are not read again.
 */
public final class Recurrences {

    static final Duration WINDOW = Duration.ofDays(7);

    private Recurrences() {
    }

    /**
     * One wait of one object.
     *
     * @param key   the object's key ({@link WaitJudge#key})
     * @param until when it ended; null for a wait still going at the instant
     * @param said  the class of the last refusal said of it, null when none was
     */
    public record Wait(String key, Instant from, Instant until, String said) {
    }

    /** The waits of one object as its trail shows them by the instant: those that ended, and the one going on. */
    public static List<Wait> of(String key, List<WaitEpisode> episodes, List<TrailEntry> trail, QueueState state) {
        List<Wait> out = new ArrayList<>();
        for (WaitEpisode e : episodes) {
            out.add(new Wait(key, e.waitFrom(), e.admittedAt(), lastSaid(trail, e.waitFrom(), e.admittedAt())));
        }
        if (WaitJudge.WAITING.contains(state.state().name())) {
            Instant from = state.waitingSince() != null ? state.waitingSince() : state.createdAt();
            out.add(new Wait(key, from, null, state.reasonClass() == null ? null : state.reasonClass().label()));
        }
        return out;
    }

    private static String lastSaid(List<TrailEntry> trail, Instant from, Instant until) {
        String said = null;
        for (TrailEntry t : trail) {
            if (t.reasonClass() != null && t.at() != null && !t.at().isBefore(from) && !t.at().isAfter(until)) {
                said = t.reasonClass();
            }
        }
        return said;
    }

    /**
     * @param subject    the key of the object triaged; its own wait going on counts as one
     * @param diagnosis  its cause
     * @param told       the class of what was said of it
     * @param stillGoing the causes the tree gives the waits still going at the instant, by key
     */
    public static Triage.Recurrence count(Instant at, String subject, WaitDiagnosis diagnosis, String told,
                                          List<Wait> waits, Map<String, WaitDiagnosis> stillGoing) {
        Instant since = at.minus(WINDOW);
        int count = 0;
        Instant first = null;
        boolean self = false;
        for (Wait w : waits) {
            if (w.from() == null || w.from().isAfter(at) || w.until() != null && w.until().isBefore(since)) {
                continue;
            }
            boolean same;
            if (w.until() == null && w.key().equals(subject)) {
                same = !self;
                self = true;
            } else if (w.until() == null && stillGoing.containsKey(w.key())) {
                same = stillGoing.get(w.key()).cause().equals(diagnosis.cause());
            } else {
                same = w.said() != null && (w.said().equals(diagnosis.cause()) || w.said().equals(told));
            }
            if (same) {
                count++;
                first = first == null || w.from().isBefore(first) ? w.from() : first;
            }
        }
        return new Triage.Recurrence(count, first);
    }
}
