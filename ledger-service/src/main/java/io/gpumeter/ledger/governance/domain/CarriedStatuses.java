package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WatchEventType;

import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which of a bundle's new governance views of pods its new pod versions carry (ADR 0016): one per pod event, stored
 * in the pod version's row, instead of a second row. A view is carried when it is new (no view of its key was stored
 * before), its pod version of the same key is new too, and that version with the view's status fields makes exactly
 * the view. Every other view is stored on its own. One instance per bundle, used on the bundle's connection only.
 */
public final class CarriedStatuses {

    private final Map<Key, PodStatusFact> offered = new HashMap<>();
    private final Map<PodFact, CarriedStatus> byPod = new IdentityHashMap<>();
    private final Set<PodStatusFact> carried = Collections.newSetFromMap(new IdentityHashMap<>());

    private CarriedStatuses(List<PodStatusFact> newStatuses) {
        for (PodStatusFact status : newStatuses) {
            offered.putIfAbsent(new Key(status.uid(), status.resourceVersion(), status.type()), status);
        }
    }

    /** Nothing to carry: a batch of pod versions alone. */
    public static CarriedStatuses none() {
        return new CarriedStatuses(List.of());
    }

    /** The governance views a bundle stores that its pod versions may carry: those whose key was not stored before. */
    public static CarriedStatuses offered(List<PodStatusFact> newStatuses) {
        return new CarriedStatuses(newStatuses);
    }

    /** Pairs the offered views with the pod versions the bundle stores; call it once, before those are inserted. */
    public void pairWith(List<PodFact> newPods) {
        if (offered.isEmpty()) {
            return;
        }
        for (PodFact pod : newPods) {
            PodStatusFact status = offered.remove(new Key(pod.uid(), pod.resourceVersion(), pod.type()));
            if (status != null) {
                CarriedStatus.carriedBy(pod, status).ifPresent(fields -> {
                    byPod.put(pod, fields);
                    carried.add(status);
                });
            }
        }
    }

    /** The status fields this pod version keeps, or null when it carries no governance view. */
    public CarriedStatus of(PodFact pod) {
        return byPod.get(pod);
    }

    /** Whether a pod version stores this view, which is then not stored on its own. */
    public boolean carries(PodStatusFact status) {
        return carried.contains(status);
    }

    /** A version's key, hashed from the hashes its strings keep: a key joined into one string was built per lookup. */
    private record Key(String uid, String resourceVersion, WatchEventType type) {
    }
}
