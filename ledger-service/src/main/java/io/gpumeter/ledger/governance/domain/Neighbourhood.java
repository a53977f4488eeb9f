package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodStatusFact;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * What a batch's objects are read with, indexed once: the events about each object, the log signals of each pod and
 * the run starts of each owner's pods. Looking each object up in the whole batch's lists made deriving a batch grow
 * with the square of its objects; these lookups answer in the lists' own order, as the scans did.
 */
public final class Neighbourhood {

    private record Name(String namespace, String name) {
    }

    private record Siblings(String namespace, Owner owner) {
    }

    private final List<EventFact> events;
    private final Map<String, List<Integer>> eventsByUid = new HashMap<>();
    private final Map<Name, List<Integer>> eventsByName = new HashMap<>();
    private final Map<Name, List<LogSignalFact>> signalsByPod = new HashMap<>();
    private final Map<Siblings, List<String>> podsByOwner = new HashMap<>();
    private final Map<String, List<PodStatusFact>> pods;

    private Neighbourhood(List<EventFact> events, List<LogSignalFact> signals, Map<String, List<PodStatusFact>> pods) {
        this.events = events;
        this.pods = pods;
        for (int i = 0; i < events.size(); i++) {
            EventFact e = events.get(i);
            if (e.involvedUid() != null) {
                eventsByUid.computeIfAbsent(e.involvedUid(), k -> new ArrayList<>()).add(i);
            } else {
                eventsByName.computeIfAbsent(new Name(e.involvedNamespace(), e.involvedName()), k -> new ArrayList<>()).add(i);
            }
        }
        for (LogSignalFact s : signals) {
            signalsByPod.computeIfAbsent(new Name(s.namespace(), s.pod()), k -> new ArrayList<>()).add(s);
        }
        pods.forEach((uid, versions) -> {
            PodStatusFact any = versions.get(0);
            if (any.owner() != null) {
                podsByOwner.computeIfAbsent(new Siblings(any.namespace(), any.owner()), k -> new ArrayList<>()).add(uid);
            }
        });
    }

    /** Events alone, for objects other than pods. */
    public static Neighbourhood of(List<EventFact> events) {
        return new Neighbourhood(events, List.of(), Map.of());
    }

    /** Events, log signals and the pods (each uid's versions) among which replacements are looked for. */
    public static Neighbourhood of(List<EventFact> events, List<LogSignalFact> signals, Map<String, List<PodStatusFact>> pods) {
        return new Neighbourhood(events, signals, pods);
    }

    /** The events about the object: by its uid, or by namespace and name where an event names no uid. */
    public List<EventFact> about(String uid, String namespace, String name) {
        TreeSet<Integer> at = new TreeSet<>(eventsByUid.getOrDefault(uid, List.of()));
        if (name != null) {
            at.addAll(eventsByName.getOrDefault(new Name(namespace, name), List.of()));
        }
        List<EventFact> out = new ArrayList<>(at.size());
        at.forEach(i -> out.add(events.get(i)));
        return out;
    }

    public List<LogSignalFact> signals(String namespace, String pod) {
        return signalsByPod.getOrDefault(new Name(namespace, pod), List.of());
    }

    /** Run starts of the other pods of the same owner: a replacement recovers a pod that ended failed. */
    public List<Instant> replacements(String uid) {
        PodStatusFact any = pods.get(uid).get(0);
        if (any.owner() == null) {
            return List.of();
        }
        List<Instant> starts = new ArrayList<>();
        for (String other : podsByOwner.getOrDefault(new Siblings(any.namespace(), any.owner()), List.of())) {
            if (!other.equals(uid)) {
                starts.addAll(PodIncidents.runStarts(pods.get(other)));
            }
        }
        return starts;
    }
}
