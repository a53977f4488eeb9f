package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.triage.Symptom;
import io.gpumeter.common.triage.Triage.ChangeRef;
import io.gpumeter.common.triage.Triage.Named;
import io.gpumeter.common.triage.Triage.Recurrence;
import io.gpumeter.common.triage.Triage.Scope;
import io.gpumeter.common.triage.Triage.Subject;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.repository.IncidentRepository.StoredIncident;
import io.gpumeter.ledger.governance.service.TenantResolver;
import io.gpumeter.ledger.triage.domain.Diagnosis;
import io.gpumeter.ledger.triage.domain.Holding;
import io.gpumeter.ledger.triage.domain.Leads;
import io.gpumeter.ledger.triage.domain.OveruseBranch;
import io.gpumeter.ledger.triage.repository.HoldingRepository;
import io.gpumeter.ledger.triage.repository.TriageIncidentRepository;
import io.gpumeter.ledger.violation.domain.Violation;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns a branch's diagnosis into the answer every subject gets alike: the change book's entries before it, how often
 * the same cause struck the same owner in the week before, how far it reached then, and every pod it names with its
 * tenant. One read for the recurrence, one for the scope, one for the tenants.
 *
 * <p>The recurrence counts the stored cause the branch followed (a CUDA out-of-memory decided as a neighbour's
 * pressure counts among the card's and owner's {@code cuda-oom}): of a pod's own failure, among the pods of its owner
 * (the pod alone without one); of a card's or node's, on that node; of an over-use, the pod's episodes of that kind.
 * The scope of a pod's own failure is POD, its alike the owner's other pods with it open then; of a card's or node's,
 * NODE with the pods on the card (else the node) then, or CLUSTER with the other nodes where it was open too.
 */
@ApplicationScoped
public class Composer {

    static final Duration WEEK = Duration.ofDays(7);
    /** The most pods or nodes an answer names alike. */
    static final int MOST_ALIKE = 50;

    private final TriageIncidentRepository incidents;
    private final HoldingRepository holdings;
    private final TenantResolver tenants;

    public Composer(TriageIncidentRepository incidents, HoldingRepository holdings, TenantResolver tenants) {
        this.incidents = incidents;
        this.holdings = holdings;
        this.tenants = tenants;
    }

    /**
     * The owner whose history a recurrence counts and whose pods are alike: the pods of the subject's owner (or the
     * subject's pods themselves, for a Workload or PodGroup); empty for a node.
     */
    public record Owner(List<String> podUids, String selfUid) {

        static final Owner NONE = new Owner(List.of(), null);
    }

    public Uni<Triage> compose(Subject subject, Instant at, Diagnosis d, List<BookedChange> changes, Owner owner,
                               List<Violation> violations) {
        Uni<Recurrence> recurrence = recurrence(subject, at, d, owner, violations);
        return recurrence.chain(r -> scope(subject, at, d, owner).chain(scope -> {
            List<Named> named = new ArrayList<>();
            if (subject.kind() != SubjectKind.NODE) {
                named.add(new Named(subject.kind(), subject.namespace(), subject.name(), subject.tenant()));
            }
            for (String alike : scope.alike()) {
                int slash = alike.indexOf('/');
                if (slash > 0) {
                    named.add(new Named(SubjectKind.POD, alike.substring(0, slash), alike.substring(slash + 1), null));
                }
            }
            named.addAll(d.named());
            return withTenants(subject.cluster(), at, named).map(marked -> new Triage(subject, at, d.symptom(),
                    d.layer() == null ? null : d.layer().label(), d.cause(), d.confidence(), scope, refs(changes), r,
                    d.evidence(), d.alternatives(), d.checked(), null, marked));
        }));
    }

    private Uni<Recurrence> recurrence(Subject subject, Instant at, Diagnosis d, Owner owner, List<Violation> violations) {
        if (d.symptom() == Symptom.NONE) {
            return Uni.createFrom().nullItem();
        }
        if (d.symptom() == Symptom.OVERUSE) {
            List<Instant> starts = violations.stream()
                    .filter(v -> d.cause().equals(OveruseBranch.causeOf(v).label()) && !v.start().isAfter(at)
                            && !v.start().isBefore(at.minus(WEEK)))
                    .map(Violation::start).sorted().toList();
            return Uni.createFrom().item(starts.isEmpty() ? null : new Recurrence(starts.size(), starts.get(0)));
        }
        Incident lead = d.lead();
        if (lead == null) {
            return Uni.createFrom().nullItem();
        }
        boolean ownFailure = "pod".equals(lead.scope());
        List<String> pods = ownFailure ? owner.podUids() : List.of();
        return incidents.sameCause(subject.cluster(), lead.cause(), pods, ownFailure ? null : lead.node(), at.minus(WEEK), at)
                .map(found -> {
                    if (found.isEmpty()) {
                        return new Recurrence(1, lead.startedAt());
                    }
                    Instant first = found.stream().map(s -> s.incident().startedAt()).min(Comparator.naturalOrder()).orElseThrow();
                    return new Recurrence(found.size(), first.isBefore(lead.startedAt()) ? first : lead.startedAt());
                });
    }

    private Uni<Scope> scope(Subject subject, Instant at, Diagnosis d, Owner owner) {
        Incident lead = d.lead();
        String self = subject.kind() == SubjectKind.POD ? subject.namespace() + "/" + subject.name() : null;
        if ("POD".equals(d.level()) || d.symptom() == Symptom.NONE) {
            if (lead == null || !"pod".equals(lead.scope()) || owner.podUids().size() <= 1) {
                return Uni.createFrom().item(new Scope("POD", List.of(), 0));
            }
            return incidents.sameCause(subject.cluster(), lead.cause(), owner.podUids(), null, at.minus(WEEK), at)
                    .map(found -> new Scope("POD", alikePods(found, at, self), 0));
        }
        if (lead == null) {
            return podsOn(subject.cluster(), d.nodes(), d.cards(), at, self).map(pods -> new Scope(d.level(), pods, 0));
        }
        Instant then = Leads.openAt(lead, at) ? at : lead.startedAt();
        return incidents.openOfCause(subject.cluster(), lead.cause(), at).chain(open -> {
            Set<String> nodes = new TreeSet<>();
            open.forEach(s -> {
                if (s.incident().node() != null && !d.nodes().contains(s.incident().node()) && !"pod".equals(s.incident().scope())) {
                    nodes.add(s.incident().node());
                }
            });
            if (!nodes.isEmpty()) {
                List<String> alike = new ArrayList<>(d.nodes());
                alike.addAll(nodes);
                return Uni.createFrom().item(new Scope("CLUSTER", alike.stream().limit(MOST_ALIKE).toList(), 0));
            }
            return podsOn(subject.cluster(), d.nodes(), d.cards(), then, self).map(pods -> new Scope(d.level(), pods, 0));
        });
    }

    /** The pods holding a unit of these cards (else of these nodes) at the instant, the subject left out. */
    private Uni<List<String>> podsOn(String cluster, List<String> nodes, List<String> cards, Instant at, String self) {
        if (nodes.isEmpty() && cards.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return holdings.holdingsAt(cluster, cards.isEmpty() ? nodes : List.of(), cards, at).map(held -> {
            Set<String> out = new TreeSet<>();
            for (Holding h : held) {
                if (!h.podKey().equals(self)) {
                    out.add(h.podKey());
                }
            }
            return out.stream().limit(MOST_ALIKE).toList();
        });
    }

    private static List<String> alikePods(List<StoredIncident> found, Instant at, String self) {
        Set<String> out = new TreeSet<>();
        for (StoredIncident s : found) {
            Incident i = s.incident();
            String key = i.namespace() + "/" + i.pod();
            if (i.pod() != null && Leads.openAt(i, at) && !key.equals(self)) {
                out.add(key);
            }
        }
        return out.stream().limit(MOST_ALIKE).toList();
    }

    /** Each name with the tenant of its namespace at the instant, where the branch did not know it. */
    Uni<List<Named>> withTenants(String cluster, Instant at, List<Named> named) {
        Set<String> namespaces = new TreeSet<>();
        named.forEach(n -> {
            if (n.namespace() != null && n.tenant() == null) {
                namespaces.add(n.namespace());
            }
        });
        Uni<TenantResolver.Tenants> resolved = namespaces.isEmpty()
                ? Uni.createFrom().item((c, ns, t) -> ns)
                : tenants.tenants(Map.of(cluster, namespaces));
        return resolved.map(t -> {
            Map<String, Named> out = new LinkedHashMap<>();
            for (Named n : named) {
                String tenant = n.tenant() != null || n.namespace() == null ? n.tenant() : t.at(cluster, n.namespace(), at);
                out.putIfAbsent(n.kind() + "|" + n.namespace() + "|" + n.name(), new Named(n.kind(), n.namespace(), n.name(), tenant));
            }
            return List.copyOf(out.values());
        });
    }

    /** The tenant of one namespace at an instant. */
    public Uni<String> tenantOf(String cluster, String namespace, Instant at) {
        if (namespace == null) {
            return Uni.createFrom().nullItem();
        }
        return tenants.tenants(Map.of(cluster, Set.of(namespace))).map(t -> t.at(cluster, namespace, at));
    }

    static List<ChangeRef> refs(Collection<BookedChange> changes) {
        return changes.stream().map(c -> new ChangeRef(c.id(), c.at(), c.kind().name(), c.node(), c.subject(), c.before(),
                c.after())).toList();
    }
}
