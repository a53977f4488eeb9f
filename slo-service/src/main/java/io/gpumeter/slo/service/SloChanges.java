package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;

/**
 * What changed before an SLO whose burn-rate alert fires: the scope is the nodes the pods it counted held units on in
 * the look-back before its status, and those nodes' clusters; the look-back ends at the status's end. Every firing
 * SLO of one read together is one placement read and one read of the change book ({@link ChangesBefore}). Callers
 * leave a tenant's reads out: the change book spans every tenant's nodes.
 */
@ApplicationScoped
public class SloChanges {

    private final ChangesBefore changes;

    public SloChanges(ChangesBefore changes) {
        this.changes = changes;
    }

    /** The changes before each of these evaluations that fires, by SLO name; the others are missing. */
    public Uni<Map<String, ChangesBefore.Found>> of(List<SloService.Evaluated> evaluated) {
        return changes.of(evaluated.stream().filter(SloService.Evaluated::firing)
                .map(e -> new ChangesBefore.Subject(e.definition().name(), e.recentPods(),
                        new TimeWindow(e.end().minus(changes.lookBack()), e.end()), e.end()))
                .toList());
    }
}
