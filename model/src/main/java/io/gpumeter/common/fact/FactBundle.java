package io.gpumeter.common.fact;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One request's metering facts (namespaces, nodes, pods) and governance facts (queues, admission, events, pod
 * states), which the ledger stores in one transaction: both or neither.
 *
 * <p>The governance views of {@code facts.pods} may come as {@code carriedStatuses} instead of in
 * {@code governance.podStatuses}: entry {@code i} holds what the view of pod version {@code i} says beyond the version
 * itself ({@link CarriedStatus}), one entry for every pod version. That is about two fifths of a view's bytes, and a
 * bulk replay sends a view with every pod version it sends; the ledger makes the whole views again ({@link #expanded})
 * before it reads anything else of the bundle.
 */
public record FactBundle(FactBatch facts, GovernanceBatch governance, List<CarriedStatus> carriedStatuses) {

    public FactBundle {
        carriedStatuses = carriedStatuses == null ? List.of() : List.copyOf(carriedStatuses);
    }

    /** A bundle with every governance view whole. */
    public FactBundle(FactBatch facts, GovernanceBatch governance) {
        this(facts, governance, List.of());
    }

    /**
     * These halves in one bundle, the pods' governance views sent as {@link #carriedStatuses} when the views are, in
     * order, one for each pod version and each exactly what that version makes with its carried fields; otherwise
     * the halves as they are.
     */
    public static FactBundle carrying(FactBatch facts, GovernanceBatch governance) {
        if (facts == null || governance == null || facts.pods().isEmpty()
                || governance.podStatuses().size() != facts.pods().size()) {
            return new FactBundle(facts, governance);
        }
        List<CarriedStatus> carried = new ArrayList<>(facts.pods().size());
        for (int i = 0; i < facts.pods().size(); i++) {
            Optional<CarriedStatus> fields = CarriedStatus.carriedBy(facts.pods().get(i), governance.podStatuses().get(i));
            if (fields.isEmpty()) {
                return new FactBundle(facts, governance);
            }
            carried.add(fields.get());
        }
        GovernanceBatch rest = governance.withPodStatuses(List.of());
        return new FactBundle(facts, rest.size() == 0 ? null : rest, carried);
    }

    /**
     * This bundle with every governance view whole: {@code governance.podStatuses} followed by the views the carried
     * fields make of {@code facts.pods}, in their order. Needs one carried entry for each pod version.
     */
    public FactBundle expanded() {
        if (carriedStatuses.isEmpty()) {
            return this;
        }
        if (facts == null || facts.pods().size() != carriedStatuses.size()) {
            throw new IllegalStateException("carried governance views need one pod version each");
        }
        List<PodStatusFact> views = new ArrayList<>(carriedStatuses.size()
                + (governance == null ? 0 : governance.podStatuses().size()));
        if (governance != null) {
            views.addAll(governance.podStatuses());
        }
        for (int i = 0; i < carriedStatuses.size(); i++) {
            views.add(carriedStatuses.get(i).on(facts.pods().get(i)));
        }
        GovernanceBatch whole = governance == null
                ? GovernanceBatch.of(facts.cluster(), List.of()).withPodStatuses(views)
                : governance.withPodStatuses(views);
        return new FactBundle(facts, whole);
    }
}
