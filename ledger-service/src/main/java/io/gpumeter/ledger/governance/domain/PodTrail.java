package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.NotScheduled;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.triage.PendingReason;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The scheduling history of one GPU pod: created → scheduled with the scheduler's refusals in between (its
 * FailedScheduling events, else the PodScheduled=False condition it keeps on the pod), plus the request checks that
 * explain a pod no scheduler will place (a HAMi request sent to another scheduler, gpumem together with
 * gpumem-percentage, GPU cores over 100).
 */
public final class PodTrail {

    /** The PodScheduled reason of a pod a scheduling gate holds back (Kueue's, until its Workload is admitted). */
    public static final String GATED = "SchedulingGated";

    /** A problem with the request itself, found without asking the scheduler. */
    public record Finding(PendingReason reason, String message) {
    }

    private final List<PodStatusFact> versions;
    private final List<EventFact> events;
    private final PodStatusFact latest;

    public PodTrail(List<PodStatusFact> versions, List<EventFact> events) {
        if (versions.isEmpty()) {
            throw new IllegalArgumentException("a pod trail needs at least one version");
        }
        this.versions = Versions.ordered(versions, PodStatusFact::resourceVersion, PodStatusFact::observedAt);
        this.events = events.stream().sorted(Comparator.comparing(EventFact::firstAt)).toList();
        this.latest = this.versions.get(this.versions.size() - 1);
    }

    public QueueKeys keys() {
        String scheduler = latest.schedulerName() == null ? "default-scheduler" : latest.schedulerName();
        return new QueueKeys(QueueSource.POD, latest.uid(), latest.namespace(), latest.name(), null, latest.queueName(),
                null, scheduler);
    }

    /** The pod group its newest version names (Volcano's or the coscheduling plugin's); null without one. */
    public String groupName() {
        for (int i = versions.size() - 1; i >= 0; i--) {
            if (versions.get(i).groupName() != null) {
                return versions.get(i).groupName();
            }
        }
        return null;
    }

    public Instant createdAt() {
        Instant created = first(PodStatusFact::createdAt);
        return created != null ? created : latest.observedAt();
    }

    public Instant scheduledAt() {
        return first(PodStatusFact::scheduledAt);
    }

    /** The first version's instant that is set, or null: a plain loop, as every pod of a replay asks several times. */
    private Instant first(Function<PodStatusFact, Instant> field) {
        for (PodStatusFact version : versions) {
            Instant at = field.apply(version);
            if (at != null) {
                return at;
            }
        }
        return null;
    }

    public List<WaitEpisode> episodes() {
        Instant scheduled = scheduledAt();
        return scheduled == null ? List.of() : List.of(new WaitEpisode(keys(), createdAt(), scheduled, scheduled, false));
    }

    /** Problems of the request itself, from the newest version ({@link RequestChecks}). */
    public List<Finding> findings() {
        return RequestChecks.of(latest.gpuResources(), keys().scheduler());
    }

    /** The newest version's PodScheduled=False condition while the pod is not scheduled, or null. */
    public NotScheduled notScheduled() {
        return scheduledAt() == null ? latest.scheduling() : null;
    }

    /** The newest version. */
    public PodStatusFact latest() {
        return latest;
    }

    /**
     * When what {@link #state()} says of a pending pod was said: its latest FailedScheduling event, else its
     * PodScheduled=False condition's transition, else its creation.
     */
    public Instant refusedAt() {
        Instant event = events.stream().filter(e -> "FailedScheduling".equals(e.reason())).map(EventFact::lastAt)
                .filter(t -> t != null).max(Comparator.naturalOrder()).orElse(null);
        if (event != null) {
            return event;
        }
        NotScheduled condition = latest.scheduling();
        return condition != null && condition.since() != null ? condition.since() : createdAt();
    }

    public QueueState state() {
        Instant created = createdAt();
        int rejections = (int) events.stream().filter(e -> "FailedScheduling".equals(e.reason())).mapToInt(EventFact::count).sum();
        int admissions = scheduledAt() == null ? 0 : 1;
        if (latest.type() == WatchEventType.DELETED) {
            return new QueueState(keys(), created, QueueState.State.DELETED, null, null, null, null, rejections, admissions);
        }
        if ("Succeeded".equals(latest.phase()) || "Failed".equals(latest.phase())) {
            return new QueueState(keys(), created, QueueState.State.FINISHED, null, null, latest.phase(),
                    latest.message(), rejections, admissions);
        }
        if (scheduledAt() != null) {
            return new QueueState(keys(), created, QueueState.State.ADMITTED, null, null, latest.nodeName(), null,
                    rejections, admissions);
        }
        List<Finding> findings = findings();
        if (!findings.isEmpty()) {
            Finding f = findings.get(0);
            return new QueueState(keys(), created, QueueState.State.PENDING, created, f.reason(), "RequestCheck",
                    f.message(), rejections, admissions);
        }
        EventFact why = events.stream().filter(e -> "FailedScheduling".equals(e.reason()))
                .max(Comparator.comparing(EventFact::lastAt)).orElse(null);
        if (why != null) {
            return new QueueState(keys(), created, QueueState.State.PENDING, created, PendingReason.classify(why.message()),
                    why.reason(), why.message(), rejections, admissions);
        }
        // a scheduler that records no event, or whose events expired, still keeps its refusal on the pod
        NotScheduled condition = latest.scheduling();
        if (condition != null && condition.message() != null) {
            return new QueueState(keys(), created, QueueState.State.PENDING, created,
                    PendingReason.classify(condition.message()), condition.reason() == null ? "Unschedulable" : condition.reason(),
                    condition.message(), GATED.equals(condition.reason()) ? rejections : Math.max(rejections, 1), admissions);
        }
        return new QueueState(keys(), created, QueueState.State.PENDING, created, PendingReason.OTHER, "Unscheduled", null,
                rejections, admissions);
    }

    public List<TrailEntry> trail() {
        List<TrailEntry> trail = new ArrayList<>();
        Instant created = createdAt();
        trail.add(TrailEntry.of(created, "created", null, null, "scheduler " + keys().scheduler(), asks()));
        for (Finding f : findings()) {
            trail.add(TrailEntry.refusal(created, "check", f.reason().label(), f.message(), f.reason(), null));
        }
        for (EventFact e : events) {
            String detail = e.count() > 1 ? e.count() + " times until " + e.lastAt() : null;
            if ("FailedScheduling".equals(e.reason())) {
                trail.add(TrailEntry.refusal(e.firstAt(), "failed-scheduling", e.reason(), e.message(),
                        PendingReason.classify(e.message()), detail));
            } else if (!"Scheduled".equals(e.reason())) {
                trail.add(TrailEntry.of(e.firstAt(), "event", e.eventType(), e.reason(), e.message(), detail));
            }
        }
        Map<String, NotScheduled> conditions = new LinkedHashMap<>();
        for (PodStatusFact v : versions) {
            NotScheduled c = v.scheduling();
            if (c != null && c.message() != null) {
                conditions.putIfAbsent(c.reason() + "|" + c.message(), c);
            }
        }
        for (NotScheduled c : conditions.values()) {
            trail.add(TrailEntry.refusal(c.since() != null ? c.since() : created, "unschedulable", c.reason(), c.message(),
                    PendingReason.classify(c.message()), null));
        }
        Instant scheduled = scheduledAt();
        if (scheduled != null) {
            String node = versions.stream().map(PodStatusFact::nodeName).filter(n -> n != null).findFirst().orElse(null);
            trail.add(TrailEntry.of(scheduled, "scheduled", "True", null, node == null ? null : "on node " + node,
                    "waited " + java.time.Duration.between(created, scheduled).toSeconds() + " s"));
        }
        Map<String, TrailEntry> containers = new LinkedHashMap<>();
        for (PodStatusFact v : versions) {
            for (ContainerStatusFact c : v.containers()) {
                containerEntry(c, c.state(), v).ifPresent(e -> containers.putIfAbsent(c.name() + "|" + e.reason() + "|" + e.at(), e));
                containerEntry(c, c.lastState(), v).ifPresent(e -> containers.putIfAbsent(c.name() + "|" + e.reason() + "|" + e.at(), e));
            }
            if (v.reason() != null) {
                containers.putIfAbsent("pod|" + v.reason(), TrailEntry.of(v.readyChangedAt() != null ? v.readyChangedAt() : created,
                        "pod-status", v.phase(), v.reason(), v.message(), null));
            }
        }
        trail.addAll(containers.values());
        if (latest.type() == WatchEventType.DELETED) {
            trail.add(TrailEntry.of(latest.deletedAt() != null ? latest.deletedAt() : latest.observedAt(), "deleted",
                    null, null, null, null));
        }
        trail.sort(Comparator.comparing(TrailEntry::at, Comparator.nullsLast(Comparator.naturalOrder())));
        return trail;
    }

    /** A waiting state has no time of its own: it follows the last run's end, else the Ready change, else its sighting. */
    private static java.util.Optional<TrailEntry> containerEntry(ContainerStatusFact c, ContainerState s, PodStatusFact v) {
        String name = c.name();
        if (s == null || s.reason() == null || "Completed".equals(s.reason()) || "ContainerCreating".equals(s.reason())
                || "PodInitializing".equals(s.reason())) {
            return java.util.Optional.empty();
        }
        Instant at = s.finishedAt();
        if (at == null) {
            ContainerState last = c.lastState();
            at = last != null && last.finishedAt() != null ? last.finishedAt()
                    : v.readyChangedAt() != null ? v.readyChangedAt() : v.observedAt();
        }
        String detail = s.exitCode() == null ? "container " + name : "container " + name + ", exit code " + s.exitCode();
        return java.util.Optional.of(TrailEntry.of(at, "container", s.state(), s.reason(), s.message(), detail));
    }

    private String asks() {
        return latest.gpuResources().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .reduce((a, b) -> a + " " + b).orElse(null);
    }
}
