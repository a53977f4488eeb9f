package io.gpumeter.ledger.triage.pending;

import io.gpumeter.common.fact.ObjectCondition;
import io.gpumeter.common.triage.Confidence;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Triage;

/**
 * A Kueue Workload's wait: its ClusterQueue inactive, its admission checks, a flavor that does not fit, its quota used
 * up, or quota to spare and its turn not come — told apart by the ClusterQueue's reservation against its quota and
 * the Workload's place in its queues, whatever Kueue's last message said.
 */
final class KueueBranch {

    private KueueBranch() {
    }

    static WaitDiagnosis kueue(Findings f) {
        KueueQueue k = f.w.kueue();
        f.checked.add("the Workload's conditions and events");
        if ("INACTIVE".equals(f.w.state()) || f.w.told() == PendingReason.ADMISSION_CHECK) {
            f.said();
            return f.decided(f.w.told() == PendingReason.ADMISSION_CHECK ? PendingReason.ADMISSION_CHECK : PendingReason.INACTIVE,
                    Confidence.HIGH);
        }
        ObjectCondition off = k == null ? null : k.inactive();
        if (off != null) {
            f.evidence.add(new Triage.Evidence(off.lastTransitionTime(), "cluster-queue", "ClusterQueue '"
                    + k.clusterQueue().name() + "' is not active: " + off.reason()
                    + (off.message() == null ? "" : " (" + off.message() + ")"), WaitCommands.clusterQueue(k.clusterQueue().name())));
            f.said();
            f.alternatives.add(new Triage.Alternative(PendingReason.QUOTA.label(),
                    "a ClusterQueue that is not active admits nothing, whatever its quota"));
            return f.decided(PendingReason.INACTIVE, Confidence.HIGH);
        }
        if (k == null || k.clusterQueue() == null) {
            f.checked.add("its ClusterQueue" + (f.w.clusterQueue() == null ? "" : " '" + f.w.clusterQueue() + "'")
                    + " is not in the ledger: its quota and whether it is active could not be read");
        } else {
            f.checked.add("ClusterQueue '" + k.clusterQueue().name() + "': active, quota and reservation");
        }
        if (f.w.told() == PendingReason.FLAVOR) {
            f.said();
            f.alternatives.add(new Triage.Alternative(PendingReason.QUOTA.label(),
                    "Kueue says no flavor of its ClusterQueue fits it, not that the quota is used up"));
            return f.decided(PendingReason.FLAVOR, Confidence.HIGH);
        }
        KueueQueue.Position position = k == null ? null : k.position();
        Boolean room = k == null ? null : k.hasRoom();
        if (position == null) {
            f.checked.add("no pending position: Kueue's visibility API has not listed it");
        }
        if (f.w.told() == PendingReason.QUOTA) {
            f.said();
            rooms(f, k);
            if (Boolean.TRUE.equals(room) && position != null) {
                position(f, position);
                f.alternatives.add(new Triage.Alternative(PendingReason.QUOTA.label(), "its ClusterQueue has room for what it"
                        + " asks at " + f.fleet.at() + ", after Kueue's refusal" + (f.w.toldAt() == null ? "" : " at " + f.w.toldAt())));
                return f.decided(PendingReason.QUEUED, Confidence.MEDIUM);
            }
            f.alternatives.add(new Triage.Alternative(PendingReason.QUEUED.label(), Boolean.FALSE.equals(room)
                    ? "its ClusterQueue has no room for what it asks: its turn would not admit it"
                    : "Kueue says its quota is short"));
            return f.decided(PendingReason.QUOTA, Confidence.HIGH);
        }
        if (f.w.told() == PendingReason.OTHER) {
            f.checked.add("Kueue has written no refusal of it: no QuotaReserved=False message, no Pending event");
            if (Boolean.FALSE.equals(room)) {
                rooms(f, k);
                if (position != null) {
                    position(f, position);
                }
                f.alternatives.add(new Triage.Alternative(PendingReason.QUEUED.label(),
                        "its ClusterQueue has no room for what it asks: its turn would not admit it"));
                return f.decided(PendingReason.QUOTA, Confidence.MEDIUM);
            }
            if (position != null) {
                position(f, position);
                rooms(f, k);
                f.alternatives.add(new Triage.Alternative(PendingReason.QUOTA.label(), Boolean.TRUE.equals(room)
                        ? "its ClusterQueue has room for what it asks" : "Kueue has refused it nothing for want of quota"));
                return f.decided(PendingReason.QUEUED, Boolean.TRUE.equals(room) ? Confidence.HIGH : Confidence.MEDIUM);
            }
            return f.decided(PendingReason.OTHER, Confidence.LOW);
        }
        f.said();
        return f.decided(f.w.told(), Confidence.MEDIUM);
    }

    static void position(Findings f, KueueQueue.Position p) {
        String cq = f.w.kueue().clusterQueue() != null ? f.w.kueue().clusterQueue().name() : f.w.clusterQueue();
        String place = p.inClusterQueue() == 0 ? "next to be considered in ClusterQueue '" + cq + "'"
                : "position " + p.inClusterQueue() + " in ClusterQueue '" + cq + "': " + p.inClusterQueue()
                + (p.inClusterQueue() == 1 ? " workload" : " workloads") + " ahead of it";
        if (p.inLocalQueue() != null) {
            place += "; position " + p.inLocalQueue() + " in its LocalQueue '" + f.w.localQueue() + "'";
        }
        if (p.priority() != null) {
            place += "; priority " + p.priority();
        }
        f.evidence.add(new Triage.Evidence(p.observedAt(), "pending-position", place,
                f.w.localQueue() == null ? WaitCommands.workload(f.w.namespace(), f.w.name())
                        : WaitCommands.pendingWorkloads(f.w.namespace(), f.w.localQueue())));
    }

    static void rooms(Findings f, KueueQueue k) {
        if (k == null || k.clusterQueue() == null) {
            return;
        }
        for (KueueQueue.Room r : k.rooms()) {
            f.evidence.add(new Triage.Evidence(k.clusterQueue().observedAt(), "cluster-queue", r.resource() + " in flavor '"
                    + r.flavor() + "' of ClusterQueue '" + k.clusterQueue().name() + "': " + Findings.plain(r.reserved())
                    + " reserved of " + Findings.plain(r.nominal()) + " nominal"
                    + (r.borrowingLimit() == null ? "" : " (+" + Findings.plain(r.borrowingLimit()) + " it may borrow)")
                    + ", " + Findings.plain(r.free()) + " free; it asks " + Findings.plain(r.ask()),
                    WaitCommands.clusterQueue(k.clusterQueue().name())));
        }
    }
}
