package io.gpumeter.alert.review;

import io.gpumeter.common.fact.AdmissionCheckState;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.VolcanoJobFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.fact.XidFact;

import java.util.List;

/**
 * The governance half of a redaction ({@link InputsRedaction}): each fact of another namespace under its
 * {@link Pseudonyms}, its free text (messages, log lines) dropped, everything a triage decides by (kinds, times,
 * states, requests, nodes, queue positions) kept; the cluster's own facts with their text scrubbed of other tenants'
 * names.
 */
final class GovernanceRedaction {

    private final Pseudonyms alias;

    GovernanceRedaction(Pseudonyms alias) {
        this.alias = alias;
    }

    /** The batch with each fact under its pseudonyms. */
    GovernanceBatch redact(GovernanceBatch b) {
        return new GovernanceBatch(b.cluster(),
                b.workloads().stream().map(this::workload).toList(),
                b.queueObjects().stream().map(this::queueObject).toList(),
                b.podGroups().stream().map(this::podGroup).toList(),
                b.volcanoJobs().stream().map(this::volcanoJob).toList(),
                b.events().stream().map(this::event).toList(),
                b.podStatuses().stream().map(this::podStatus).toList(),
                b.xids().stream().map(x -> new XidFact(x.node(), x.pciBusId(), x.gpuUuid(), x.at(), x.code(), x.pid(),
                        x.process(), alias.scrub(x.message()), x.source())).toList(),
                b.gpuAddresses(),
                b.logSignals().stream().map(this::logSignal).toList(),
                b.pendingPositions().stream().map(this::position).toList(),
                b.nodeStatuses(), b.stackWorkloads(), b.stackPods(), b.driverSightings());
    }

    private WorkloadFact workload(WorkloadFact w) {
        String ns = w.namespace();
        return new WorkloadFact(alias.uid(ns, w.uid()), alias.namespace(ns), alias.name(ns, w.name()),
                w.resourceVersion(), w.type(), w.observedAt(), w.apiVersion(), w.createdAt(), w.deletedAt(),
                alias.name(ns, w.queueName()), w.priority(), w.priorityClassName(), w.active(),
                alias.owner(ns, w.owner()), w.podSets(), w.clusterQueue(), w.assignments(),
                conditions(ns, w.conditions()), w.admissionChecks().stream().map(c -> new AdmissionCheckState(c.name(),
                        c.state(), alias.text(ns, c.message()), c.lastTransitionTime())).toList(), w.requeueCount());
    }

    private QueueObjectFact queueObject(QueueObjectFact q) {
        String ns = q.namespace();
        return new QueueObjectFact(q.kind(), alias.namespace(ns), alias.name(ns, q.name()), alias.uid(ns, q.uid()),
                q.resourceVersion(), q.type(), q.observedAt(), q.apiVersion(), q.cohort(), q.clusterQueue(),
                q.nodeLabels(), q.weight(), q.pendingWorkloads(), q.admittedWorkloads(), q.quotas(),
                conditions(ns, q.conditions()));
    }

    private PodGroupFact podGroup(PodGroupFact g) {
        String ns = g.namespace();
        return new PodGroupFact(alias.uid(ns, g.uid()), alias.namespace(ns), alias.name(ns, g.name()),
                g.resourceVersion(), g.type(), g.observedAt(), g.createdAt(), g.deletedAt(), g.queue(), g.minMember(),
                g.priorityClassName(), g.phase(), g.running(), g.succeeded(), g.failed(), alias.owner(ns, g.owner()),
                conditions(ns, g.conditions()));
    }

    private VolcanoJobFact volcanoJob(VolcanoJobFact j) {
        String ns = j.namespace();
        return new VolcanoJobFact(alias.uid(ns, j.uid()), alias.namespace(ns), alias.name(ns, j.name()),
                j.resourceVersion(), j.type(), j.observedAt(), j.createdAt(), j.deletedAt(), j.queue(),
                j.minAvailable(), j.schedulerName(), j.phase(), alias.text(ns, j.phaseReason()), j.phaseChangedAt(),
                j.retryCount());
    }

    private EventFact event(EventFact e) {
        String ns = e.namespace();
        String ins = e.involvedNamespace();
        return new EventFact(alias.uid(ns, e.uid()), alias.namespace(ns), alias.name(ns, e.name()),
                e.resourceVersion(), e.observedAt(), e.involvedKind(), alias.namespace(ins),
                alias.name(ins, e.involvedName()), alias.uid(ins, e.involvedUid()), e.reason(), e.eventType(),
                alias.text(alias.foreign(ins) ? ins : ns, e.message()), e.reportingComponent(), e.host(), e.firstAt(),
                e.lastAt(), e.count());
    }

    private PodStatusFact podStatus(PodStatusFact p) {
        String ns = p.namespace();
        return new PodStatusFact(alias.uid(ns, p.uid()), alias.namespace(ns), alias.name(ns, p.name()),
                p.resourceVersion(), p.type(), p.observedAt(), p.createdAt(), p.scheduledAt(), p.deletedAt(),
                p.nodeName(), p.schedulerName(), p.phase(), p.reason(), alias.text(ns, p.message()),
                alias.owner(ns, p.owner()), alias.name(ns, p.groupName()), alias.name(ns, p.queueName()),
                p.gpuResources(), p.readyChangedAt(), p.containers().stream().map(c -> new ContainerStatusFact(c.name(),
                        c.init(), c.restartCount(), state(ns, c.state()), state(ns, c.lastState()))).toList());
    }

    private ContainerState state(String ns, ContainerState s) {
        return s == null ? null : new ContainerState(s.state(), s.reason(), alias.text(ns, s.message()), s.exitCode(),
                s.startedAt(), s.finishedAt());
    }

    private LogSignalFact logSignal(LogSignalFact l) {
        String ns = l.namespace();
        return new LogSignalFact(alias.namespace(ns), alias.name(ns, l.pod()), l.container(), l.at(), l.signal(),
                alias.text(ns, l.line()));
    }

    private PendingPositionFact position(PendingPositionFact p) {
        String ns = p.namespace();
        return new PendingPositionFact(p.clusterQueue(), alias.namespace(ns), alias.name(ns, p.workload()),
                alias.name(ns, p.localQueue()), p.priority(), p.positionInClusterQueue(), p.positionInLocalQueue(),
                p.observedAt());
    }

    private List<ObjectCondition> conditions(String ns, List<ObjectCondition> conditions) {
        return conditions.stream().map(c -> new ObjectCondition(c.type(), c.status(), c.reason(),
                alias.text(ns, c.message()), c.lastTransitionTime())).toList();
    }
}
