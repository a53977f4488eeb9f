package io.gpumeter.bench;

import io.gpumeter.launcher.db.DatabaseConnection;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a round's time went: the collector stamps each pod version with the instant its informer handed it over
 * ({@code observed_at}, the same wall clock the benchmark wrote the pod by), so each pod's time splits into the watch
 * (the API server to the collector) and the rest (the collector's buffer, the delivery, the ledger's transaction and
 * Q1's read).
 */
final class WatchedAt {

    private WatchedAt() {
    }

    static String split(DatabaseConnection db, String cluster, String namespace, FreshnessProbe.Round round)
            throws SQLException {
        Map<String, Instant> observed = new HashMap<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             PreparedStatement st = c.prepareStatement("SELECT payload->>'name', min(observed_at) FROM ledger.pod_fact"
                     + " WHERE cluster = ? AND namespace = ? GROUP BY 1")) {
            st.setString(1, cluster);
            st.setString(2, namespace);
            try (ResultSet rs = st.executeQuery()) {
                while (rs.next()) {
                    observed.put(rs.getString(1), rs.getTimestamp(2).toInstant());
                }
            }
        }
        List<FreshnessProbe.Sample> samples = round.samples().stream().filter(s -> observed.containsKey(s.pod())).toList();
        double[] watch = samples.stream().mapToDouble(s -> seconds(s.written(), observed.get(s.pod()))).toArray();
        double[] rest = samples.stream().mapToDouble(s -> s.seconds() - seconds(s.written(), observed.get(s.pod()))).toArray();
        StringBuilder out = new StringBuilder(String.format("    of which the watch (written -> the collector's informer):"
                        + " p50 %.3f s, p99 %.3f s, max %.3f s; the rest (buffer, delivery, the ledger's transaction, Q1):"
                        + " p50 %.3f s, p99 %.3f s, max %.3f s", FreshnessProbe.percentile(watch, .5),
                FreshnessProbe.percentile(watch, .99), FreshnessProbe.percentile(watch, 1),
                FreshnessProbe.percentile(rest, .5), FreshnessProbe.percentile(rest, .99), FreshnessProbe.percentile(rest, 1)));
        Instant first = round.samples().stream().map(FreshnessProbe.Sample::written).min(Comparator.naturalOrder()).orElse(null);
        out.append("\n    slowest (written at +s into the round: total = watch + rest):");
        samples.stream().sorted(Comparator.comparingDouble(FreshnessProbe.Sample::seconds).reversed()).limit(5)
                .forEach(s -> out.append(String.format(" +%.1f: %.3f = %.3f + %.3f;", seconds(first, s.written()),
                        s.seconds(), seconds(s.written(), observed.get(s.pod())),
                        s.seconds() - seconds(s.written(), observed.get(s.pod())))));
        return out.toString();
    }

    private static double seconds(Instant from, Instant to) {
        return Duration.between(from, to).toNanos() / 1e9;
    }
}
