package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.PendingReason;

import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.fact.WorkloadFact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The admission history of one Kueue Workload, rebuilt from all its observed versions and the events about it:
 * its wait episodes (QuotaReserved turning True − creation, or − the last eviction/requeue), where it stands now,
 * and the ordered trail of decisions.
 */
public final class WorkloadTrail {

    private static final Set<String> INTERRUPTIONS = Set.of("Evicted", "Preempted", "Requeued");

    private final List<WorkloadFact> versions;
    private final List<EventFact> events;
    private final List<Transition> transitions;
    private final WorkloadFact latest;

    public WorkloadTrail(List<WorkloadFact> versions, List<EventFact> events) {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("a workload trail needs at least one version");
        }
        this.versions = Versions.ordered(versions, WorkloadFact::resourceVersion, WorkloadFact::observedAt);
        this.events = events.stream().sorted(Comparator.comparing(EventFact::firstAt)).toList();
        this.transitions = Transition.of(this.versions, WorkloadFact::conditions);
        this.latest = this.versions.get(this.versions.size() - 1);
    }

    public QueueKeys keys() {
        String clusterQueue = null;
        for (WorkloadFact v : versions) {
            clusterQueue = v.clusterQueue() != null ? v.clusterQueue() : clusterQueue;
        }
        String scheduler = latest.podSets().stream().map(p -> p.schedulerName()).filter(s -> s != null).findFirst()
                .orElse("default-scheduler");
        return new QueueKeys(QueueSource.KUEUE, latest.uid(), latest.namespace(), latest.name(), clusterQueue,
                latest.queueName(), null, scheduler);
    }

    public Instant createdAt() {
        return versions.stream().map(WorkloadFact::createdAt).filter(t -> t != null).findFirst().orElse(latest.observedAt());
    }

    /** Every wait that ended in admission, oldest first. */
    public List<WaitEpisode> episodes() {
        QueueKeys keys = keys();
        List<WaitEpisode> out = new ArrayList<>();
        for (Transition reserved : transitions) {
            if (!reserved.type().equals("QuotaReserved") || !reserved.isTrue()) {
                continue;
            }
            Optional<Transition> admitted = transitions.stream()
                    .filter(t -> t.type().equals("Admitted") && t.isTrue() && !t.at().isBefore(reserved.at()))
                    .findFirst();
            if (admitted.isEmpty()) {
                continue;
            }
            Instant from = waitStart(reserved.at());
            out.add(new WaitEpisode(keys, from, reserved.at(), admitted.get().at(), from.isAfter(createdAt())));
        }
        return out;
    }

    /** Creation, or the last eviction, preemption or requeue at or before the given instant. */
    private Instant waitStart(Instant until) {
        Instant from = createdAt();
        for (Transition t : transitions) {
            if (INTERRUPTIONS.contains(t.type()) && t.isTrue() && !t.at().isAfter(until) && t.at().isAfter(from)) {
                from = t.at();
            }
        }
        return from;
    }

    public QueueState state() {
        QueueKeys keys = keys();
        int rejections = rejections();
        int admissions = episodes().size();
        Instant created = createdAt();
        if (latest.type() == WatchEventType.DELETED) {
            return new QueueState(keys, created, QueueState.State.DELETED, null, null, null, null, rejections, admissions);
        }
        Transition finished = last("Finished", true);
        if (finished != null) {
            return new QueueState(keys, created, QueueState.State.FINISHED, null, null, finished.reason(),
                    finished.message(), rejections, admissions);
        }
        Map<String, Transition> current = currentConditions();
        Transition evicted = current.get("Evicted");
        Transition deactivated = current.get("Deactivated");
        if (Boolean.FALSE.equals(latest.active()) || deactivated != null && deactivated.isTrue()
                || evicted != null && evicted.isTrue() && evicted.reason() != null && evicted.reason().startsWith("Deactivated")) {
            Transition why = evicted != null && evicted.isTrue() ? evicted : deactivated;
            String message = why == null ? "spec.active is false" : why.message();
            PendingReason cls = why != null && why.reason() != null && why.reason().contains("AdmissionCheck")
                    ? PendingReason.ADMISSION_CHECK : PendingReason.INACTIVE;
            return new QueueState(keys, created, QueueState.State.INACTIVE, why == null ? created : why.at(), cls,
                    why == null ? "Inactive" : why.reason(), message, rejections, admissions);
        }
        Transition reserved = current.get("QuotaReserved");
        Transition admitted = current.get("Admitted");
        if (evicted != null && evicted.isTrue() && reserved != null && reserved.isTrue() && !evicted.at().isBefore(reserved.at())) {
            return new QueueState(keys, created, QueueState.State.EVICTED, evicted.at(), PendingReason.classify(evicted.message()),
                    evicted.reason(), evicted.message(), rejections, admissions);
        }
        if (admitted != null && admitted.isTrue()) {
            return new QueueState(keys, created, QueueState.State.ADMITTED, null, null, admitted.reason(), admitted.message(),
                    rejections, admissions);
        }
        Instant since = waitStart(Instant.MAX);
        if (reserved != null && reserved.isTrue()) {
            String checks = pendingChecks();
            return new QueueState(keys, created, QueueState.State.PENDING, since, PendingReason.ADMISSION_CHECK,
                    "AdmissionChecksPending", checks, rejections, admissions);
        }
        String reason = reserved == null ? null : reserved.reason();
        String message = reserved == null ? null : reserved.message();
        Instant reasonAt = reserved == null ? null : reserved.at();
        for (EventFact e : events) {
            if ("Pending".equals(e.reason()) && (reasonAt == null || e.lastAt().isAfter(reasonAt))) {
                reason = e.reason();
                message = e.message();
                reasonAt = e.lastAt();
            }
        }
        return new QueueState(keys, created, QueueState.State.PENDING, since, PendingReason.classify(message),
                reason == null ? "Queued" : reason, message, rejections, admissions);
    }

    /** Refusals: distinct QuotaReserved=False transitions that say why, else distinct Pending events. */
    int rejections() {
        long refused = transitions.stream().filter(t -> t.type().equals("QuotaReserved") && !t.isTrue()
                && t.message() != null && !t.message().isBlank()).count();
        if (refused > 0) {
            return (int) refused;
        }
        return (int) events.stream().filter(e -> "Pending".equals(e.reason())).map(EventFact::uid).distinct().count();
    }

    /** The ordered trail of decisions: creation, every condition change, admission checks and events. */
    public List<TrailEntry> trail() {
        List<TrailEntry> trail = new ArrayList<>();
        trail.add(TrailEntry.of(createdAt(), "created", null, null, "queue " + latest.queueName(), WorkloadEntries.requests(latest)));
        String placement = WorkloadEntries.placement(versions);
        for (Transition t : transitions) {
            trail.add(WorkloadEntries.entry(t, placement));
        }
        Map<String, AdmissionCheckState> checks = new LinkedHashMap<>();
        for (WorkloadFact v : versions) {
            for (AdmissionCheckState c : v.admissionChecks()) {
                if (c.lastTransitionTime() != null) {
                    checks.put(c.name() + "|" + c.state() + "|" + c.lastTransitionTime(), c);
                }
            }
        }
        for (AdmissionCheckState c : checks.values()) {
            trail.add(TrailEntry.of(c.lastTransitionTime(), "admission-check", c.state(), c.name(), c.message(), null));
        }
        for (EventFact e : events) {
            PendingReason cls = "Warning".equals(e.eventType()) || "Pending".equals(e.reason()) ? PendingReason.classify(e.message()) : null;
            String detail = e.count() > 1 ? e.count() + " times until " + e.lastAt() : null;
            trail.add(cls == null ? TrailEntry.of(e.firstAt(), "event", e.eventType(), e.reason(), e.message(), detail)
                    : TrailEntry.refusal(e.firstAt(), "event", e.reason(), e.message(), cls, detail));
        }
        if (latest.type() == WatchEventType.DELETED) {
            trail.add(TrailEntry.of(latest.deletedAt() != null ? latest.deletedAt() : latest.observedAt(), "deleted",
                    null, null, null, null));
        }
        trail.sort(Comparator.comparing(TrailEntry::at));
        return trail;
    }

    private String pendingChecks() {
        return latest.admissionChecks().stream().filter(c -> !"Ready".equals(c.state()))
                .map(c -> c.name() + " " + c.state() + (c.message() == null ? "" : ": " + c.message()))
                .collect(Collectors.joining("; "));
    }

    private Map<String, Transition> currentConditions() {
        Map<String, Transition> current = new LinkedHashMap<>();
        latest.conditions().forEach(c -> {
            if (c.type() != null) {
                current.put(c.type(), new Transition(c.type(), c.status(), c.reason(), c.message(),
                        c.lastTransitionTime() != null ? c.lastTransitionTime() : latest.observedAt()));
            }
        });
        return current;
    }

    private Transition last(String type, boolean isTrue) {
        Transition found = null;
        for (Transition t : transitions) {
            if (t.type().equals(type) && t.isTrue() == isTrue) {
                found = t;
            }
        }
        return found;
    }
}
