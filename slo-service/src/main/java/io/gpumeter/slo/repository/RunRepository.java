package io.gpumeter.slo.repository;

import io.gpumeter.common.problem.Page;
import io.quarkus.hibernate.reactive.panache.PanacheRepositoryBase;
import io.quarkus.hibernate.reactive.panache.common.WithSession;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.panache.common.Sort;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/** Acceptance runs in schema slo, newest first. */
@ApplicationScoped
public class RunRepository implements PanacheRepositoryBase<StoredRun, Long> {

    @WithTransaction
    public Uni<StoredRun> save(StoredRun run) {
        return persist(run);
    }

    @WithSession
    public Uni<StoredRun> byId(long id) {
        return findById(id);
    }

    /** One page of the runs, newest first, with the number of all runs. */
    @WithSession
    public Uni<Page<StoredRun>> page(int offset, int limit) {
        var query = findAll(Sort.descending("createdAt").and("id", Sort.Direction.Descending));
        return query.count().chain(total -> query.range(offset, offset + limit - 1).list()
                .map(rows -> Page.of(rows, total)));
    }

    /** The latest runs by the end of their window, the newest measurement first. */
    @WithSession
    public Uni<List<StoredRun>> latest(int limit) {
        return findAll(Sort.descending("to").and("id", Sort.Direction.Descending)).range(0, limit - 1).list();
    }
}
