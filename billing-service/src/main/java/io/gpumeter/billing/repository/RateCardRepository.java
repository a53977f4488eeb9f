package io.gpumeter.billing.repository;

import io.quarkus.hibernate.reactive.panache.PanacheRepository;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.List;

/**
 * Dated rate cards in schema billing.
 */
@ApplicationScoped
public class RateCardRepository implements PanacheRepository<StoredRateCard> {

    @WithSession
    public Uni<List<StoredRateCard>> listByEffectiveFrom() {
        return listAll(Sort.by("effectiveFrom"));
    }

    @WithSession
    public Uni<StoredRateCard> findByVersion(String version) {
        return find("version", version).firstResult();
    }

    @WithSession
    public Uni<StoredRateCard> findByEffectiveFrom(Instant effectiveFrom) {
        return find("effectiveFrom", effectiveFrom).firstResult();
    }
}
