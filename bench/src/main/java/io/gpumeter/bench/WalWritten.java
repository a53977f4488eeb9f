package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the database wrote to its write-ahead log, and how many checkpoints it made, from PostgreSQL's cumulative
 * statistics ({@code pg_stat_wal}, {@code pg_stat_checkpointer}): a checkpoint in the middle of a bulk load makes the
 * next change of every page log the whole page again, so the log of a load can be several times its rows.
 */
record WalWritten(long bytes, long fullPageImages, long checkpoints) {

    static WalWritten now(DatabaseConnection db) throws SQLException {
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery("""
                     SELECT w.wal_bytes, w.wal_fpi, k.num_timed + k.num_requested
                     FROM pg_stat_wal w, pg_stat_checkpointer k""")) {
            rs.next();
            return new WalWritten(rs.getLong(1), rs.getLong(2), rs.getLong(3));
        }
    }

    /** One line for a bench's report: what was written between {@code before} and this. */
    String since(WalWritten before, String what) {
        return String.format("  write-ahead log of the %s: %,d MiB, %,d full-page images, %d checkpoints",
                what, (bytes - before.bytes) >> 20, fullPageImages - before.fullPageImages, checkpoints - before.checkpoints);
    }
}
