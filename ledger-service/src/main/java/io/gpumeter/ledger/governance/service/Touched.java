package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.repository.Inserted;
import io.gpumeter.ledger.repository.VersionsInHand;

import java.util.LinkedHashSet;
import java.util.Set;

/** What one batch stored for the first time, and so which objects' books must be derived again. */
final class Touched {

    int accepted;
    final Set<String> workloads = new LinkedHashSet<>();
    final Set<String> workloadNames = new LinkedHashSet<>();
    final Set<String> podGroups = new LinkedHashSet<>();
    final Set<String> podGroupNames = new LinkedHashSet<>();
    final Set<String> pods = new LinkedHashSet<>();
    final Set<String> podNames = new LinkedHashSet<>();
    /** Cards as node|pci. */
    final Set<String> cards = new LinkedHashSet<>();
    /** Cards the batch named by UUID (Xids, announcements). */
    final Set<String> cardUuids = new LinkedHashSet<>();
    /** Nodes a kernel OOM event was reported about. */
    final Set<String> oomNodes = new LinkedHashSet<>();
    /** Nodes with a new status, stack pod version or driver sighting: their change book is derived again. */
    final Set<String> changeNodes = new LinkedHashSet<>();
    /** Nodes with a new status version, whose MIG consistency it may change. */
    final Set<String> statusNodes = new LinkedHashSet<>();
    /** GPU-stack components with a new workload version. */
    final Set<String> components = new LinkedHashSet<>();
    /** Queue objects with a new version, as kind/namespace/name. */
    final Set<String> queues = new LinkedHashSet<>();
    /** The pod versions the batch carried, which deriving its pods need not read back. */
    final VersionsInHand<PodStatusFact> podsInHand;

    Touched(VersionsInHand<PodStatusFact> podsInHand) {
        this.podsInHand = podsInHand;
    }

    void count(Inserted inserted) {
        accepted += inserted.count();
    }

    void changedNodes(Inserted inserted) {
        count(inserted);
        changeNodes.addAll(inserted.keys());
    }

    /** Event keys are kind|namespace/name|uid: the object an event is about. */
    void events(Inserted inserted) {
        count(inserted);
        for (String key : inserted.keys()) {
            String[] parts = key.split("\\|", -1);
            String kind = parts[0];
            String name = parts[1];
            String uid = parts[2];
            switch (kind) {
                case "Workload" -> add(workloads, workloadNames, uid, name);
                case "PodGroup" -> add(podGroups, podGroupNames, uid, name);
                case "Pod" -> add(pods, podNames, uid, name);
                case "Node" -> oomNodes.add(name.substring(name.indexOf('/') + 1));
                default -> { }
            }
        }
    }

    private static void add(Set<String> uids, Set<String> names, String uid, String name) {
        if (uid.isEmpty()) {
            names.add(name);
        } else {
            uids.add(uid);
        }
    }
}
