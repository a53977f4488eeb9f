package io.gpumeter.alert.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs a job on one replica at a time: a PostgreSQL advisory lock (pg_try_advisory_lock), held on one pooled
 * connection for the job's duration. A replica that does not get the lock skips the run.
 */
@ApplicationScoped
public class AdvisoryLock {

    private final Pool pool;

    public AdvisoryLock(Pool pool) {
        this.pool = pool;
    }

    /** The job's result, or empty when another replica holds the lock. */
    public <T> Uni<Optional<T>> tryRun(String name, Supplier<Uni<T>> job) {
        return pool.withConnection(conn -> conn.preparedQuery("SELECT pg_try_advisory_lock(hashtext($1)) AS got")
                .execute(Tuple.of(name))
                .chain(rows -> {
                    if (!rows.iterator().next().getBoolean("got")) {
                        return Uni.createFrom().item(Optional.<T>empty());
                    }
                    return Uni.createFrom().<T>deferred(job::get).map(Optional::ofNullable)
                            .eventually(() -> conn.preparedQuery("SELECT pg_advisory_unlock(hashtext($1))").execute(Tuple.of(name)));
                }));
    }
}
