package io.gpumeter.ledger.config;

import io.gpumeter.ledger.repository.BulkWrite;
import io.gpumeter.ledger.repository.PointLookup;
import io.quarkus.reactive.pg.client.PgPoolCreator;
import io.vertx.pgclient.PgConnectOptions;
import io.vertx.pgclient.PgPool;
import io.vertx.sqlclient.Pool;
import jakarta.inject.Singleton;

/**
 * The ledger's connection pool as configured, with one change: each connection keeps its {@link PointLookup point
 * lookups} and {@link BulkWrite bulk writes} prepared, and no other statement.
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
                    .setPreparedStatementCacheSqlFilter(sql -> PointLookup.isMarked(sql) || BulkWrite.isMarked(sql));
        }
        return PgPool.pool(input.vertx(), input.pgConnectOptionsList(), input.poolOptions());
    }
}
