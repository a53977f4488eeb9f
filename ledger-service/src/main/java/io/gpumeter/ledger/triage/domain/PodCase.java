package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.violation.domain.Violation;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every fact a triage of one pod reads, up to {@code at}. The first read gives its versions, events, incidents and
 * holdings, from which {@link Leads} picks what to follow; the second gives what that branch needs ({@link Extras}).
 *
 * @param versions  the pod's versions observed up to {@code at}, oldest first
 * @param incidents the pod's own incidents and those of the nodes and cards it ran on, started up to {@code at}
 * @param holdings  the units the pod held over its life
 */
public record PodCase(String cluster, String namespace, String name, String uid, Instant at,
                      List<PodStatusFact> versions, List<EventFact> events, List<LogSignalFact> signals,
                      List<Incident> incidents, List<Holding> holdings, Extras extras) {

    public PodCase {
        versions = versions == null ? List.of() : versions.stream()
                .sorted(Comparator.comparing(PodStatusFact::observedAt)).toList();
        events = events == null ? List.of() : List.copyOf(events);
        signals = signals == null ? List.of() : List.copyOf(signals);
        incidents = incidents == null ? List.of() : List.copyOf(incidents);
        holdings = holdings == null ? List.of() : List.copyOf(holdings);
        extras = extras == null ? Extras.NONE : extras;
    }

    /**
     * What a branch reads once it is chosen.
     *
     * @param cardHoldings  every pod's units on the cards the lead concerns, around it (the neighbours)
     * @param memory        those cards' memory minutes around the lead, by UUID
     * @param nodeOomEvents the kernel OOM events (OOMKilling, SystemOOM) of the pod's nodes
     * @param stack         the lead's node's GPU stack at the lead's start; null when not read
     * @param changes       the change book's entries of the pod's nodes and the cluster before {@code at}, newest first
     * @param violations    the pod's over-use and bypass episodes in the look-back
     * @param grants        the pod's HAMi grants the ledger did not book
     */
    public record Extras(List<Holding> cardHoldings, Map<String, CardMemory> memory, List<EventFact> nodeOomEvents,
                         NodeStack stack, List<BookedChange> changes, List<Violation> violations,
                         List<GrantFinding> grants) {

        public static final Extras NONE = new Extras(null, null, null, null, null, null, null);

        public Extras {
            cardHoldings = cardHoldings == null ? List.of() : List.copyOf(cardHoldings);
            memory = memory == null ? Map.of() : Map.copyOf(memory);
            nodeOomEvents = nodeOomEvents == null ? List.of() : List.copyOf(nodeOomEvents);
            changes = changes == null ? List.of() : List.copyOf(changes);
            violations = violations == null ? List.of() : List.copyOf(violations);
            grants = grants == null ? List.of() : List.copyOf(grants);
        }
    }

    public PodCase with(Extras value) {
        return new PodCase(cluster, namespace, name, uid, at, versions, events, signals, incidents, holdings, value);
    }

    public String key() {
        return namespace + "/" + name;
    }

    public PodStatusFact latest() {
        return versions.get(versions.size() - 1);
    }

    /** Whether any version asks for a GPU resource or the pod ever held a unit of a card. */
    public boolean requestsGpu() {
        return !holdings.isEmpty() || versions.stream().anyMatch(v -> !v.gpuResources().isEmpty());
    }

    /** Every node the pod ran on, as its versions and holdings name them. */
    public Set<String> nodes() {
        return nodesOf(versions, holdings);
    }

    /** Every node these pod versions and holdings name, in order. */
    public static Set<String> nodesOf(Collection<PodStatusFact> versions, Collection<Holding> holdings) {
        Set<String> out = new TreeSet<>();
        versions.forEach(v -> {
            if (v.nodeName() != null) {
                out.add(v.nodeName());
            }
        });
        holdings.forEach(h -> {
            if (h.node() != null) {
                out.add(h.node());
            }
        });
        return out;
    }

    /** The node the pod is on at {@code t}: its holding's, else its newest version's up to then. */
    public String nodeAt(Instant t) {
        for (Holding h : holdings) {
            if (h.covers(t) && h.node() != null) {
                return h.node();
            }
        }
        String node = null;
        for (PodStatusFact v : versions) {
            if (!v.observedAt().isAfter(t) && v.nodeName() != null) {
                node = v.nodeName();
            }
        }
        return node != null ? node : nodes().stream().findFirst().orElse(null);
    }

    /** The cards (UUIDs) the pod held at some instant of [from, to]. */
    public List<String> cardsDuring(Instant from, Instant to) {
        Set<String> out = new TreeSet<>();
        holdings.forEach(h -> {
            if (h.gpuUuid() != null && h.overlaps(from, to)) {
                out.add(h.gpuUuid());
            }
        });
        return new ArrayList<>(out);
    }
}
