package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.triage.Triage.Subject;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.common.triage.Triage;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.config.ViolationConfig;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.triage.domain.Diagnosis;
import io.gpumeter.ledger.triage.domain.NodeCase;
import io.gpumeter.ledger.triage.domain.NodeDiagnosis;
import io.gpumeter.ledger.triage.domain.OomBranch;
import io.gpumeter.ledger.triage.domain.PodDiagnosis;
import io.gpumeter.ledger.triage.repository.PodVersionRepository;
import io.gpumeter.ledger.triage.repository.TriageIncidentRepository;
import io.gpumeter.ledger.triage.service.GroupMembers.Members;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * The ledger's triage: a pod, Kueue Workload, PodGroup or node at an instant, from its symptom to its classified
 * cause. A subject that waits is the PENDING branch's ({@link PendingTriage}); every other goes down the tree of
 * {@link PodDiagnosis} (a Workload's or PodGroup's through the member pod whose incident leads, {@link GroupMembers})
 * or {@link NodeDiagnosis}; the {@link Composer} adds what every answer carries. A triage only reads.
 */
@ApplicationScoped
public class TriageService {

    private final Clock clock;
    private final TriageSubjects subjects;
    private final PodVersionRepository versions;
    private final TriageIncidentRepository incidents;
    private final PendingTriage pending;
    private final PodCaseReader pods;
    private final GroupMembers groups;
    private final StackReader stacks;
    private final ChangeReader changes;
    private final Composer composer;
    private final PodDiagnosis podDiagnosis;

    public TriageService(Clock clock, TriageSubjects subjects, PodVersionRepository versions,
                         TriageIncidentRepository incidents, PendingTriage pending, PodCaseReader pods,
                         GroupMembers groups, StackReader stacks, ChangeReader changes, Composer composer,
                         ViolationConfig violations, LedgerConfig config) {
        this.clock = clock;
        this.subjects = subjects;
        this.versions = versions;
        this.incidents = incidents;
        this.pending = pending;
        this.pods = pods;
        this.groups = groups;
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
        return subjects.locate(request, at).chain(found -> switch (request.kind()) {
            case NODE -> node(request, found.cluster(), at);
            case POD -> pendingFirst(request, found.cluster(), at,
                    () -> pod(found.cluster(), request.namespace(), request.name(), found.uid(), at));
            default -> pendingFirst(request, found.cluster(), at,
                    () -> groups.of(found.cluster(), request, found.uid(), at)
                            .chain(members -> group(found.cluster(), request, found.uid(), members, at)));
        });
    }

    /** The PENDING branch's answer when it has one (with the changes every answer carries), else {@code rest}. */
    private Uni<Triage> pendingFirst(TriageRequest request, String cluster, Instant at, Supplier<Uni<Triage>> rest) {
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
                    : versions.ownerPods(cluster, namespace, latest.owner().kind(), latest.owner().name());
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

    private Uni<Triage> node(TriageRequest request, String cluster, Instant at) {
        return Uni.combine().all().unis(incidents.incidentsAround(cluster, List.of(), List.of(request.name()), at),
                        stacks.at(cluster, request.name(), at), changes.before(cluster, List.of(request.name()), at, at))
                .asTuple().chain(t -> {
                    NodeCase n = new NodeCase(cluster, request.name(), at, PodCaseReader.incidents(t.getItem1()),
                            t.getItem2(), t.getItem3());
                    Diagnosis d = NodeDiagnosis.diagnose(n);
                    // the changes were read for the day before the instant; a cause older than that reads its own
                    Uni<List<BookedChange>> scoped = d.since() == null || !d.since().isBefore(at)
                            ? Uni.createFrom().item(t.getItem3())
                            : changes.before(cluster, List.of(request.name()), d.since(), at);
                    Subject subject = new Subject(SubjectKind.NODE, cluster, null, request.name(), null, null);
                    return scoped.chain(c -> composer.compose(subject, at, d, c, Composer.Owner.NONE, List.of()));
                });
    }

    /**
     * A Workload or PodGroup that does not wait: its pods' — the member whose incident leads is triaged as a pod, the
     * answer about the group, its alike the members with the same cause; NONE when none failed.
     */
    private Uni<Triage> group(String cluster, TriageRequest request, String uid, Members members, Instant at) {
        Subject subject = new Subject(request.kind(), cluster, request.namespace(), request.name(), uid, null);
        Uni<Subject> withTenant = composer.tenantOf(cluster, request.namespace(), at).map(tenant -> new Subject(
                subject.kind(), subject.cluster(), subject.namespace(), subject.name(), subject.uid(), tenant));
        if (members.uids().isEmpty()) {
            return withTenant.chain(s -> composer.compose(s, at, Diagnosis.none(List.of(), List.of("no pod of "
                    + request.namespace() + "/" + request.name() + " is in the ledger"), List.of()), List.of(),
                    Composer.Owner.NONE, List.of()));
        }
        PodStatusFact leading = members.leading();
        if (leading == null) {
            return withTenant.chain(s -> composer.compose(s, at, Diagnosis.none(members.nodes(), List.of("incidents of its "
                    + members.uids().size() + " pod(s) and of their cards and nodes in the day before " + at + ": none"),
                    List.of()), List.of(), Composer.Owner.NONE, List.of()));
        }
        return pods.first(cluster, leading.namespace(), leading.name(), leading.uid(), at)
                .chain(c -> pods.extras(c, PodDiagnosis.lead(c)))
                .chain(full -> withTenant.chain(s -> composer.compose(s, at, podDiagnosis.diagnose(full),
                        full.extras().changes(), new Composer.Owner(members.uids(), null), full.extras().violations())));
    }
}
