package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.Triage.Subject;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.config.ViolationConfig;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.triage.domain.Diagnosis;
import io.gpumeter.ledger.triage.domain.Holding;
import io.gpumeter.ledger.triage.domain.Leads;
import io.gpumeter.ledger.triage.domain.Leads.Lead;
import io.gpumeter.ledger.triage.domain.NodeCase;
import io.gpumeter.ledger.triage.domain.NodeDiagnosis;
import io.gpumeter.ledger.triage.domain.OomBranch;
import io.gpumeter.ledger.triage.domain.PodCase;
import io.gpumeter.ledger.triage.domain.PodDiagnosis;
import io.gpumeter.ledger.triage.repository.TriageRepository;
import io.gpumeter.ledger.triage.repository.TriageRepository.Located;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The ledger's triage: a pod, Kueue Workload, PodGroup or node at an instant, from its symptom to its classified
 * cause. A subject that waits is the PENDING branch's ({@link PendingTriage}); every other goes down the tree of
 * {@link PodDiagnosis} (a Workload's or PodGroup's through the member pod whose incident leads) or
 * {@link NodeDiagnosis}; the {@link Composer} adds what every answer carries. A triage only reads.
 */
@ApplicationScoped
public class TriageService {

    private final Clock clock;
    private final Pool pool;
    private final TriageRepository triage;
    private final GovernanceSourceRepository source;
    private final PendingTriage pending;
    private final PodCaseReader pods;
    private final StackReader stacks;
    private final ChangeReader changes;
    private final Composer composer;
    private final PodDiagnosis podDiagnosis;

    public TriageService(Clock clock, Pool pool, TriageRepository triage, GovernanceSourceRepository source,
                         PendingTriage pending, PodCaseReader pods, StackReader stacks, ChangeReader changes,
                         Composer composer, ViolationConfig violations, LedgerConfig config) {
        this.clock = clock;
        this.pool = pool;
        this.triage = triage;
        this.source = source;
        this.pending = pending;
        this.pods = pods;
        this.stacks = stacks;
        this.changes = changes;
        this.composer = composer;
        this.podDiagnosis = new PodDiagnosis(new OomBranch(violations.tolerance(), config.failures().oomEventTolerance()));
    }

    public Uni<Triage> diagnose(TriageRequest request) {
        if (request.kind() == SubjectKind.SERVICE) {
            throw ApiProblem.badRequest("service", "an inference service is triaged by slo-service, which holds its SLOs,"
                    + " latency and jitter; ask the ledger for a pod, workload, podGroup or node");
        }
        Instant at = request.at() != null ? request.at() : clock.instant();
        return switch (request.kind()) {
            case NODE -> node(request, at);
            case POD -> locatedPod(request, at).chain(found -> pendingFirst(request, found.cluster(), at,
                    () -> pod(found.cluster(), request.namespace(), request.name(), found.uid(), at)));
            default -> group(request, at);
        };
    }

    /** The PENDING branch's answer when it has one (with the changes every answer carries), else {@code rest}. */
    private Uni<Triage> pendingFirst(TriageRequest request, String cluster, Instant at, java.util.function.Supplier<Uni<Triage>> rest) {
        TriageRequest located = new TriageRequest(request.kind(), cluster, request.namespace(), request.name(), at);
        return pending.diagnose(located, at).chain(answer -> {
            if (answer == null) {
                return rest.get();
            }
            if (!answer.changes().isEmpty()) {
                return Uni.createFrom().item(answer);
            }
            Set<String> nodes = new TreeSet<>();
            if (answer.scope() != null) {
                answer.scope().alike().stream().filter(a -> a.indexOf('/') < 0).forEach(nodes::add);
            }
            return changes.before(cluster, nodes, at, at).map(found -> new Triage(answer.subject(), answer.at(),
                    answer.symptom(), answer.layer(), answer.cause(), answer.confidence(), answer.scope(),
                    Composer.refs(found), answer.recurrence(), answer.evidence(), answer.alternatives(), answer.checked(),
                    answer.fix(), answer.named()));
        });
    }

    private Uni<Triage> pod(String cluster, String namespace, String name, String uid, Instant at) {
        return pods.first(cluster, namespace, name, uid, at).chain(c -> {
            if (c.versions().isEmpty()) {
                throw ApiProblem.notFound("pod", "pod '" + namespace + "/" + name + "' has no version at or before " + at);
            }
            PodStatusFact latest = c.latest();
            Uni<List<String>> owned = latest.owner() == null || latest.owner().name() == null
                    ? Uni.createFrom().item(List.of(uid))
                    : triage.ownerPods(cluster, namespace, latest.owner().kind(), latest.owner().name());
            return pods.extras(c, PodDiagnosis.lead(c)).chain(full -> owned.chain(ownerPods -> composer.tenantOf(cluster, namespace, at)
                    .chain(tenant -> {
                        Diagnosis d = podDiagnosis.diagnose(full);
                        Subject subject = new Subject(SubjectKind.POD, cluster, namespace, name, uid, tenant);
                        return composer.compose(subject, at, d, full.extras().changes(),
                                new Composer.Owner(ownerPods.isEmpty() ? List.of(uid) : ownerPods, uid),
                                full.extras().violations());
                    })));
        });
    }

    private Uni<Located> locatedPod(TriageRequest request, Instant at) {
        return triage.locatePod(request.cluster(), request.namespace(), request.name())
                .map(found -> pick(found, at).orElseThrow(() -> ApiProblem.notFound("pod", "no pod '" + request.namespace()
                        + "/" + request.name() + "'" + (request.cluster() == null ? "" : " of cluster " + request.cluster())
                        + " is in the ledger" + (found.isEmpty() ? "" : " at or before " + at))));
    }

    /** Of the objects of one name, the newest seen by {@code at}: a pod of that name made again later is another. */
    static Optional<Located> pick(List<Located> found, Instant at) {
        return found.stream().filter(l -> l.firstSeen() == null || !l.firstSeen().isAfter(at))
                .max(Comparator.comparing(Located::lastSeen, Comparator.nullsFirst(Comparator.naturalOrder())));
    }

    private Uni<Triage> node(TriageRequest request, Instant at) {
        return triage.locateNode(request.cluster(), request.name()).chain(found -> {
            Located node = pick(found, at).orElseThrow(() -> ApiProblem.notFound("node", "no node '" + request.name() + "'"
                    + (request.cluster() == null ? "" : " of cluster " + request.cluster()) + " is in the ledger"
                    + (found.isEmpty() ? "" : " at or before " + at)));
            String cluster = node.cluster();
            return Uni.combine().all().unis(triage.incidentsAround(cluster, List.of(), List.of(request.name()), at),
                            stacks.at(cluster, request.name(), at), changes.before(cluster, List.of(request.name()), at, at))
                    .asTuple().chain(t -> {
                        NodeCase n = new NodeCase(cluster, request.name(), at, PodCaseReader.incidents(t.getItem1()),
                                t.getItem2(), t.getItem3());
                        Diagnosis d = NodeDiagnosis.diagnose(n);
                        // the changes were read for the day before the instant; a cause older than that reads its own
                        Uni<List<io.gpumeter.ledger.governance.domain.BookedChange>> scoped = d.since() == null
                                || !d.since().isBefore(at)
                                ? Uni.createFrom().item(t.getItem3())
                                : changes.before(cluster, List.of(request.name()), d.since(), at);
                        Subject subject = new Subject(SubjectKind.NODE, cluster, null, request.name(), null, null);
                        return scoped.chain(c -> composer.compose(subject, at, d, c, Composer.Owner.NONE, List.of()));
                    });
        });
    }

    /**
     * A Workload or PodGroup: the PENDING branch's while it waits; else its pods' — the member whose incident leads is
     * triaged as a pod, the answer about the group, its alike the members with the same cause; NONE when none failed.
     */
    private Uni<Triage> group(TriageRequest request, Instant at) {
        boolean workload = request.kind() == SubjectKind.WORKLOAD;
        String field = workload ? "workload" : "podGroup";
        return triage.locate(workload ? "gov_workload_fact" : "gov_pod_group_fact", request.cluster(), request.namespace(),
                request.name()).chain(found -> {
            Located object = pick(found, at).orElseThrow(() -> ApiProblem.notFound(field, "no " + field + " '"
                    + request.namespace() + "/" + request.name() + "'" + (request.cluster() == null ? ""
                    : " of cluster " + request.cluster()) + " is in the ledger" + (found.isEmpty() ? "" : " at or before " + at)));
            String cluster = object.cluster();
            return pendingFirst(request, cluster, at, () -> members(cluster, request, object.uid(), workload)
                    .chain(uids -> groupPods(cluster, request, object.uid(), uids, at)));
        });
    }

    private Uni<List<String>> members(String cluster, TriageRequest request, String uid, boolean workload) {
        if (!workload) {
            return triage.groupPods(cluster, request.namespace(), request.name());
        }
        return source.workloads(pool, cluster, Set.of(uid)).chain(versions -> {
            WorkloadFact newest = versions.stream().max(Comparator.comparing(WorkloadFact::observedAt)).orElse(null);
            if (newest == null || newest.owner() == null || newest.owner().name() == null) {
                return Uni.createFrom().item(List.of());
            }
            return triage.ownerPods(cluster, request.namespace(), newest.owner().kind(), newest.owner().name());
        });
    }

    private Uni<Triage> groupPods(String cluster, TriageRequest request, String uid, List<String> members, Instant at) {
        Uni<String> tenant = composer.tenantOf(cluster, request.namespace(), at);
        if (members.isEmpty()) {
            return tenant.chain(t -> composer.compose(new Subject(request.kind(), cluster, request.namespace(), request.name(),
                    uid, t), at, Diagnosis.none(List.of(), List.of("no pod of " + request.namespace() + "/" + request.name()
                    + " is in the ledger"), List.of()), List.of(), Composer.Owner.NONE, List.of()));
        }
        return Uni.combine().all().unis(triage.holdingsOfPods(cluster, members), triage.latestViews(cluster, members))
                .asTuple().chain(t -> {
                    Set<String> nodes = new TreeSet<>();
                    t.getItem1().forEach(h -> {
                        if (h.node() != null) {
                            nodes.add(h.node());
                        }
                    });
                    t.getItem2().values().forEach(v -> {
                        if (v.nodeName() != null) {
                            nodes.add(v.nodeName());
                        }
                    });
                    return triage.incidentsAround(cluster, members, nodes, at).chain(incidents -> {
                        PodStatusFact leading = leadingMember(cluster, members, t.getItem1(), t.getItem2(),
                                PodCaseReader.incidents(incidents), at);
                        Subject subjectOf = new Subject(request.kind(), cluster, request.namespace(), request.name(), uid, null);
                        if (leading == null) {
                            return tenant.chain(tn -> composer.compose(withTenant(subjectOf, tn), at,
                                    Diagnosis.none(List.copyOf(nodes), List.of("incidents of its " + members.size()
                                            + " pod(s) and of their cards and nodes in the day before " + at + ": none"),
                                            List.of()), List.of(), Composer.Owner.NONE, List.of()));
                        }
                        return pods.first(cluster, leading.namespace(), leading.name(), leading.uid(), at)
                                .chain(c -> pods.extras(c, PodDiagnosis.lead(c)))
                                .chain(full -> tenant.chain(tn -> composer.compose(withTenant(subjectOf, tn), at,
                                        podDiagnosis.diagnose(full), full.extras().changes(),
                                        new Composer.Owner(members, null), full.extras().violations())));
                    });
                });
    }

    /** The member whose lead comes first (open, under the pod, newest), or null when none has a lead. */
    private static PodStatusFact leadingMember(String cluster, List<String> members, List<Holding> holdings,
                                               Map<String, PodStatusFact> latest, List<Incident> incidents, Instant at) {
        PodStatusFact best = null;
        Lead bestLead = null;
        for (String member : members) {
            PodStatusFact v = latest.get(member);
            if (v == null) {
                continue;
            }
            PodCase light = new PodCase(cluster, v.namespace(), v.name(), member, at, List.of(v), List.of(), List.of(),
                    incidents, holdings.stream().filter(h -> member.equals(h.podUid())).toList(), null);
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

    private static Subject withTenant(Subject s, String tenant) {
        return new Subject(s.kind(), s.cluster(), s.namespace(), s.name(), s.uid(), tenant);
    }
}
