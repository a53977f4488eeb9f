package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The ledger's tables (a partitioned table with all its partitions): their rows, counted, and bytes on disk. A run's
 * growth is the rows it added at the bytes a row takes (indexes included): tables that keep only the first and last
 * reading of a run of one value insert and delete all the time, and their files' size would count the dead rows
 * autovacuum has not yet reclaimed as growth. A row's bytes are the table's at the end of the run, which still counts
 * the space of rows rewritten within their minute (a minute row is rewritten at each delivery) until vacuum reclaims
 * it; a run's first and last minute are partly outside it, so rows per day are over by about a minute per window.
 */
final class RollupGrowth {

    /** A table's rows and its bytes on disk. */
    record Table(long rows, long bytes) {
        double bytesPerRow() {
            return rows == 0 ? 0 : (double) bytes / rows;
        }
    }

    private RollupGrowth() {
    }

    static Map<String, Table> tables(DatabaseConnection db) throws SQLException {
        Map<String, Long> bytes = new TreeMap<>();
        Map<String, Table> tables = new TreeMap<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement s = c.createStatement()) {
            try (ResultSet rows = s.executeQuery("SELECT coalesce(p.relname, c.relname), sum(pg_total_relation_size(c.oid))"
                    + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                    + " LEFT JOIN pg_inherits i ON i.inhrelid = c.oid LEFT JOIN pg_class p ON p.oid = i.inhparent"
                    + " WHERE n.nspname = 'ledger' AND c.relkind = 'r' GROUP BY 1")) {
                while (rows.next()) {
                    bytes.put(rows.getString(1), rows.getLong(2));
                }
            }
            for (Map.Entry<String, Long> e : bytes.entrySet()) {
                if (e.getValue() > 1 << 20) { // the others are too small to matter at a day's scale
                    try (ResultSet count = s.executeQuery("SELECT count(*) FROM ledger." + e.getKey())) {
                        count.next();
                        tables.put(e.getKey(), new Table(count.getLong(1), e.getValue()));
                    }
                }
            }
        }
        return tables;
    }

    /** The tables that grew, largest first, scaled to a day: "usage_minute 41.2 GiB/day (63,360,000 rows); ...". */
    static String perDay(Map<String, Table> before, Map<String, Table> after, double minutes) {
        record Growth(String table, double rows, double bytes) {
        }
        List<Growth> grew = new ArrayList<>();
        after.forEach((name, t) -> {
            long added = t.rows() - before.getOrDefault(name, new Table(0, 0)).rows();
            if (added > 0) {
                double perDay = 1440.0 / minutes;
                grew.add(new Growth(name, added * perDay, added * t.bytesPerRow() * perDay));
            }
        });
        grew.sort((a, b) -> Double.compare(b.bytes(), a.bytes()));
        StringBuilder line = new StringBuilder();
        double total = 0;
        for (Growth g : grew) {
            total += g.bytes();
            line.append(String.format("%s %s/day (%,.0f rows at %.0f B); ", g.table(), bytes(g.bytes()), g.rows(),
                    g.rows() == 0 ? 0 : g.bytes() / g.rows()));
        }
        return line.append(String.format("all %s/day", bytes(total))).toString();
    }

    static String bytes(double b) {
        return b >= 1L << 30 ? String.format("%.1f GiB", b / (1L << 30)) : String.format("%.0f MiB", b / (1L << 20));
    }
}
