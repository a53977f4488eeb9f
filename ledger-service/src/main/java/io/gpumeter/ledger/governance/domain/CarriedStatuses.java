package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.FactBundle;
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
    private final Map<PodStatusFact, Sent> sent;
    private final Map<PodFact, CarriedStatus> byPod = new IdentityHashMap<>();
    private final Set<PodStatusFact> carried = Collections.newSetFromMap(new IdentityHashMap<>());

    private CarriedStatuses(List<PodStatusFact> newStatuses, Map<PodStatusFact, Sent> sent) {
        this.sent = sent;
        for (PodStatusFact status : newStatuses) {
            offered.putIfAbsent(new Key(status.uid(), status.resourceVersion(), status.type()), status);
        }
    }

    /** Nothing to carry: a batch of pod versions alone. */
    public static CarriedStatuses none() {
        return new CarriedStatuses(List.of(), Map.of());
    }

    /** The governance views a bundle stores that its pod versions may carry: those whose key was not stored before. */
    public static CarriedStatuses offered(List<PodStatusFact> newStatuses) {
        return new CarriedStatuses(newStatuses, Map.of());
    }

    /**
     * As {@link #offered(List)}, knowing which views a bundle sent as carried entries ({@link #sentIn}): such a view,
     * paired with the very pod version it was made from, is carried by the entry as it came, which is what that
     * version keeps of it (and whose received bytes may be stored as they are), without making the view again.
     */
    public static CarriedStatuses offered(List<PodStatusFact> newStatuses, Map<PodStatusFact, Sent> sent) {
        return new CarriedStatuses(newStatuses, sent);
    }

    /** A view made from a bundle's carried entry: the pod version and the entry it was made of. */
    public record Sent(PodFact pod, CarriedStatus fields) {
    }

    /**
     * The views of {@code whole} (the bundle {@code sent} with its views made whole, {@link FactBundle#expanded()})
     * that were made from carried entries, each with what it was made of: they follow the views sent whole, one per
     * pod version, in order.
     */
    public static Map<PodStatusFact, Sent> sentIn(FactBundle sent, FactBundle whole) {
        List<CarriedStatus> entries = sent.carriedStatuses();
        if (entries.isEmpty() || whole.governance() == null) {
            return Map.of();
        }
        List<PodStatusFact> views = whole.governance().podStatuses();
        int first = views.size() - entries.size();
        Map<PodStatusFact, Sent> made = new IdentityHashMap<>();
        for (int i = 0; i < entries.size(); i++) {
            made.put(views.get(first + i), new Sent(sent.facts().pods().get(i), entries.get(i)));
        }
        return made;
    }

    /** Pairs the offered views with the pod versions the bundle stores; call it once, before those are inserted. */
    public void pairWith(List<PodFact> newPods) {
        if (offered.isEmpty()) {
            return;
        }
        for (PodFact pod : newPods) {
            PodStatusFact status = offered.remove(new Key(pod.uid(), pod.resourceVersion(), pod.type()));
            if (status == null) {
                continue;
            }
            Sent made = sent.get(status);
            CarriedStatus fields = made != null && made.pod() == pod ? made.fields()
                    : CarriedStatus.carriedBy(pod, status).orElse(null);
            if (fields != null) {
                byPod.put(pod, fields);
                carried.add(status);
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
