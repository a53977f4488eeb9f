package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;

/**
 * Transaction-scoped PostgreSQL advisory locks that let one writer per cluster and book at a time derive from the
 * facts, so no book is ever derived from half of a batch. Replicas need nothing but the shared database.
 */
public final class ClusterLock {

    /** The allocated and used ledger. */
    public static final String INGEST = "gpumeter.ledger.ingest";
    /** The governance books (queues, failures). */
    public static final String GOVERNANCE = "gpumeter.ledger.governance";

    private ClusterLock() {
    }

    /** Waits for the lock of this book and cluster; it is released when the transaction ends. */
    public static Uni<Void> take(SqlConnection conn, String book, String cluster) {
        return conn.preparedQuery("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))")
                .execute(Tuple.of(book, cluster)).replaceWithVoid();
    }
}
