package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.FailureCause;

import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The failures of one GPU pod and when each recovered. A failure is seen in a container state (OOMKilled,
 * CreateContainerError, ImagePullBackOff, CrashLoopBackOff…), the pod's status reason (TopologyAffinityError), an
 * event (FailedCreatePodSandBox) or a pushed log line (CUDA out of memory, no CUDA-capable device, NCCL timeout).
 * It recovers when a run of the container starts after it and does not fail again; failures reported before that
 * recovery are one incident. A pod that ended unrecovered recovers when a pod of the same owner starts running
 * after the failure (its replacement); otherwise the incident ended with the pod.
 */
public final class PodIncidents {

    private record Observation(FailureCause cause, Instant at, String container, int count, String evidence) {
    }

    private record Run(String container, Instant startedAt, boolean failed) {
    }

    private PodIncidents() {
    }

    public static List<Incident> derive(List<PodStatusFact> podVersions, List<EventFact> events,
                                        List<LogSignalFact> signals, List<Instant> replacementStarts) {
        if (podVersions.isEmpty()) {
            return List.of();
        }
        List<PodStatusFact> versions = Versions.ordered(podVersions, PodStatusFact::resourceVersion, PodStatusFact::observedAt);
        PodStatusFact latest = versions.get(versions.size() - 1);
        List<Observation> observations = observations(versions, events, signals);
        List<Run> runs = runs(versions);
        Instant ended = ended(versions);
        List<Instant> replacements = replacementStarts.stream().sorted().toList();
        Map<String, Incident> incidents = new LinkedHashMap<>();
        Map<String, Incident> openByCause = new TreeMap<>();
        for (Observation o : observations) {
            String track = o.cause() + "|" + (o.container() == null ? "" : o.container());
            Incident current = openByCause.get(track);
            if (current != null && (current.recoveredAt() == null || o.at().isBefore(current.recoveredAt()))) {
                Incident merged = withOccurrences(current, current.occurrences() + o.count());
                openByCause.put(track, merged);
                incidents.put(merged.key(), merged);
                continue;
            }
            Instant recovered = recovery(runs, o.container(), o.at());
            String evidence = o.evidence();
            Instant endedAt = null;
            if (recovered == null && ended != null) {
                recovered = replacements.stream().filter(t -> t.isAfter(o.at())).findFirst().orElse(null);
                if (recovered != null) {
                    evidence = evidence + "; recovered by a replacement pod";
                } else {
                    endedAt = ended.isBefore(o.at()) ? o.at() : ended;
                }
            }
            String key = "pod/" + latest.uid() + "/" + o.cause().label() + "/" + (o.container() == null ? "-" : o.container())
                    + "/" + o.at();
            Incident incident = new Incident(key, "pod", latest.uid(), o.cause().label(), o.cause().rootCause(),
                    node(versions), null, null, latest.namespace(), latest.name(), latest.uid(), o.at(), recovered,
                    endedAt, o.count(), evidence);
            openByCause.put(track, incident);
            incidents.put(key, incident);
        }
        return List.copyOf(incidents.values());
    }

    /** When any container of these pod versions started a run: the replacement times of a failed sibling. */
    public static List<Instant> runStarts(List<PodStatusFact> versions) {
        return runs(versions).stream().filter(r -> !r.failed()).map(Run::startedAt).distinct().sorted().toList();
    }

    private static List<Observation> observations(List<PodStatusFact> versions, List<EventFact> events,
                                                  List<LogSignalFact> signals) {
        Map<String, Observation> seen = new LinkedHashMap<>();
        for (PodStatusFact v : versions) {
            Instant fallback = v.readyChangedAt() != null ? v.readyChangedAt()
                    : v.scheduledAt() != null ? v.scheduledAt() : v.createdAt() != null ? v.createdAt() : v.observedAt();
            for (ContainerStatusFact c : v.containers()) {
                for (ContainerState s : new ContainerState[]{c.lastState(), c.state()}) {
                    if (s != null && ContainerState.TERMINATED.equals(s.state()) && s.finishedAt() != null) {
                        FailureCause cause = FailureCause.ofContainerReason(s.reason());
                        if (cause != null) {
                            add(seen, new Observation(cause, s.finishedAt(), c.name(), 1,
                                    s.reason() + (s.exitCode() == null ? "" : " (exit code " + s.exitCode() + ")")));
                        }
                    }
                }
                ContainerState s = c.state();
                if (s != null && ContainerState.WAITING.equals(s.state())) {
                    FailureCause cause = FailureCause.ofContainerReason(s.reason());
                    ContainerState last = c.lastState();
                    boolean lastWasOom = last != null && "OOMKilled".equals(last.reason());
                    if (cause == FailureCause.CRASH_LOOP && lastWasOom) {
                        continue;
                    }
                    if (cause != null) {
                        Instant at = cause == FailureCause.CRASH_LOOP && last != null && last.finishedAt() != null
                                ? last.finishedAt() : fallback;
                        add(seen, new Observation(cause, at, c.name(), 1,
                                s.reason() + (s.message() == null ? "" : ": " + s.message())));
                    }
                }
            }
            FailureCause podCause = FailureCause.ofPodReason(v.reason());
            if (podCause != null) {
                Instant at = events.stream().filter(e -> v.reason().equals(e.reason())).map(EventFact::firstAt)
                        .min(Comparator.naturalOrder()).orElse(fallback);
                add(seen, new Observation(podCause, at, null, 1, v.reason() + (v.message() == null ? "" : ": " + v.message())));
            }
        }
        for (EventFact e : events) {
            FailureCause cause = FailureCause.ofPodReason(e.reason());
            if (cause != null) {
                add(seen, new Observation(cause, e.firstAt(), null, e.count(), e.reason() + ": " + e.message()));
            }
        }
        for (LogSignalFact s : signals) {
            FailureCause cause = FailureCause.ofLabel(s.signal());
            if (cause != null) {
                add(seen, new Observation(cause, s.at(), s.container(), 1, s.line()));
            }
        }
        List<Observation> out = new ArrayList<>(seen.values());
        out.sort(Comparator.comparing(Observation::at));
        return out;
    }

    /** The same failure seen twice (two versions, or a status reason and its event) is one observation. */
    private static void add(Map<String, Observation> seen, Observation o) {
        String key = o.cause() + "|" + o.container() + "|" + o.at();
        String podKey = o.cause() + "|null|" + o.at();
        if (o.container() == null && seen.keySet().stream().anyMatch(k -> k.startsWith(o.cause() + "|null|"))) {
            return;
        }
        seen.putIfAbsent(o.container() == null ? podKey : key, o);
    }

    /** Every run of every container, with whether it ended in a failure. */
    private static List<Run> runs(List<PodStatusFact> versions) {
        Map<RunKey, Run> runs = new LinkedHashMap<>();
        for (PodStatusFact v : versions) {
            for (ContainerStatusFact c : v.containers()) {
                if (c.init()) {
                    continue;
                }
                for (ContainerState s : new ContainerState[]{c.lastState(), c.state()}) {
                    if (s == null || s.startedAt() == null) {
                        continue;
                    }
                    boolean failed = ContainerState.TERMINATED.equals(s.state())
                            && (s.exitCode() == null || s.exitCode() != 0 || FailureCause.ofContainerReason(s.reason()) != null);
                    RunKey key = new RunKey(c.name(), s.startedAt());
                    Run before = runs.get(key);
                    runs.put(key, new Run(c.name(), s.startedAt(), failed || before != null && before.failed()));
                }
            }
        }
        List<Run> out = new ArrayList<>(runs.values());
        out.sort(Comparator.comparing(Run::startedAt));
        return out;
    }

    /** A container's run, by the instant it started: a key written out as text formatted every instant anew. */
    private record RunKey(String container, Instant startedAt) {
    }

    private static Instant recovery(List<Run> runs, String container, Instant after) {
        return runs.stream().filter(r -> !r.failed() && r.startedAt().isAfter(after)
                && (container == null || container.equals(r.container()))).map(Run::startedAt).findFirst().orElse(null);
    }

    /** When the pod stopped existing or running: its deletion, else the end of a terminal phase. */
    private static Instant ended(List<PodStatusFact> versions) {
        PodStatusFact latest = versions.get(versions.size() - 1);
        if (latest.type() == WatchEventType.DELETED) {
            return latest.deletedAt() != null ? latest.deletedAt() : latest.observedAt();
        }
        if ("Failed".equals(latest.phase()) || "Succeeded".equals(latest.phase())) {
            Instant last = latest.readyChangedAt();
            for (ContainerStatusFact c : latest.containers()) {
                if (c.state() != null && c.state().finishedAt() != null && (last == null || c.state().finishedAt().isAfter(last))) {
                    last = c.state().finishedAt();
                }
            }
            return last != null ? last : latest.observedAt();
        }
        return null;
    }

    private static String node(List<PodStatusFact> versions) {
        String node = null;
        for (PodStatusFact v : versions) {
            node = v.nodeName() != null ? v.nodeName() : node;
        }
        return node;
    }

    private static Incident withOccurrences(Incident i, int occurrences) {
        return new Incident(i.key(), i.scope(), i.subject(), i.cause(), i.rootCause(), i.node(), i.gpuPci(), i.gpuUuid(),
                i.namespace(), i.pod(), i.podUid(), i.startedAt(), i.recoveredAt(), i.endedAt(), occurrences, i.evidence());
    }
}
