package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.config.ViolationConfig;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.governance.repository.IncidentSourceRepository;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.triage.domain.CardMemory;
import io.gpumeter.ledger.triage.domain.Holding;
import io.gpumeter.ledger.triage.domain.Leads.Lead;
import io.gpumeter.ledger.triage.domain.MemoryMinute;
import io.gpumeter.ledger.triage.domain.PodCase;
import io.gpumeter.ledger.triage.repository.CardMemoryRepository;
import io.gpumeter.ledger.triage.repository.HoldingRepository;
import io.gpumeter.ledger.triage.repository.OveruseRepository;
import io.gpumeter.ledger.triage.repository.PodVersionRepository;
import io.gpumeter.ledger.triage.repository.TriageIncidentRepository;
import io.gpumeter.ledger.violation.domain.Violation;
import io.gpumeter.ledger.violation.domain.ViolationRules;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a pod's case in two rounds of bulk reads: first its versions, events, log signals and holdings, then the
 * incidents of it and of the nodes it ran on; once the lead is known, what its branch needs (the changes always; the
 * cards' memory, their neighbours and the node's OOM events for an OOM; the node's GPU stack for a driver or a MIG
 * layout; the over-use and HAMi findings when nothing failed).
 */
@ApplicationScoped
public class PodCaseReader {

    /** How far back over-use episodes are read: the recurrence's week. */
    static final Duration WEEK = Duration.ofDays(7);
    /** The minutes of memory read around an OOM: the growth before it and the minute it happened. */
    static final Duration MEMORY_BEFORE = Duration.ofMinutes(10);

    private final Pool pool;
    private final PodVersionRepository versions;
    private final HoldingRepository holdings;
    private final TriageIncidentRepository incidents;
    private final CardMemoryRepository memory;
    private final OveruseRepository overuse;
    private final GovernanceSourceRepository source;
    private final IncidentSourceRepository incidentSource;
    private final StackReader stacks;
    private final ChangeReader changes;
    private final ViolationRules rules;

    public PodCaseReader(Pool pool, PodVersionRepository versions, HoldingRepository holdings,
                         TriageIncidentRepository incidents, CardMemoryRepository memory, OveruseRepository overuse,
                         GovernanceSourceRepository source, IncidentSourceRepository incidentSource, StackReader stacks,
                         ChangeReader changes, ViolationConfig violations) {
        this.pool = pool;
        this.versions = versions;
        this.holdings = holdings;
        this.incidents = incidents;
        this.memory = memory;
        this.overuse = overuse;
        this.source = source;
        this.incidentSource = incidentSource;
        this.stacks = stacks;
        this.changes = changes;
        this.rules = new ViolationRules(violations.tolerance(), violations.hardAfter());
    }

    /** The first round: everything but the extras; versions, events and signals up to {@code at}. */
    public Uni<PodCase> first(String cluster, String namespace, String name, String uid, Instant at) {
        String key = namespace + "/" + name;
        Uni<List<PodStatusFact>> podVersions = versions.podVersions(cluster, uid);
        Uni<List<EventFact>> events = source.eventsAbout(pool, cluster, "Pod", Set.of(uid), Set.of(key));
        Uni<List<LogSignalFact>> signals = source.logSignals(pool, cluster, Set.of(key));
        Uni<List<Holding>> units = holdings.holdingsOfPods(cluster, Set.of(uid));
        return Uni.combine().all().unis(podVersions, events, signals, units).asTuple().chain(t -> {
            List<PodStatusFact> upTo = t.getItem1().stream().filter(v -> !v.observedAt().isAfter(at)).toList();
            List<Holding> held = t.getItem4().stream().filter(h -> !h.since().isAfter(at)).toList();
            return incidents.incidentsAround(cluster, Set.of(uid), PodCase.nodesOf(upTo, held), at).map(found -> new PodCase(cluster, namespace,
                    name, uid, at, upTo, t.getItem2().stream().filter(e -> !e.firstAt().isAfter(at)).toList(),
                    t.getItem3().stream().filter(s -> !s.at().isAfter(at)).toList(), incidents(found), held, null));
        });
    }

    /** The second round: what the lead's branch reads, and the changes before it. */
    public Uni<PodCase> extras(PodCase c, Lead lead) {
        Instant since = lead == null ? c.at() : lead.incident().startedAt();
        Uni<List<BookedChange>> before =
                changes.before(c.cluster(), c.nodes(), since, c.at());
        if (lead == null) {
            return before.chain(found -> overuse(c).map(v -> c.with(new PodCase.Extras(null, null, null, null, found,
                    v.violations(), v.grants()))));
        }
        Incident i = lead.incident();
        String node = i.node() != null ? i.node() : c.nodeAt(i.startedAt());
        return switch (lead.branch()) {
            case OOM -> before.chain(found -> oom(c, i, node).map(o -> c.with(new PodCase.Extras(o.neighbours(), o.memory(),
                    o.events(), null, found, null, null))));
            case INVISIBLE -> before.chain(found -> stacks.at(c.cluster(), node, i.startedAt())
                    .map(stack -> c.with(new PodCase.Extras(null, null, null, stack, found, null, null))));
            case MIG -> before.chain(found -> stacks.at(c.cluster(), node, c.at())
                    .map(stack -> c.with(new PodCase.Extras(null, null, null, stack, found, null, null))));
            default -> before.map(found -> c.with(new PodCase.Extras(null, null, null, null, found, null, null)));
        };
    }

    private record Oom(List<Holding> neighbours, Map<String, CardMemory> memory, List<EventFact> events) {
    }

    private Uni<Oom> oom(PodCase c, Incident i, String node) {
        List<String> cards = c.cardsDuring(i.startedAt(), i.startedAt());
        Instant minute = i.startedAt().truncatedTo(ChronoUnit.MINUTES);
        Set<String> nodes = new LinkedHashSet<>();
        if (node != null) {
            nodes.add(node);
        }
        Uni<List<EventFact>> events = nodes.isEmpty() ? Uni.createFrom().item(List.of())
                : incidentSource.nodeOomEvents(pool, c.cluster(), nodes);
        if (cards.isEmpty()) {
            return events.map(e -> new Oom(List.of(), Map.of(), e));
        }
        return Uni.combine().all().unis(events, holdings.holdingsAt(c.cluster(), List.of(), cards, i.startedAt()),
                        memory.memoryMinutes(c.cluster(), cards, minute.minus(MEMORY_BEFORE), minute),
                        memory.registeredMemory(c.cluster(), nodes))
                .asTuple().map(t -> {
                    Map<String, List<MemoryMinute>> byCard = new HashMap<>();
                    t.getItem3().forEach(m -> byCard.computeIfAbsent(m.gpuUuid(), k -> new ArrayList<>()).add(m));
                    Map<String, CardMemory> memory = new HashMap<>();
                    for (String card : cards) {
                        memory.put(card, new CardMemory(card, t.getItem4().get(card), byCard.getOrDefault(card, List.of())));
                    }
                    return new Oom(t.getItem2(), memory, t.getItem1());
                });
    }

    /** The pod's over-use and bypass episodes of the week before {@code at}, and its unverified HAMi grants. */
    record Overuse(List<Violation> violations, List<GrantFinding> grants) {
    }

    Uni<Overuse> overuse(PodCase c) {
        Instant from = c.at().minus(WEEK).truncatedTo(ChronoUnit.MINUTES);
        Instant to = c.at().truncatedTo(ChronoUnit.MINUTES).plus(1, ChronoUnit.MINUTES);
        Uni<List<GrantFinding>> grants = overuse.grantFindings(c.cluster(), c.uid());
        return holdings.sightings(c.cluster(), c.namespace(), c.name()).chain(seen -> {
            Set<String> cards = new TreeSet<>(seen);
            c.holdings().forEach(h -> {
                if (h.gpuUuid() != null) {
                    cards.add(h.gpuUuid());
                }
            });
            if (cards.isEmpty()) {
                return grants.map(g -> new Overuse(List.of(), g));
            }
            return Uni.combine().all().unis(overuse.containerMinutes(c.cluster(), cards, c.namespace(), c.name(), from, to),
                            overuse.processMinutes(c.cluster(), cards, c.namespace(), c.name(), from, to), grants)
                    .asTuple().map(t -> {
                        List<ViolationRules.Holding> held = c.holdings().stream().filter(h -> h.gpuUuid() != null)
                                .map(h -> new ViolationRules.Holding(c.cluster(), h.gpuUuid(), h.namespace(), h.pod(),
                                        h.cores(), h.memoryMib(), h.since(), h.until())).toList();
                        List<Violation> found = new ArrayList<>(rules.find(t.getItem1(), held));
                        found.addAll(rules.bypasses(t.getItem2(), held));
                        return new Overuse(found, t.getItem3());
                    });
        });
    }

    static List<Incident> incidents(List<StoredIncident> stored) {
        return stored.stream().map(StoredIncident::incident).toList();
    }
}
