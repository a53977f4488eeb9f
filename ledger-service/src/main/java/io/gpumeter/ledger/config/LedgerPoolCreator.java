package io.gpumeter.ledger.config;

import io.gpumeter.ledger.repository.KeptPrepared;
import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.Pool;
import jakarta.inject.Singleton;

/**
 * The ledger's connection pool as configured, with one change: each connection keeps the statements marked
 * {@link KeptPrepared} prepared (point lookups and bulk writes), and no other statement.
 */
@Singleton
public class LedgerPoolCreator implements PgPoolCreator {

    /** Distinct statements a connection keeps: a handful of point lookups and of bulk writes. */
    static final int PREPARED_PER_CONNECTION = 32;

    @Override
    @SuppressWarnings("deprecation") // Quarkus expects a PgPool from a creator
    public Pool create(Input input) {
        for (PgConnectOptions options : input.pgConnectOptionsList()) {
            options.setCachePreparedStatements(true)
                    .setPreparedStatementCacheMaxSize(PREPARED_PER_CONNECTION)
                    .setPreparedStatementCacheSqlFilter(KeptPrepared::isMarked);
        }
        return PgPool.pool(input.vertx(), input.pgConnectOptionsList(), input.poolOptions());
    }
}
