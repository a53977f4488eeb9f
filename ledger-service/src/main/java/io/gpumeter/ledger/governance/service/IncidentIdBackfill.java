package io.gpumeter.ledger.governance.service;

import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

/**
 * Gives the incidents stored before they had stable ids theirs, at start, a slice per statement. Every derivation
 * writes the id with the row, so this runs out once the old rows are done; replicas doing it at once write the same
 * ids. Until a row has its id stored, reads answer the id the rule gives it, and only the lookup by id misses it.
 */
@ApplicationScoped
public class IncidentIdBackfill {

    private static final Logger LOG = Logger.getLogger(IncidentIdBackfill.class);
    static final int SLICE = 5000;

    private final IncidentRepository incidents;

    public IncidentIdBackfill(IncidentRepository incidents) {
        this.incidents = incidents;
    }

    void onStart(@Observes StartupEvent event) {
        fillAll(0).subscribe().with(
                filled -> {
                    if (filled > 0) {
                        LOG.infof("%d incident(s) stored before stable ids were given theirs", filled);
                    }
                },
                failure -> LOG.error("incidents stored before stable ids could not be given theirs", failure));
    }

    /** Fills slices until none is left; answers how many rows were given an id. */
    public Uni<Integer> fillAll(int sofar) {
        return incidents.fillMissingIds(SLICE)
                .chain(filled -> filled < SLICE ? Uni.createFrom().item(sofar + filled) : fillAll(sofar + filled));
    }
}
