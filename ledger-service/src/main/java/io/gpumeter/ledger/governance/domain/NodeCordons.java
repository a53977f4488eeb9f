package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.WatchEventType;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * When one node was cordoned ({@code spec.unschedulable} in its status versions, taken in resourceVersion order as
 * the change book takes them), and by whom: a cordon whose version carries the runbook's mark is the suite's own,
 * as the change book tells it ({@link SuiteMarks}); any other is a person's (planned maintenance). A cordon lasts
 * until a version uncordons the node or deletes it.
 */
public final class NodeCordons {

    /**
     * One cordon: [start, end), end null while it lasts.
     *
     * @param bySuite   the suite's runbook made it
     * @param inherited the node's first status version already showed it cordoned: no change book entry tells it
     */
    public record Cordon(Instant start, Instant end, boolean bySuite, boolean inherited) {
    }

    private NodeCordons() {
    }

    public static List<Cordon> of(List<NodeStatusFact> statusVersions) {
        List<Cordon> out = new ArrayList<>();
        Cordon open = null;
        boolean first = true;
        for (NodeStatusFact v : Versions.ordered(statusVersions, NodeStatusFact::resourceVersion, NodeStatusFact::observedAt)) {
            boolean cordoned = v.type() != WatchEventType.DELETED && v.unschedulable();
            if (open != null && !cordoned) {
                out.add(new Cordon(open.start(), v.observedAt(), open.bySuite(), open.inherited()));
                open = null;
            } else if (open == null && cordoned) {
                open = new Cordon(v.observedAt(), null, SuiteMarks.cordonedBySuite(v.suiteAnnotations()), first);
            }
            // A node deleted and added again starts over: its next version is a baseline as the first was.
            first = v.type() == WatchEventType.DELETED;
        }
        if (open != null) {
            out.add(open);
        }
        return out;
    }
}
