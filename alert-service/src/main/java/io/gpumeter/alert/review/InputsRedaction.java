package io.gpumeter.alert.review;

import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.common.fact.VolcanoJobFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.common.triage.InputBundle;

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
 * their messages cleared of any other tenant's name. The same holds for the metering facts and the usage: another
 * tenant's pod versions keep their node, requests and HAMi grants (what a neighbour held on the card) under the same
 * pseudonyms as its governance view, its labels dropped; its series on the card keep their values, their pod named
 * by its pseudonym; another namespace's own versions (whose labels name its tenant) and claims are left out.
 */
final class InputsRedaction {

    static final String DROPPED = "(another tenant's text, redacted)";

    /** What was redacted, for the bundle's README. */
    record Redacted(InputBundle inputs, int namespaces, int objects) {

        /** The governance half. */
        GovernanceBatch batch() {
            return inputs.governance();
        }
    }

    private final Set<String> own;
    private final Map<String, String> namespaces = new LinkedHashMap<>();
    /** Pseudonyms of names, by "namespace/name" of the original. */
    private final Map<String, String> names = new LinkedHashMap<>();
    private final Map<String, String> uids = new LinkedHashMap<>();

    private InputsRedaction(Set<String> own) {
        this.own = own;
    }

    /** What the redaction did, in a line: kept with the review and said in the bundle's README. */
    static String note(Redacted r) {
        InputBundle in = r.inputs();
        int facts = (in.facts() == null ? 0 : in.facts().size()) + (in.governance() == null ? 0 : in.governance().size());
        int values = in.usage() == null ? 0 : in.usage().values();
        return facts + " facts and " + values + " usage values; " + r.namespaces() + " other namespaces and "
                + r.objects() + " of their objects under pseudonyms, their text and labels dropped";
    }

    /** The batch with every namespace outside {@code own} pseudonymised. */
    static Redacted redact(GovernanceBatch b, Set<String> own) {
        return redact(InputBundle.governanceOnly(b), own);
    }

    /** Every half of the inputs with every namespace outside {@code own} pseudonymised, alike in all of them. */
    static Redacted redact(InputBundle in, Set<String> own) {
        InputsRedaction r = new InputsRedaction(Set.copyOf(own));
        GovernanceBatch b = in.governance();
        FactBatch f = in.facts();
        UsageBatch u = in.usage();
        // every name first, so that text anywhere is cleared of all of them and each object has one pseudonym
        if (b != null) {
            r.learn(b);
        }
        if (f != null) {
            r.learn(f);
        }
        if (u != null) {
            u.samples().forEach(x -> r.learnSeries(x.scope(), x.scopeKey(), x.namespace(), x.pod()));
            u.partials().forEach(x -> r.learnSeries(x.scope(), x.scopeKey(), x.namespace(), x.pod()));
        }
        GovernanceBatch governance = b == null ? null : r.governance(b);
        FactBatch facts = f == null ? null : r.facts(f);
        UsageBatch usage = u == null ? null : new UsageBatch(u.cluster(), u.samples().stream().map(r::sample).toList(),
                u.partials().stream().map(r::partial).toList());
        return new Redacted(new InputBundle(in.cluster(), in.bundle() == null ? null : new FactBundle(facts, governance),
                usage), r.namespaces.size(), r.names.size());
    }

    private GovernanceBatch governance(GovernanceBatch b) {
        return new GovernanceBatch(b.cluster(),
                b.workloads().stream().map(this::workload).toList(),
                b.queueObjects().stream().map(this::queueObject).toList(),
                b.podGroups().stream().map(this::podGroup).toList(),
                b.volcanoJobs().stream().map(this::volcanoJob).toList(),
                b.events().stream().map(this::event).toList(),
                b.podStatuses().stream().map(this::podStatus).toList(),
                b.xids().stream().map(x -> new XidFact(x.node(), x.pciBusId(), x.gpuUuid(), x.at(), x.code(), x.pid(),
                        x.process(), scrub(x.message()), x.source())).toList(),
                b.gpuAddresses(),
                b.logSignals().stream().map(this::logSignal).toList(),
                b.pendingPositions().stream().map(this::position).toList(),
                b.nodeStatuses(), b.stackWorkloads(), b.stackPods(), b.driverSightings());
    }

    private FactBatch facts(FactBatch f) {
        return new FactBatch(f.cluster(),
                f.namespaces().stream().filter(n -> !foreign(n.name())).toList(),
                f.nodes(),
                f.pods().stream().map(this::pod).toList(),
                f.resourceClaims().stream().filter(c -> !foreign(c.namespace())).toList(),
                f.resourceSlices(), f.deviceClasses());
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

    private void learn(FactBatch f) {
        f.namespaces().forEach(n -> learn(n.name(), null, null, null));
        f.pods().forEach(p -> {
            learn(p.namespace(), p.name(), p.uid(), p.owner());
            p.claims().forEach(c -> learn(p.namespace(), null, null, null, c.name(), c.claimName(), c.templateName()));
        });
        f.resourceClaims().forEach(c -> learn(c.namespace(), c.name(), c.uid(), null));
    }

    /** A series' pod, by its labels or by its key ({@code ns/pod/container}, a process's {@code ns/pod/container/pid}). */
    private void learnSeries(UsageScope scope, String scopeKey, String namespace, String pod) {
        learn(namespace, pod, null, null);
        String[] key = podKey(scope, scopeKey);
        if (key != null) {
            learn(key[0], key[1], null, null);
        }
    }

    /** The key's parts when it names a pod, else null. */
    private static String[] podKey(UsageScope scope, String scopeKey) {
        if (scopeKey == null || scope != UsageScope.CONTAINER && scope != UsageScope.PROCESS) {
            return null;
        }
        String[] parts = scopeKey.split("/", -1);
        return scope == UsageScope.CONTAINER ? parts.length >= 3 ? parts : null : parts.length >= 4 ? parts : null;
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
        return o == null || !foreign(ns) ? o : new Owner(o.kind(), name(ns, o.name()), o.apiVersion());
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

    private PodFact pod(PodFact p) {
        String ns = p.namespace();
        if (!foreign(ns)) {
            return p;
        }
        // its labels name its team, project and app: nothing a triage decides by, all of it the other tenant's
        return new PodFact(uid(ns, p.uid()), namespace(ns), name(ns, p.name()), p.resourceVersion(), p.type(),
                p.observedAt(), p.createdAt(), p.scheduledAt(), p.nodeName(), p.phase(), p.schedulerName(),
                p.allTerminated(), p.lastFinishedAt(), p.deletionTimestamp(), owner(ns, p.owner()), Map.of(),
                p.gpuResources(), p.vgpus(), p.claims().stream().map(c -> new PodClaim(name(ns, c.name()),
                name(ns, c.claimName()), name(ns, c.templateName()))).toList(), p.hamiBindPhase(), p.hamiNode());
    }

    private UsageSample sample(UsageSample s) {
        String[] key = podKey(s.scope(), s.scopeKey());
        String ns = key != null ? key[0] : s.namespace();
        if (!foreign(ns) && !foreign(s.namespace())) {
            return s;
        }
        return new UsageSample(s.gpuUuid(), s.node(), s.scope(), seriesKey(key, s.scopeKey()), s.migProfile(),
                namespace(s.namespace()), name(s.namespace(), s.pod()), s.container(), s.field(), s.value(), s.at());
    }

    private UsagePartial partial(UsagePartial p) {
        String[] key = podKey(p.scope(), p.scopeKey());
        String ns = key != null ? key[0] : p.namespace();
        if (!foreign(ns) && !foreign(p.namespace())) {
            return p;
        }
        return new UsagePartial(p.gpuUuid(), p.node(), p.scope(), seriesKey(key, p.scopeKey()), p.migProfile(),
                namespace(p.namespace()), name(p.namespace(), p.pod()), p.container(), p.field(), p.minute(), p.millis(),
                p.values());
    }

    /** A series key with its namespace and pod under their pseudonyms, its container and pid as they were. */
    private String seriesKey(String[] key, String scopeKey) {
        if (key == null) {
            return scopeKey;
        }
        String[] out = key.clone();
        out[0] = namespace(key[0]);
        out[1] = name(key[0], key[1]);
        return String.join("/", out);
    }
}
