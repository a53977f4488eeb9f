package io.gpumeter.slo.repository;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/** Service level objectives in schema slo, keyed by name. */
@ApplicationScoped
public class SloRepository implements PanacheRepositoryBase<StoredSlo, String> {

    @WithSession
    public Uni<List<StoredSlo>> listByName() {
        return listAll(Sort.by("name"));
    }

    /** The SLOs whose selector names exactly this tenant. */
    @WithSession
    public Uni<List<StoredSlo>> listByTenant(String tenant) {
        return list("tenant", Sort.by("name"), tenant);
    }

    @WithSession
    public Uni<StoredSlo> byName(String name) {
        return findById(name);
    }
}
