package io.gpumeter.alert.review;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.common.triage.InputBundle;

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

    private final Pseudonyms alias;

    private InputsRedaction(Set<String> own) {
        this.alias = new Pseudonyms(own);
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
        InputsRedaction r = new InputsRedaction(own);
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
        GovernanceBatch governance = b == null ? null : new GovernanceRedaction(r.alias).redact(b);
        FactBatch facts = f == null ? null : r.facts(f);
        UsageBatch usage = u == null ? null : new UsageBatch(u.cluster(), u.samples().stream().map(r::sample).toList(),
                u.partials().stream().map(r::partial).toList());
        return new Redacted(new InputBundle(in.cluster(), in.bundle() == null ? null : new FactBundle(facts, governance),
                usage), r.alias.namespaceCount(), r.alias.nameCount());
    }

    // --- pass one: every other tenant's namespace and name, so that free text can be cleared of all of them ---

    private void learn(GovernanceBatch b) {
        b.workloads().forEach(w -> alias.learn(w.namespace(), w.name(), w.uid(), w.owner(), w.queueName()));
        b.queueObjects().forEach(q -> alias.learn(q.namespace(), q.name(), q.uid(), null));
        b.podGroups().forEach(g -> alias.learn(g.namespace(), g.name(), g.uid(), g.owner()));
        b.volcanoJobs().forEach(j -> alias.learn(j.namespace(), j.name(), j.uid(), null));
        b.podStatuses().forEach(p -> alias.learn(p.namespace(), p.name(), p.uid(), p.owner(), p.queueName(),
                p.groupName()));
        b.events().forEach(e -> {
            alias.learn(e.namespace(), e.name(), e.uid(), null);
            alias.learn(e.involvedNamespace(), e.involvedName(), e.involvedUid(), null);
        });
        b.logSignals().forEach(l -> alias.learn(l.namespace(), l.pod(), null, null));
        b.pendingPositions().forEach(p -> alias.learn(p.namespace(), p.workload(), null, null, p.localQueue()));
    }

    private void learn(FactBatch f) {
        f.namespaces().forEach(n -> alias.learn(n.name(), null, null, null));
        f.pods().forEach(p -> {
            alias.learn(p.namespace(), p.name(), p.uid(), p.owner());
            p.claims().forEach(c -> alias.learn(p.namespace(), null, null, null, c.name(), c.claimName(),
                    c.templateName()));
        });
        f.resourceClaims().forEach(c -> alias.learn(c.namespace(), c.name(), c.uid(), null));
    }

    /** A series' pod, by its labels or by its key ({@code ns/pod/container}, a process's {@code ns/pod/container/pid}). */
    private void learnSeries(UsageScope scope, String scopeKey, String namespace, String pod) {
        alias.learn(namespace, pod, null, null);
        String[] key = podKey(scope, scopeKey);
        if (key != null) {
            alias.learn(key[0], key[1], null, null);
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

    // --- pass two: the metering facts and the usage, each with its pseudonyms (the governance half's are
    // GovernanceRedaction's) ---

    private FactBatch facts(FactBatch f) {
        return new FactBatch(f.cluster(),
                f.namespaces().stream().filter(n -> !alias.foreign(n.name())).toList(),
                f.nodes(),
                f.pods().stream().map(this::pod).toList(),
                f.resourceClaims().stream().filter(c -> !alias.foreign(c.namespace())).toList(),
                f.resourceSlices(), f.deviceClasses());
    }

    private PodFact pod(PodFact p) {
        String ns = p.namespace();
        if (!alias.foreign(ns)) {
            return p;
        }
        // its labels name its team, project and app: nothing a triage decides by, all of it the other tenant's
        return new PodFact(alias.uid(ns, p.uid()), alias.namespace(ns), alias.name(ns, p.name()), p.resourceVersion(),
                p.type(), p.observedAt(), p.createdAt(), p.scheduledAt(), p.nodeName(), p.phase(), p.schedulerName(),
                p.allTerminated(), p.lastFinishedAt(), p.deletionTimestamp(), alias.owner(ns, p.owner()), Map.of(),
                p.gpuResources(), p.vgpus(), p.claims().stream().map(c -> new PodClaim(alias.name(ns, c.name()),
                alias.name(ns, c.claimName()), alias.name(ns, c.templateName()))).toList(), p.hamiBindPhase(),
                p.hamiNode());
    }

    private UsageSample sample(UsageSample s) {
        String[] key = podKey(s.scope(), s.scopeKey());
        String ns = key != null ? key[0] : s.namespace();
        if (!alias.foreign(ns) && !alias.foreign(s.namespace())) {
            return s;
        }
        return new UsageSample(s.gpuUuid(), s.node(), s.scope(), seriesKey(key, s.scopeKey()), s.migProfile(),
                alias.namespace(s.namespace()), alias.name(s.namespace(), s.pod()), s.container(), s.field(), s.value(),
                s.at());
    }

    private UsagePartial partial(UsagePartial p) {
        String[] key = podKey(p.scope(), p.scopeKey());
        String ns = key != null ? key[0] : p.namespace();
        if (!alias.foreign(ns) && !alias.foreign(p.namespace())) {
            return p;
        }
        return new UsagePartial(p.gpuUuid(), p.node(), p.scope(), seriesKey(key, p.scopeKey()), p.migProfile(),
                alias.namespace(p.namespace()), alias.name(p.namespace(), p.pod()), p.container(), p.field(), p.minute(),
                p.millis(), p.values());
    }

    /** A series key with its namespace and pod under their pseudonyms, its container and pid as they were. */
    private String seriesKey(String[] key, String scopeKey) {
        if (key == null) {
            return scopeKey;
        }
        String[] out = key.clone();
        out[0] = alias.namespace(key[0]);
        out[1] = alias.name(key[0], key[1]);
        return String.join("/", out);
    }
}
