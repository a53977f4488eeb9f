package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.PendingReason;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The gang-scheduling history of one Volcano PodGroup: its phase trail (a group is born Pending; phases carry no
 * time of their own, so Running takes the Scheduled condition's time), its waits (Scheduled turning True −
 * creation) and where it stands now.
 */
public final class PodGroupTrail {

    /** One phase of the trail, with the best time known for it (null when no source gives one). */
    public record Phase(String phase, Instant at) {
    }

    private final List<PodGroupFact> versions;
    private final List<EventFact> events;
    private final List<Transition> transitions;
    private final PodGroupFact latest;

    public PodGroupTrail(List<PodGroupFact> versions, List<EventFact> events) {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("a pod group trail needs at least one version");
        }
        this.versions = Versions.ordered(versions, PodGroupFact::resourceVersion, PodGroupFact::observedAt);
        this.events = events.stream().sorted(Comparator.comparing(EventFact::firstAt)).toList();
        this.transitions = Transition.of(this.versions, PodGroupFact::conditions);
        this.latest = this.versions.get(this.versions.size() - 1);
    }

    public QueueKeys keys() {
        return new QueueKeys(QueueSource.VOLCANO, latest.uid(), latest.namespace(), latest.name(), null, null,
                latest.queue(), "volcano");
    }

    public Instant createdAt() {
        return versions.stream().map(PodGroupFact::createdAt).filter(t -> t != null).findFirst().orElse(latest.observedAt());
    }

    /** Pending at creation, then every phase change across the versions. */
    public List<Phase> phases() {
        List<Phase> phases = new ArrayList<>();
        phases.add(new Phase("Pending", createdAt()));
        for (PodGroupFact v : versions) {
            String phase = v.phase();
            if (phase != null && !phase.equals(phases.get(phases.size() - 1).phase())) {
                phases.add(new Phase(phase, phaseTime(phase, v)));
            }
        }
        return phases;
    }

    private Instant phaseTime(String phase, PodGroupFact version) {
        if ("Running".equals(phase)) {
            Instant scheduled = null;
            for (Transition t : transitions) {
                if (t.type().equals("Scheduled") && t.isTrue() && !t.at().isAfter(version.observedAt())) {
                    scheduled = t.at();
                }
            }
            return scheduled;
        }
        return null;
    }

    public List<WaitEpisode> episodes() {
        List<WaitEpisode> out = new ArrayList<>();
        Instant from = createdAt();
        boolean requeued = false;
        for (Transition t : transitions) {
            if (t.type().equals("Scheduled") && t.isTrue()) {
                if (from != null) {
                    out.add(new WaitEpisode(keys(), from, t.at(), t.at(), requeued));
                }
                from = null;
            } else if (t.type().equals("Unschedulable") && t.isTrue() && from == null) {
                from = t.at();
                requeued = true;
            }
        }
        return out;
    }

    public QueueState state() {
        Instant created = createdAt();
        int admissions = episodes().size();
        int rejections = (int) transitions.stream().filter(t -> t.type().equals("Unschedulable") && t.isTrue()).count();
        if (latest.type() == WatchEventType.DELETED) {
            return new QueueState(keys(), created, QueueState.State.DELETED, null, null, null, null, rejections, admissions);
        }
        String phase = latest.phase() == null ? "Pending" : latest.phase();
        switch (phase) {
            case "Running" -> {
                return new QueueState(keys(), created, QueueState.State.ADMITTED, null, null, phase, null, rejections, admissions);
            }
            case "Completed" -> {
                return new QueueState(keys(), created, QueueState.State.FINISHED, null, null, phase, null, rejections, admissions);
            }
            default -> {
                Transition why = null;
                Instant since = created;
                for (Transition t : transitions) {
                    if (t.type().equals("Unschedulable") && t.isTrue()) {
                        why = t;
                    } else if (t.type().equals("Scheduled") && t.isTrue()) {
                        since = t.at();
                        why = null;
                    }
                }
                String message = why == null ? null : why.message();
                return new QueueState(keys(), created, QueueState.State.PENDING, since, PendingReason.classify(message),
                        why == null ? phase : why.reason(), message, rejections, admissions);
            }
        }
    }

    public List<TrailEntry> trail() {
        List<TrailEntry> trail = new ArrayList<>();
        trail.add(TrailEntry.of(createdAt(), "created", null, null, "queue " + latest.queue(),
                latest.minMember() == null ? null : "minMember " + latest.minMember()));
        for (Transition t : transitions) {
            trail.add("Unschedulable".equals(t.type()) && t.isTrue()
                    ? TrailEntry.refusal(t.at(), "unschedulable", t.reason(), t.message(), PendingReason.classify(t.message()), null)
                    : TrailEntry.of(t.at(), t.type().toLowerCase(java.util.Locale.ROOT), t.status(), t.reason(), t.message(), null));
        }
        for (Phase p : phases().subList(1, phases().size())) {
            trail.add(TrailEntry.of(p.at(), "phase", p.phase(), null, null, null));
        }
        for (EventFact e : events) {
            trail.add("Warning".equals(e.eventType())
                    ? TrailEntry.refusal(e.firstAt(), "event", e.reason(), e.message(), PendingReason.classify(e.message()), null)
                    : TrailEntry.of(e.firstAt(), "event", e.eventType(), e.reason(), e.message(), null));
        }
        // Phases without a time of their own stay after everything timed that came before them.
        trail.sort(Comparator.comparing(TrailEntry::at, Comparator.nullsLast(Comparator.naturalOrder())));
        return trail;
    }
}
