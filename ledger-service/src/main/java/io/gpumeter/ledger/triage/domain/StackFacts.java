package io.gpumeter.ledger.triage.domain;

import io.gpumeter.common.triage.Triage.Evidence;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.ChangeKind;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** A node's GPU stack and the changes of it as facts of the evidence chain. */
final class StackFacts {

    private StackFacts() {
    }

    /** The driver, CUDA and GPUs a node offered at the stack's instant. */
    static Evidence offered(NodeStack s) {
        StringBuilder fact = new StringBuilder("node ").append(s.node()).append(" at ").append(s.at()).append(": ");
        if (!s.present()) {
            return new Evidence(s.at(), "gpu-stack", fact.append("not present (deleted or not yet seen)").toString(),
                    Commands.nodeJsonPath(s.node(), "{.metadata.name}"));
        }
        fact.append("driver ").append(s.driverVersion() == null ? "not labelled" : s.driverVersion());
        fact.append(", CUDA ").append(s.cudaVersion() == null ? "not labelled" : s.cudaVersion());
        if (s.gpuCapacity() != null) {
            fact.append(", nvidia.com/gpu capacity ").append(s.gpuCapacity()).append(" allocatable ").append(s.gpuAllocatable());
        }
        for (NodeStack.ComponentPod p : s.devicePlugins()) {
            fact.append(", ").append(p.component()).append(' ').append(p.state());
            if (p.restarts() != null && p.restarts() > 0) {
                fact.append(" (").append(p.restarts()).append(" restarts)");
            }
        }
        return new Evidence(s.at(), "gpu-stack", fact.toString(), Commands.describeNode(s.node()));
    }

    /** The device plugins not ready on the node, each a fact with the command that lists its pods there. */
    static List<Evidence> unreadyPlugins(NodeStack s) {
        List<Evidence> out = new ArrayList<>();
        for (NodeStack.ComponentPod p : s.unreadyPlugins()) {
            out.add(new Evidence(s.at(), "gpu-stack", p.component() + " on node " + s.node() + " is " + p.state()
                    + (p.name() == null ? "" : " (pod " + p.namespace() + "/" + p.name()
                    + (p.restarts() == null ? "" : ", " + p.restarts() + " restarts")
                    + (p.waitingReason() == null ? "" : ", waiting " + p.waitingReason()) + ")"),
                    p.namespace() == null ? Commands.nodeAllocatable(s.node()) : Commands.stackPodsOn(p.namespace(), s.node())));
        }
        return out;
    }

    /** The changes of these kinds in the list (newest first), each a fact. */
    static List<Evidence> changes(List<BookedChange> changes, String node, Set<ChangeKind> kinds, Instant notAfter) {
        List<Evidence> out = new ArrayList<>();
        for (BookedChange c : changes) {
            if (kinds.contains(c.kind()) && (c.node() == null || c.node().equals(node)) && !c.at().isAfter(notAfter)) {
                out.add(change(c));
            }
        }
        return out;
    }

    static Evidence change(BookedChange c) {
        String subject = c.subject() == null ? "" : " " + c.subject();
        return new Evidence(c.at(), "change", c.kind().name() + subject + (c.node() == null ? "" : " on node " + c.node())
                + ": " + c.before() + " -> " + c.after() + (c.count() > 1 ? " (" + c.count() + " changes that minute)" : "")
                + (c.source() == null ? "" : ", seen in " + c.source()),
                c.node() == null ? null : Commands.nodeJsonPath(c.node(), "{.metadata.labels}"));
    }
}
