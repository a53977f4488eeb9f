package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.triage.domain.Holding;
import io.gpumeter.ledger.triage.domain.Leads.Lead;
import io.gpumeter.ledger.triage.domain.Leads;
import io.gpumeter.ledger.triage.domain.PodCase;
import io.gpumeter.ledger.triage.repository.HoldingRepository;
import io.gpumeter.ledger.triage.repository.PodVersionRepository;
import io.gpumeter.ledger.triage.repository.TriageIncidentRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pods of a Kueue Workload (its owner's) or a PodGroup (those that name it), the nodes they ran on, and the one
 * whose incident leads — open before over, under the pod before in it, newest first — which a group's triage follows.
 */
@ApplicationScoped
public class GroupMembers {

    private final Pool pool;
    private final GovernanceSourceRepository source;
    private final PodVersionRepository versions;
    private final HoldingRepository holdings;
    private final TriageIncidentRepository incidents;

    public GroupMembers(Pool pool, GovernanceSourceRepository source, PodVersionRepository versions,
                        HoldingRepository holdings, TriageIncidentRepository incidents) {
        this.pool = pool;
        this.source = source;
        this.versions = versions;
        this.holdings = holdings;
        this.incidents = incidents;
    }

    /**
     * A group's members at an instant.
     *
     * @param nodes   the nodes its members held units on or ran on, in order
     * @param leading the member whose lead comes first; null when none has one
     */
    public record Members(List<String> uids, List<String> nodes, PodStatusFact leading) {
    }

    /** The members of the group {@code uid} the request names, with four reads whatever their number. */
    public Uni<Members> of(String cluster, TriageRequest request, String uid, Instant at) {
        return uids(cluster, request, uid).chain(members -> {
            if (members.isEmpty()) {
                return Uni.createFrom().item(new Members(List.of(), List.of(), null));
            }
            return Uni.combine().all().unis(holdings.holdingsOfPods(cluster, members), versions.latestViews(cluster, members))
                    .asTuple().chain(t -> {
                        Set<String> nodes = PodCase.nodesOf(t.getItem2().values(), t.getItem1());
                        return incidents.incidentsAround(cluster, members, nodes, at).map(found -> new Members(members,
                                List.copyOf(nodes), leading(cluster, members, t.getItem1(), t.getItem2(),
                                PodCaseReader.incidents(found), at)));
                    });
        });
    }

    private Uni<List<String>> uids(String cluster, TriageRequest request, String uid) {
        if (request.kind() != SubjectKind.WORKLOAD) {
            return versions.groupPods(cluster, request.namespace(), request.name());
        }
        return source.workloads(pool, cluster, Set.of(uid)).chain(all -> {
            WorkloadFact newest = all.stream().max(Comparator.comparing(WorkloadFact::observedAt)).orElse(null);
            if (newest == null || newest.owner() == null || newest.owner().name() == null) {
                return Uni.createFrom().item(List.of());
            }
            return versions.ownerPods(cluster, request.namespace(), newest.owner().kind(), newest.owner().name());
        });
    }

    /** The member whose lead comes first (open, under the pod, newest), or null when none has a lead. */
    private static PodStatusFact leading(String cluster, List<String> members, List<Holding> held,
                                         Map<String, PodStatusFact> latest, List<Incident> incidents, Instant at) {
        PodStatusFact best = null;
        Lead bestLead = null;
        for (String member : members) {
            PodStatusFact v = latest.get(member);
            if (v == null) {
                continue;
            }
            PodCase light = new PodCase(cluster, v.namespace(), v.name(), member, at, List.of(v), List.of(), List.of(),
                    incidents, held.stream().filter(h -> member.equals(h.podUid())).toList(), null);
            List<Lead> leads = Leads.of(light);
            if (leads.isEmpty()) {
                continue;
            }
            Lead lead = leads.get(0);
            if (bestLead == null || better(lead, bestLead)) {
                best = v;
                bestLead = lead;
            }
        }
        return best;
    }

    private static boolean better(Lead a, Lead b) {
        if (a.open() != b.open()) {
            return a.open();
        }
        if (a.branch() != b.branch()) {
            return a.branch().ordinal() < b.branch().ordinal();
        }
        return a.incident().startedAt().isAfter(b.incident().startedAt());
    }
}
