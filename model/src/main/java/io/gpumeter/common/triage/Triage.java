package io.gpumeter.common.triage;

import com.fasterxml.jackson.annotation.JsonCreator;

import java.time.Instant;
import java.util.List;

/**
 * The answer of a triage: from a symptom of one subject to its classified cause, with the facts that decided it,
 * what a person would run to see each of them, what ruled the other causes out, and the smallest fix.
 *
 * <p>The service that holds a subject's facts diagnoses it (the ledger for pods, workloads, pod groups and nodes,
 * slo-service for inference services) and leaves {@code fix} null; alert-service adds the runbook's fix.
 *
 * @param layer   the {@link RootCauseClass} label of the cause; null when the symptom is NONE
 * @param cause   a {@link PendingReason} or {@link FailureCause} label (or an Xid cause such as {@code xid-79}),
 *                as the other reads serve them; null when the symptom is NONE
 * @param checked what was looked at, so that NONE, OTHER or UNEXPLAINED say what they could and could not read
 * @param named   every pod, workload, pod group, service and namespace the answer names anywhere (scope, evidence,
 *                alternatives, checked) with its tenant, so that an answer to a tenant can keep that tenant's own
 *                names and replace every other tenant's; null from a diagnosis that marks none, which alert-service
 *                then reads as "every namespace but the subject's may be another tenant's"
 */
public record Triage(Subject subject, Instant at, Symptom symptom, String layer, String cause, Confidence confidence,
                     Scope scope, List<ChangeRef> changes, Recurrence recurrence, List<Evidence> evidence,
                     List<Alternative> alternatives, List<String> checked, Fix fix, List<Named> named) {

    @JsonCreator // the canonical constructor, not the shorter one below
    public Triage {
        changes = changes == null ? List.of() : List.copyOf(changes);
        evidence = evidence == null ? List.of() : List.copyOf(evidence);
        alternatives = alternatives == null ? List.of() : List.copyOf(alternatives);
        checked = checked == null ? List.of() : List.copyOf(checked);
        named = named == null ? null : List.copyOf(named);
    }

    /** An answer that marks no names (see {@code named}). */
    public Triage(Subject subject, Instant at, Symptom symptom, String layer, String cause, Confidence confidence,
                  Scope scope, List<ChangeRef> changes, Recurrence recurrence, List<Evidence> evidence,
                  List<Alternative> alternatives, List<String> checked, Fix fix) {
        this(subject, at, symptom, layer, cause, confidence, scope, changes, recurrence, evidence, alternatives, checked,
                fix, null);
    }

    /** The same answer with the runbook's fix. */
    public Triage withFix(Fix value) {
        return new Triage(subject, at, symptom, layer, cause, confidence, scope, changes, recurrence, evidence,
                alternatives, checked, value, named);
    }

    /** The kinds of subject a triage starts from, as the request names them. */
    public enum SubjectKind {
        POD, WORKLOAD, POD_GROUP, NODE, SERVICE;

        /** The query parameter that names a subject of this kind, as every triage read takes it. */
        public String parameter() {
            return switch (this) {
                case POD -> "pod";
                case WORKLOAD -> "workload";
                case POD_GROUP -> "podGroup";
                case NODE -> "node";
                case SERVICE -> "service";
            };
        }
    }

    /**
     * What was triaged; {@code namespace} is null for a node, {@code uid} when the ledger knows the object.
     *
     * @param tenant the tenant its namespace belongs to (null for a node), which decides who may read the answer
     */
    public record Subject(SubjectKind kind, String cluster, String namespace, String name, String uid, String tenant) {
    }

    /**
     * How far the cause reaches at {@code at}.
     *
     * @param level POD, NODE, QUEUE or CLUSTER
     * @param alike the pods (namespace/name) or nodes showing the same cause then; another tenant's are counted in
     *              {@code othersAlike}, never named, in an answer to a tenant
     */
    public record Scope(String level, List<String> alike, int othersAlike) {

        public Scope {
            alike = alike == null ? List.of() : List.copyOf(alike);
        }
    }

    /** One entry of the change book in the subject's scope before {@code at}, newest first. */
    public record ChangeRef(String id, Instant at, String kind, String node, String component, String from, String to) {
    }

    /**
     * How often the same cause struck the same owner (workload, pod group, service or node).
     *
     * @param last7d    occurrences in the seven days before {@code at}, this one included
     * @param firstSeen the earliest of them
     */
    public record Recurrence(int last7d, Instant firstSeen) {
    }

    /**
     * One fact that decided the cause.
     *
     * @param source  where it was read: pod-status, event, node, gpu-stack, workload, pod-group, usage, incident,
     *                violation, change, jitter, slo, …
     * @param command what a person would run to see the same fact, e.g. {@code kubectl describe pod -n ns name}
     */
    public record Evidence(Instant at, String source, String fact, String command) {
    }

    /** A cause the tree considered and the fact that ruled it out. */
    public record Alternative(String cause, String ruledOutBy) {
    }

    /**
     * A Kubernetes object (or, with a null {@code name}, a namespace) the answer names, and the tenant it belongs to.
     * The diagnosing service lists each one it writes into the answer, in any of the forms it writes it
     * ({@code namespace/name}, or the bare name beside its namespace), so that none is missed when the answer is cut
     * for a tenant.
     *
     * @param kind   POD, WORKLOAD, POD_GROUP or SERVICE; null for a namespace named alone
     * @param tenant the tenant of its namespace; null for a namespace of no tenant (the GPU stack's, kube-system)
     */
    public record Named(SubjectKind kind, String namespace, String name, String tenant) {
    }

    /**
     * The runbook's entry for the cause.
     *
     * @param action what to do, smallest first
     * @param verify how to see that it worked
     */
    public record Fix(String action, String verify) {
    }
}
