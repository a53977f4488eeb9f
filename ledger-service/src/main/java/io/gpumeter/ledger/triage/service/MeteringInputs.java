package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.triage.InputBundle;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.triage.domain.Holding;
import io.gpumeter.ledger.triage.domain.StoredMinute;
import io.gpumeter.ledger.triage.repository.HoldingRepository;
import io.gpumeter.ledger.triage.repository.TriageIncidentRepository;
import io.gpumeter.ledger.triage.repository.TriageInputRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The metering facts a triage's holdings were booked from and the usage its OOM branch reads, beside the governance
 * facts gathered: the subject's pod versions and those of every pod that held a unit on its nodes or cards at the
 * question's instant or at the start of one of its incidents (anywhere in the cluster at the instant for a subject that
 * may wait), those nodes' versions with their HAMi registrations (the fleet's newest too), the pods' namespaces, and
 * the minutes of the subject's cards' memory series before each of those instants.
 */
@ApplicationScoped
public class MeteringInputs {

    private final TriageInputRepository inputs;
    private final HoldingRepository holdings;
    private final TriageIncidentRepository incidents;

    public MeteringInputs(TriageInputRepository inputs, HoldingRepository holdings, TriageIncidentRepository incidents) {
        this.inputs = inputs;
        this.holdings = holdings;
        this.incidents = incidents;
    }

    /**
     * The metering facts and usage behind the holdings and the cards' memory the diagnosis reads, beside the
     * governance facts: first the subject's holdings and incidents (which cards, which instants), then in one round
     * the pod versions, node versions and memory minutes, then the pods' namespaces.
     */
    Uni<InputBundle> bundle(GatheredInputs g, GovernanceBatch governance) {
        Set<String> uids = new TreeSet<>();
        g.pods.forEach(p -> uids.add(p.uid()));
        Uni<List<Holding>> held = uids.isEmpty() ? Uni.createFrom().item(List.of()) : holdings.holdingsOfPods(g.cluster, uids);
        Uni<List<StoredIncident>> started = incidents.incidentsAround(g.cluster, uids, g.nodes, g.at);
        return Uni.combine().all().unis(held, started).asTuple().chain(t -> {
            Set<String> nodes = new TreeSet<>(g.nodes);
            Set<String> cards = new TreeSet<>();
            Map<String, String> nodeOfCard = new HashMap<>();
            for (Holding h : t.getItem1()) {
                if (h.since() != null && h.since().isAfter(g.at)) {
                    continue;
                }
                if (h.node() != null) {
                    nodes.add(h.node());
                }
                if (h.gpuUuid() != null) {
                    cards.add(h.gpuUuid());
                    if (h.node() != null) {
                        nodeOfCard.put(h.gpuUuid(), h.node());
                    }
                }
            }
            // the instants the diagnosis reads holdings and memory at: the question's and each incident's start
            Set<Instant> instants = new TreeSet<>();
            instants.add(g.at);
            t.getItem2().forEach(i -> instants.add(i.incident().startedAt()));
            List<Instant> when = List.copyOf(instants);
            Uni<List<PodFact>> pods = inputs.podFacts(g.cluster, uids, nodes, cards, g.mayWait, when, g.at);
            Uni<List<NodeFact>> nodeFacts = inputs.nodeFacts(g.cluster, nodes, g.mayWait, g.at);
            Uni<List<StoredMinute>> minutes = cards.isEmpty() ? Uni.createFrom().item(List.of())
                    : inputs.memoryMinutes(g.cluster, cards,
                    when.stream().map(i -> i.truncatedTo(ChronoUnit.MINUTES).minus(PodCaseReader.MEMORY_BEFORE)).toList(),
                    when.stream().map(i -> i.truncatedTo(ChronoUnit.MINUTES)).toList());
            return Uni.combine().all().unis(pods, nodeFacts, minutes).asTuple().chain(m -> {
                Set<String> namespaces = new TreeSet<>();
                if (g.namespace != null) {
                    namespaces.add(g.namespace);
                }
                m.getItem1().forEach(p -> namespaces.add(p.namespace()));
                governance.podStatuses().forEach(p -> namespaces.add(p.namespace()));
                List<UsagePartial> partials = new ArrayList<>();
                for (StoredMinute row : m.getItem3()) {
                    UsagePartial p = row.partial(nodeOfCard.get(row.gpuUuid()));
                    if (p != null) {
                        partials.add(p);
                    }
                }
                return inputs.namespaceFacts(g.cluster, namespaces, g.at).map(ns -> new InputBundle(g.cluster,
                        new FactBundle(new FactBatch(g.cluster, ns, m.getItem2(), m.getItem1()), governance),
                        partials.isEmpty() ? null : new UsageBatch(g.cluster, List.of(), partials)));
            });
        });
    }
}
