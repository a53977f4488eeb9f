package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyManager;

import java.io.IOException;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;

/**
 * The floor an intake of usage values is measured beside: a raw PostgreSQL COPY of as many values, one row each,
 * into a table keyed as the ledger keys a card's value at an instant (one unique index), on the same database in
 * the same run. Nothing is parsed, rolled up or bound to pods: what remains is the database's own cost of the rows.
 */
final class CopyFloor {

    private CopyFloor() {
    }

    /** Seconds to COPY {@code values} rows, {@code cards} cards at a time, in requests of one instant each. */
    static double seconds(DatabaseConnection db, long values, int cards) throws SQLException, IOException {
        Instant start = Instant.parse("2026-05-04T00:00:00Z");
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = c.createStatement()) {
            s.execute("DROP TABLE IF EXISTS public.bench_copy");
            s.execute("CREATE TABLE public.bench_copy (cluster text NOT NULL, gpu_uuid text NOT NULL, scope text NOT NULL,"
                    + " scope_key text NOT NULL, field text NOT NULL, at timestamptz NOT NULL, value double precision NOT NULL,"
                    + " PRIMARY KEY (cluster, gpu_uuid, scope, scope_key, field, at))");
            CopyManager copy = c.unwrap(PGConnection.class).getCopyAPI();
            int fields = FederatedScrape.FIELDS.length;
            long t0 = System.nanoTime();
            long written = 0;
            for (int second = 0; written < values; second++) {
                String at = start.plusSeconds(second).toString();
                StringBuilder rows = new StringBuilder(cards * fields * 70);
                for (int f = 0; f < fields && written < values; f++) {
                    for (int g = 0; g < cards && written < values; g++, written++) {
                        rows.append("bench\tGPU-bench-").append(g).append("\tDEVICE\t\t").append(FederatedScrape.FIELDS[f])
                                .append('\t').append(at).append('\t').append(g % 100).append('\n');
                    }
                }
                copy.copyIn("COPY public.bench_copy FROM STDIN", new StringReader(rows.toString()));
            }
            double took = (System.nanoTime() - t0) / 1e9;
            s.execute("DROP TABLE public.bench_copy");
            return took;
        }
    }
}
