package io.gpumeter.alert.review;

import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.VolcanoJobFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.fact.XidFact;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Cuts the facts a triage read down to what the incident's tenant may keep, without changing what they say: every
 * object of another namespace keeps its kind, times, states, requests, node and queue position, but its namespace,
 * name and uid become stable pseudonyms ({@code other-tenant-1}, {@code redacted-3}) and its free text (messages,
 * log lines) is dropped, so that a replay decides the same cause — "the cluster is full" still sees every card held —
 * and names no other tenant. The cluster's own objects (nodes, the GPU stack, cluster queues, Xids) stay as they are,
 * their messages cleared of any other tenant's name.
 */
final class InputsRedaction {

    static final String DROPPED = "(another tenant's text, redacted)";

    /** What was redacted, for the bundle's README. */
    record Redacted(GovernanceBatch batch, int namespaces, int objects) {
    }

    private final Set<String> own;
    private final Map<String, String> namespaces = new LinkedHashMap<>();
    /** Pseudonyms of names, by "namespace/name" of the original. */
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, String> uids = new LinkedHashMap<>();

    private InputsRedaction(Set<String> own) {
        this.own = own;
    }

    /** The batch with every namespace outside {@code own} pseudonymised. */
    static Redacted redact(GovernanceBatch b, Set<String> own) {
        InputsRedaction r = new InputsRedaction(Set.copyOf(own));
        r.learn(b);
        GovernanceBatch out = new GovernanceBatch(b.cluster(),
                b.workloads().stream().map(r::workload).toList(),
                b.queueObjects().stream().map(r::queueObject).toList(),
                b.podGroups().stream().map(r::podGroup).toList(),
                b.volcanoJobs().stream().map(r::volcanoJob).toList(),
                b.events().stream().map(r::event).toList(),
                b.podStatuses().stream().map(r::podStatus).toList(),
                b.xids().stream().map(x -> new XidFact(x.node(), x.pciBusId(), x.gpuUuid(), x.at(), x.code(), x.pid(),
                        x.process(), r.scrub(x.message()), x.source())).toList(),
                b.gpuAddresses(),
                b.logSignals().stream().map(r::logSignal).toList(),
                b.pendingPositions().stream().map(r::position).toList(),
                b.nodeStatuses(), b.stackWorkloads(), b.stackPods(), b.driverSightings());
        return new Redacted(out, r.namespaces.size(), r.names.size());
    }

    private boolean foreign(String namespace) {
        return namespace != null && !own.contains(namespace);
    }

    // --- pass one: every other tenant's namespace and name, so that free text can be cleared of all of them ---

    private void learn(GovernanceBatch b) {
        b.workloads().forEach(w -> learn(w.namespace(), w.name(), w.uid(), w.owner(), w.queueName()));
        b.queueObjects().forEach(q -> learn(q.namespace(), q.name(), q.uid(), null));
        b.podGroups().forEach(g -> learn(g.namespace(), g.name(), g.uid(), g.owner()));
        b.volcanoJobs().forEach(j -> learn(j.namespace(), j.name(), j.uid(), null));
        b.podStatuses().forEach(p -> learn(p.namespace(), p.name(), p.uid(), p.owner(), p.queueName(), p.groupName()));
        b.events().forEach(e -> {
            learn(e.namespace(), e.name(), e.uid(), null);
            learn(e.involvedNamespace(), e.involvedName(), e.involvedUid(), null);
        });
        b.logSignals().forEach(l -> learn(l.namespace(), l.pod(), null, null));
        b.pendingPositions().forEach(p -> learn(p.namespace(), p.workload(), null, null, p.localQueue()));
    }

    private void learn(String namespace, String name, String uid, Owner owner, String... alsoNames) {
        if (!foreign(namespace)) {
            return;
        }
        namespace(namespace);
        name(namespace, name);
        uid(uid);
        if (owner != null) {
            name(namespace, owner.name());
        }
        for (String n : alsoNames) {
            name(namespace, n);
        }
    }

    private String namespace(String ns) {
        return !foreign(ns) ? ns : namespaces.computeIfAbsent(ns, k -> "other-tenant-" + (namespaces.size() + 1));
    }

    private String name(String ns, String name) {
        return name == null || !foreign(ns) ? name : names.computeIfAbsent(ns + "/" + name, k -> "redacted-" + (names.size() + 1));
    }

    private String uid(String uid) {
        return uid == null ? null : uids.computeIfAbsent(uid, k -> "redacted-uid-" + (uids.size() + 1));
    }

    private String uid(String ns, String uid) {
        return foreign(ns) ? uid(uid) : uid;
    }

    private Owner owner(String ns, Owner o) {
        return o == null || !foreign(ns) ? o : new Owner(o.kind(), name(ns, o.name()));
    }

    private String text(String ns, String text) {
        return text == null ? null : foreign(ns) ? DROPPED : scrub(text);
    }

    /**
     * Text of the cluster or the tenant with every other tenant's "namespace/name", name and namespace replaced by
     * its pseudonym; a bare name counts only as a whole word, never inside a resource such as nvidia.com/gpu.
     */
    String scrub(String text) {
        if (text == null || (names.isEmpty() && namespaces.isEmpty())) {
            return text;
        }
        String out = text;
        for (Map.Entry<String, String> e : names.entrySet()) {
            String ns = e.getKey().substring(0, e.getKey().indexOf('/'));
            out = out.replace(e.getKey(), namespaces.get(ns) + "/" + e.getValue());
        }
        List<Map.Entry<String, String>> words = new ArrayList<>();
        names.forEach((k, v) -> words.add(Map.entry(k.substring(k.indexOf('/') + 1), v)));
        words.addAll(namespaces.entrySet());
        // the longest first, so that a name is never replaced inside a longer one
        words.sort(Comparator.comparingInt((Map.Entry<String, String> e) -> e.getKey().length()).reversed());
        for (Map.Entry<String, String> w : words) {
            out = replaceWord(out, w.getKey(), w.getValue());
        }
        return out;
    }

    private static String replaceWord(String text, String word, String with) {
        if (word.isEmpty()) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        int from = 0;
        for (int at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) {
            int end = at + word.length();
            if (at < from || (at > 0 && wordChar(text.charAt(at - 1))) || (end < text.length() && wordChar(text.charAt(end)))) {
                continue;
            }
            out.append(text, from, at).append(with);
            from = end;
        }
        return out.append(text.substring(from)).toString();
    }

    /** Characters a Kubernetes name, a domain or a resource path continue with. */
    private static boolean wordChar(char c) {
        return Character.isLetterOrDigit(c) || c == '-' || c == '.' || c == '/' || c == '_';
    }

    // --- pass two: each fact with its pseudonyms ---

    private WorkloadFact workload(WorkloadFact w) {
        String ns = w.namespace();
        return new WorkloadFact(uid(ns, w.uid()), namespace(ns), name(ns, w.name()), w.resourceVersion(), w.type(),
                w.observedAt(), w.apiVersion(), w.createdAt(), w.deletedAt(), name(ns, w.queueName()), w.priority(),
                w.priorityClassName(), w.active(), owner(ns, w.owner()), w.podSets(), w.clusterQueue(), w.assignments(),
                conditions(ns, w.conditions()), w.admissionChecks().stream().map(c -> new AdmissionCheckState(c.name(),
                        c.state(), text(ns, c.message()), c.lastTransitionTime())).toList(), w.requeueCount());
    }

    private QueueObjectFact queueObject(QueueObjectFact q) {
        String ns = q.namespace();
        return new QueueObjectFact(q.kind(), namespace(ns), name(ns, q.name()), uid(ns, q.uid()), q.resourceVersion(),
                q.type(), q.observedAt(), q.apiVersion(), q.cohort(), q.clusterQueue(), q.nodeLabels(), q.weight(),
                q.pendingWorkloads(), q.admittedWorkloads(), q.quotas(), conditions(ns, q.conditions()));
    }

    private PodGroupFact podGroup(PodGroupFact g) {
        String ns = g.namespace();
        return new PodGroupFact(uid(ns, g.uid()), namespace(ns), name(ns, g.name()), g.resourceVersion(), g.type(),
                g.observedAt(), g.createdAt(), g.deletedAt(), g.queue(), g.minMember(), g.priorityClassName(), g.phase(),
                g.running(), g.succeeded(), g.failed(), owner(ns, g.owner()), conditions(ns, g.conditions()));
    }

    private VolcanoJobFact volcanoJob(VolcanoJobFact j) {
        String ns = j.namespace();
        return new VolcanoJobFact(uid(ns, j.uid()), namespace(ns), name(ns, j.name()), j.resourceVersion(), j.type(),
                j.observedAt(), j.createdAt(), j.deletedAt(), j.queue(), j.minAvailable(), j.schedulerName(), j.phase(),
                text(ns, j.phaseReason()), j.phaseChangedAt(), j.retryCount());
    }

    private EventFact event(EventFact e) {
        String ns = e.namespace();
        String ins = e.involvedNamespace();
        return new EventFact(uid(ns, e.uid()), namespace(ns), name(ns, e.name()), e.resourceVersion(), e.observedAt(),
                e.involvedKind(), namespace(ins), name(ins, e.involvedName()), uid(ins, e.involvedUid()), e.reason(),
                e.eventType(), text(foreign(ins) ? ins : ns, e.message()), e.reportingComponent(), e.host(), e.firstAt(),
                e.lastAt(), e.count());
    }

    private PodStatusFact podStatus(PodStatusFact p) {
        String ns = p.namespace();
        return new PodStatusFact(uid(ns, p.uid()), namespace(ns), name(ns, p.name()), p.resourceVersion(), p.type(),
                p.observedAt(), p.createdAt(), p.scheduledAt(), p.deletedAt(), p.nodeName(), p.schedulerName(), p.phase(),
                p.reason(), text(ns, p.message()), owner(ns, p.owner()), name(ns, p.groupName()), name(ns, p.queueName()),
                p.gpuResources(), p.readyChangedAt(), p.containers().stream().map(c -> new ContainerStatusFact(c.name(),
                        c.init(), c.restartCount(), state(ns, c.state()), state(ns, c.lastState()))).toList());
    }

    private ContainerState state(String ns, ContainerState s) {
        return s == null ? null : new ContainerState(s.state(), s.reason(), text(ns, s.message()), s.exitCode(),
                s.startedAt(), s.finishedAt());
    }

    private LogSignalFact logSignal(LogSignalFact l) {
        String ns = l.namespace();
        return new LogSignalFact(namespace(ns), name(ns, l.pod()), l.container(), l.at(), l.signal(), text(ns, l.line()));
    }

    private PendingPositionFact position(PendingPositionFact p) {
        String ns = p.namespace();
        return new PendingPositionFact(p.clusterQueue(), namespace(ns), name(ns, p.workload()), name(ns, p.localQueue()),
                p.priority(), p.positionInClusterQueue(), p.positionInLocalQueue(), p.observedAt());
    }

    private List<ObjectCondition> conditions(String ns, List<ObjectCondition> conditions) {
        return conditions.stream().map(c -> new ObjectCondition(c.type(), c.status(), c.reason(), text(ns, c.message()),
                c.lastTransitionTime())).toList();
    }
}
