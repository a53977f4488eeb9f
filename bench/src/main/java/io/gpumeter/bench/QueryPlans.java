package io.gpumeter.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.launcher.db.DatabaseConnection;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The plans of the hot queries for one tenant's month, on the month just loaded: prints each plan's nodes and
 * answers what is wrong with them, where a fact table read by a sequential scan is wrong. The queries are the
 * ledger's own text, read from its {@code .sql} resources, with the placeholders filled as the ledger fills them.
 */
final class QueryPlans {

    /** The ledger's queries, relative to the project root. */
    private static final Path SQL_DIR = Path.of("ledger-service/src/main/resources/io/gpumeter/ledger/repository");

    /** Tables that grow with the fleet and its history; usage_minute's daily partitions are named after it. */
    private static final Set<String> FACT_TABLES = Set.of("allocation_segment", "usage_minute", "pod_request",
            "pod_fact", "node_fact", "namespace_fact", "gpu_binding");

    private final ObjectMapper json = new ObjectMapper();
    private final Path root;
    private final DatabaseConnection db;

    QueryPlans(Path root, DatabaseConnection db) {
        this.root = root;
        this.db = db;
    }

    /**
     * Explains the used-hours and GPU-hours queries of {@code tenant} over [from, to) grouped by tenant, prints their
     * nodes, and answers the problems found (empty when every fact table is read through an index).
     */
    List<String> check(String tenant, Instant from, Instant to) throws IOException, SQLException {
        // Unbucketed, as a month's report asks; the placeholders of a day, week or month split stay neutral.
        Map<String, String> fill = Map.of("groups", "d0", "tenant_filter", "AND tenant = $4", "bucket_join", "",
                "w_start", "$1", "w_end", "$2", "bucket", "NULL::text", "seg_start", "o.a", "seg_end", "o.b");
        Map<String, String> queries = Map.of(
                "used hours", fill(read("used-hours.sql"), fill, "coalesce(m.tenant, 'unknown') AS d0"),
                "GPU-hours", fill(read("allocated-hours.sql"), fill, "coalesce(s.tenant, 'unknown') AS d0"));
        List<String> problems = new ArrayList<>();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.user(), db.password());
             Statement st = c.createStatement()) {
            st.execute("ANALYZE"); // the statistics autovacuum would gather on its own after a load this size
            for (String name : List.of("GPU-hours", "used hours")) {
                // A statement prepared afresh is planned with the values of its first executions, as the ledger's are.
                st.execute("PREPARE hot(timestamptz, timestamptz, timestamptz, text) AS " + queries.get(name));
                String explain = "EXPLAIN (FORMAT JSON) EXECUTE hot('" + from + "', '" + to + "', '" + to + "', '"
                        + tenant.replace("'", "''") + "')";
                JsonNode plan;
                try (ResultSet rs = st.executeQuery(explain)) {
                    rs.next();
                    plan = json.readTree(rs.getString(1)).get(0).get("Plan");
                }
                System.out.printf("plan of %s for %s, %s to %s:%n", name, tenant, from, to);
                print(plan, 1);
                problems.addAll(sequentialFactScans(name, plan));
                st.execute("DEALLOCATE hot");
            }
        }
        return problems;
    }

    private String read(String file) throws IOException {
        return Files.readString(root.resolve(SQL_DIR).resolve(file));
    }

    private static String fill(String sql, Map<String, String> values, String dimensions) {
        String out = sql.replace("{dimensions}", dimensions);
        for (Map.Entry<String, String> e : values.entrySet()) {
            out = out.replace("{" + e.getKey() + "}", e.getValue());
        }
        return out;
    }

    private static void print(JsonNode node, int depth) {
        StringBuilder line = new StringBuilder("  ".repeat(depth)).append(node.path("Node Type").asText());
        if (node.has("CTE Name")) {
            line.append(" of ").append(node.path("CTE Name").asText());
        }
        if (node.has("Relation Name")) {
            line.append(" on ").append(node.path("Relation Name").asText());
        }
        if (node.has("Index Name")) {
            line.append(" using ").append(node.path("Index Name").asText());
        }
        for (String cond : List.of("Index Cond", "Recheck Cond")) {
            if (node.has(cond)) {
                line.append(" [").append(cond).append(": ").append(node.path(cond).asText()).append(']');
            }
        }
        System.out.println(line);
        node.path("Plans").forEach(child -> print(child, depth + 1));
    }

    private static List<String> sequentialFactScans(String query, JsonNode node) {
        List<String> out = new ArrayList<>();
        String relation = node.path("Relation Name").asText();
        if (node.path("Node Type").asText().equals("Seq Scan") && isFact(relation)) {
            out.add(query + " reads " + relation + " by a sequential scan");
        }
        node.path("Plans").forEach(child -> out.addAll(sequentialFactScans(query, child)));
        return out;
    }

    private static boolean isFact(String relation) {
        return FACT_TABLES.contains(relation) || relation.startsWith("usage_minute_") || relation.endsWith("_fact");
    }
}
