package io.gpumeter.billing.repository;

import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * Tenants' monthly budgets in schema billing, keyed by tenant.
 */
@ApplicationScoped
public class BudgetRepository implements PanacheRepositoryBase<StoredBudget, String> {

    @WithSession
    public Uni<List<StoredBudget>> listByTenant() {
        return listAll(Sort.by("tenant"));
    }

    @WithSession
    public Uni<StoredBudget> byTenant(String tenant) {
        return findById(tenant);
    }
}
