package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** A statement's plan as PostgreSQL chooses it for the given parameters ({@code EXPLAIN (FORMAT JSON)}), node by node. */
final class PlanNodes {

    private static final ObjectMapper JSON = new ObjectMapper();

    private PlanNodes() {
    }

    static JsonNode plan(Pool pool, String sql, Tuple parameters) throws IOException {
        Object value = pool.preparedQuery("EXPLAIN (FORMAT JSON) " + sql).execute(parameters)
                .await().atMost(Duration.ofSeconds(30)).iterator().next().getValue(0);
        return JSON.readTree(String.valueOf(value)).get(0).get("Plan");
    }

    /** Every node of the plan, the root first. */
    static List<JsonNode> nodes(JsonNode plan) {
        List<JsonNode> out = new ArrayList<>();
        collect(plan, out);
        return out;
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        out.add(node);
        node.path("Plans").forEach(child -> collect(child, out));
    }
}
