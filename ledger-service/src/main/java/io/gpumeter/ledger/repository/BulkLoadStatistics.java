package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Refreshes the planner's statistics of the ledger's tables after a bulk load, as PostgreSQL advises after loading a
 * large amount of data ("Populating a Database": run ANALYZE afterwards). A first replay fills empty tables faster than
 * autovacuum looks at them (once a minute by default): the statements a replay repeats were planned for tables the
 * planner took to be empty, and kept that plan as they grew. Measured on a month of 2,000 GPUs: deleting a slice's
 * allocation segments by pod chose the index by node, whose only usable column is the cluster, and read every segment
 * of the cluster each time (6 million index entries over 111 statements, 1.6 s of the replay's 22 s of statements).
 * <p>
 * After a transaction that stored at least {@link #ROWS} facts, the ledger's tables that have grown fourfold since
 * their last analysis (at least {@link #CHANGED} rows changed, and three quarters of what they hold or more) are
 * analysed, in the background, one analysis at a time; a table never analysed is analysed after its first bulk load.
 * Analysing refreshes the statistics and makes the cached plans of those tables planned again. A plan made for a table
 * a fraction of its later size already chooses the keys a replay's statements look up, while an analysis samples up
 * to 30,000 rows of each table and sorts their values column by column: after every doubling, a month's replay spent
 * 3.3–5.5 s of PostgreSQL's time analysing (a quarter of its time), as much as it spent inserting the allocated books;
 * after every fourfold growth, each table is analysed two or three times in a month's replay.
 */
@ApplicationScoped
public class BulkLoadStatistics {

    /** Facts stored by one transaction that make it a bulk load. */
    public static final int ROWS = 5_000;
    /** Rows changed since a table's last analysis below which autovacuum is left to it. */
    static final int CHANGED = 1_000;

    private static final Logger LOG = Logger.getLogger(BulkLoadStatistics.class);

    private final Pool pool;
    private final AtomicBoolean analysing = new AtomicBoolean();

    public BulkLoadStatistics(Pool pool) {
        this.pool = pool;
    }

    /**
     * Called once a transaction that stored {@code factsStored} facts has committed; returns at once, answering whether
     * it started an analysis (not for a smaller transaction, nor while one runs).
     */
    public boolean afterCommit(long factsStored) {
        if (factsStored < ROWS || !analysing.compareAndSet(false, true)) {
            return false;
        }
        analyseStale().subscribe().with(tables -> {
            analysing.set(false);
            if (!tables.isEmpty()) {
                LOG.debugf("statistics refreshed after a bulk load: %s", tables);
            }
        }, failure -> {
            analysing.set(false);
            LOG.warnf(failure, "statistics not refreshed after a bulk load");
        });
        return true;
    }

    /** Analyses the ledger's tables whose statistics a bulk load left stale; answers which, by name. */
    public Uni<List<String>> analyseStale() {
        return pool.query(staleTablesSql()).execute().chain(rows -> {
            List<String> tables = new ArrayList<>();
            for (Row row : rows) {
                tables.add(row.getString("table_name"));
            }
            return tables.isEmpty() ? Uni.createFrom().item(tables)
                    : pool.query("ANALYZE " + String.join(", ", tables)).execute().replaceWith(tables);
        });
    }

    /** Names quoted by the catalog itself ({@code format('%I')}), so they go into ANALYZE as they are. */
    static String staleTablesSql() {
        return """
                SELECT format('%I.%I', schemaname, relname) AS table_name
                FROM pg_stat_user_tables
                WHERE schemaname = 'ledger' AND n_mod_since_analyze >= """ + CHANGED + """
                 AND n_mod_since_analyze * 4 >= n_live_tup * 3
                ORDER BY relname""";
    }
}
