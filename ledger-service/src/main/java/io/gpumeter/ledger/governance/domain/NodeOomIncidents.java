package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.FailureCause;

import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.PodStatusFact;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kernel OOM kills reported about a node ({@code OOMKilling} from node-problem-detector, {@code SystemOOM} from the
 * kubelet) name the victim process, not the pod. An event is the same OOM as a container of a pod on that node
 * terminated {@code OOMKilled} closest in time to it, within a tolerance: that pod's incident already counts it, with
 * its pod and tenant. An event no container matches is a node-level OOM incident of its own; the killed process is
 * gone and nothing tells when its work recovered, so it ends at once and stays out of MTTR.
 */
public final class NodeOomIncidents {

    /** The Node event reasons that report a kernel OOM kill. */
    public static final List<String> REASONS = List.of("OOMKilling", "SystemOOM");

    private static final Pattern KILLED = Pattern.compile("Killed process (\\d+) \\(([^)]*)\\)");
    private static final Pattern SYSTEM_OOM = Pattern.compile("victim process: ([^,]+), pid: (\\d+)");

    /** A container run that ended OOMKilled on the node. */
    public record OomTermination(String podUid, String namespace, String pod, String container, Instant finishedAt) {
    }

    /** Which termination an event was linked to, if any, and the incident it makes when none. */
    public record Linked(EventFact event, Optional<OomTermination> termination) {
    }

    private NodeOomIncidents() {
    }

    /** Every OOMKilled termination in these pod versions (each run once), on the node each version names. */
    public static List<OomTermination> terminations(List<PodStatusFact> versions, String node) {
        Map<String, OomTermination> out = new LinkedHashMap<>();
        for (PodStatusFact v : versions) {
            if (!node.equals(v.nodeName())) {
                continue;
            }
            for (ContainerStatusFact c : v.containers()) {
                for (ContainerState s : new ContainerState[]{c.state(), c.lastState()}) {
                    if (s != null && ContainerState.TERMINATED.equals(s.state()) && "OOMKilled".equals(s.reason())
                            && s.finishedAt() != null) {
                        out.putIfAbsent(v.uid() + "|" + c.name() + "|" + s.finishedAt(),
                                new OomTermination(v.uid(), v.namespace(), v.name(), c.name(), s.finishedAt()));
                    }
                }
            }
        }
        return List.copyOf(out.values());
    }

    /** Each OOM event with the termination closest in time to it, when one lies within the tolerance. */
    public static List<Linked> link(List<EventFact> events, List<OomTermination> terminations, Duration tolerance) {
        List<Linked> out = new ArrayList<>();
        for (EventFact e : events) {
            if (!REASONS.contains(e.reason())) {
                continue;
            }
            Optional<OomTermination> closest = terminations.stream()
                    .filter(t -> distance(e, t).compareTo(tolerance) <= 0)
                    .min(Comparator.comparing((OomTermination t) -> distance(e, t)).thenComparing(OomTermination::finishedAt));
            out.add(new Linked(e, closest));
        }
        out.sort(Comparator.comparing(l -> l.event().firstAt()));
        return out;
    }

    /** The node-level incidents: the OOM events of one node that no container termination accounts for. */
    public static List<Incident> derive(String node, List<EventFact> events, List<OomTermination> terminations,
                                        Duration tolerance) {
        List<Incident> out = new ArrayList<>();
        for (Linked l : link(events, terminations, tolerance)) {
            if (l.termination().isPresent()) {
                continue;
            }
            EventFact e = l.event();
            String key = "node-oom/" + node + "/" + e.uid();
            out.add(new Incident(key, "node-oom", node, FailureCause.OOM.label(), FailureCause.OOM.rootCause(), node, null,
                    null, null, null, null, e.firstAt(), null, e.firstAt(), Math.max(1, e.count()),
                    e.reason() + " on node " + node + victim(e.message()).map(v -> ", " + v).orElse("")
                            + " (no OOMKilled container on the node within " + tolerance.toSeconds() + " s)"));
        }
        return out;
    }

    /** "killed process 1234 (python)" from the kernel's or the kubelet's wording, when the message names it. */
    public static Optional<String> victim(String message) {
        if (message == null) {
            return Optional.empty();
        }
        Matcher killed = KILLED.matcher(message);
        if (killed.find()) {
            return Optional.of("killed process " + killed.group(1) + " (" + killed.group(2) + ")");
        }
        Matcher system = SYSTEM_OOM.matcher(message);
        if (system.find()) {
            return Optional.of("killed process " + system.group(2) + " (" + system.group(1).trim() + ")");
        }
        return Optional.empty();
    }

    /** How far a termination lies from an event that may have happened several times between first and last. */
    private static Duration distance(EventFact e, OomTermination t) {
        Instant first = e.firstAt();
        Instant last = e.lastAt() == null || e.lastAt().isBefore(first) ? first : e.lastAt();
        if (!t.finishedAt().isBefore(first) && !t.finishedAt().isAfter(last)) {
            return Duration.ZERO;
        }
        Duration a = Duration.between(first, t.finishedAt()).abs();
        Duration b = Duration.between(last, t.finishedAt()).abs();
        return a.compareTo(b) <= 0 ? a : b;
    }
}
