package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Triage;

/** A Volcano PodGroup's wait: its gang or its Volcano queue, as Volcano's Unschedulable condition says. */
final class VolcanoBranch {

    private VolcanoBranch() {
    }

    static WaitDiagnosis volcano(Findings f) {
        f.checked.add("the PodGroup's conditions and events");
        if (f.w.told() == PendingReason.OTHER) {
            f.checked.add("Volcano has written no Unschedulable condition on the PodGroup");
            return f.decided(PendingReason.OTHER, Confidence.LOW);
        }
        f.said();
        if (f.w.told() == PendingReason.VOLCANO_QUEUE && f.w.volcanoQueue() != null) {
            f.evidence.add(new Triage.Evidence(f.w.toldAt(), "volcano-queue", "its Volcano queue '" + f.w.volcanoQueue() + "'",
                    WaitCommands.volcanoQueue(f.w.volcanoQueue())));
        }
        return f.decided(f.w.told(), PendingTree.SAID_OUTRIGHT.contains(f.w.told()) ? Confidence.HIGH : Confidence.MEDIUM);
    }
}
