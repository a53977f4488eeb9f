package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.launcher.demo.Demo;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.suite.Service;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The demo fleet through its MCP server, as an assistant reaches it: the SDK's client lists the tools, calls each one
 * on the demo, and every answer carries the first rows of the REST read its URL names — the same figures — and its
 * count; a tenant's token is shown only the tools of reads cut to its own rows, and gets its own rows from them.
 */
@ExtendWith(DemoSuite.Start.class)
@Order(DemoSuite.ORDER)
class McpDemoEndToEndTest {

    /** The rows per answer the MCP server carries by default (gpumeter.mcp.rows). */
    private static final int ROWS = 20;

    static DemoSuite demo;
    static String start;
    static String end;
    static String dayBefore;
    static String at;

    @BeforeAll
    static void readTheDemo() {
        demo = DemoSuite.started();
        Plan plan = demo.plan;
        start = Rfc3339.format(plan.start());
        end = Rfc3339.format(plan.end());
        dayBefore = Rfc3339.format(plan.end().minus(Duration.ofDays(1)));
        at = Rfc3339.format(plan.end().minus(Duration.ofHours(1)));
    }

    private static McpAssistant as(String token) {
        return McpAssistant.connect(demo.suite.url(Service.MCP), token);
    }

    @Test
    void everyToolAnswersTheFirstRowsOfItsRestReadWithTheSameFigures() {
        String admin = demo.suite.adminToken();
        try (McpAssistant assistant = as(admin)) {
            assertEquals(16, assistant.toolNames().size(), assistant.toolNames().toString());
            JsonNode fleet = assistant.answer("fleet_occupants", Map.of("at", at));
            sameAsRest("fleet_occupants", fleet, "", admin);
            JsonNode held = fleet.path("data").path("rows").get(0);
            assertTrue(held != null && held.hasNonNull("gpuUuid"), "the demo's fleet is occupied at " + at + ": " + fleet);

            Map<String, Map<String, Object>> calls = new LinkedHashMap<>();
            calls.put("who_holds", Map.of("uuid", held.path("gpuUuid").asText(), "at", at));
            calls.put("tenant_workloads", Map.of("tenant", held.path("tenant").asText(), "at", at));
            calls.put("gpu_hours", Map.of("from", dayBefore, "to", end, "groupBy", "tenant,model"));
            calls.put("idle", Map.of("from", dayBefore, "to", end, "groupBy", "tenant"));
            calls.put("jitter_events", Map.of("from", start, "to", end));
            calls.put("slo_states", Map.of("from", dayBefore, "to", end));
            calls.put("queue_wait", Map.of("from", start, "to", end, "groupBy", "tenant"));
            calls.put("pending_now", Map.of("at", at));
            calls.put("failures", Map.of("from", start, "to", end));
            calls.put("incidents", Map.of("from", start, "to", end));
            calls.put("cost_report", Map.of("from", dayBefore, "to", end));
            calls.put("budget_forecasts", Map.of("at", end));
            calls.put("capacity_plan", Map.of("horizon", "30d", "history", "7d", "at", end));
            calls.put("changes", Map.of("from", start, "to", end, "cluster", Demo.CLUSTER));
            calls.put("triage", Map.of("namespace", held.path("namespace").asText(), "pod", held.path("pod").asText(),
                    "cluster", Demo.CLUSTER, "at", at));
            Map<String, String> rowsAt = Map.of("idle", "rows", "cost_report", "lines", "capacity_plan", "models", "triage", "-");
            Map<String, Integer> shown = new java.util.TreeMap<>();
            for (Map.Entry<String, Map<String, Object>> call : calls.entrySet()) {
                JsonNode answer = assistant.answer(call.getKey(), call.getValue());
                sameAsRest(call.getKey(), answer, rowsAt.getOrDefault(call.getKey(), ""), admin);
                shown.put(call.getKey(), answer.path("data").path("rows").size());
            }
            System.out.println("MCP tools on the demo, rows shown: " + shown);
            // the demo holds something for each of these, so the comparisons above compared figures, not empty lists
            for (String tool : List.of("who_holds", "gpu_hours", "idle", "jitter_events", "slo_states", "queue_wait",
                    "failures", "incidents", "cost_report", "budget_forecasts", "capacity_plan", "changes")) {
                assertTrue(shown.get(tool) > 0, tool + " answered no rows on the demo: " + shown);
            }
        }
    }

    /** The answer's rows are the first rows of the REST read at its URL, read with the caller's own token. */
    private static void sameAsRest(String tool, JsonNode answer, String rowsAt, String token) {
        HttpResponse<String> rest = McpAssistant.rest(answer.path("url").asText(), token);
        assertEquals(200, rest.statusCode(), tool + " " + answer.path("url").asText() + ": " + rest.body());
        JsonNode whole = McpAssistant.parse(rest.body());
        if (rowsAt.equals("-")) {
            assertEquals(whole, answer.path("data").path("answer"), tool + ": the one answer, as the REST read's");
            return;
        }
        JsonNode list = rowsAt.isEmpty() ? whole : whole.path(rowsAt);
        JsonNode rows = answer.path("data").path("rows");
        assertEquals(Math.min(ROWS, list.size()), rows.size(), tool + ": rows shown");
        assertEquals(list.size(), answer.path("total").asInt(), tool + ": the whole list's count");
        for (int i = 0; i < rows.size(); i++) {
            assertEquals(list.get(i), rows.get(i), tool + " row " + i);
        }
        assertFalse(answer.path("summary").asText().isEmpty(), tool);
    }

    @Test
    void aTenantIsShownTheToolsOfItsOwnRowsAndReadsItsOwnRowsThroughThem() {
        JsonNode fleet;
        try (McpAssistant admin = as(demo.suite.adminToken())) {
            fleet = admin.answer("fleet_occupants", Map.of("at", at));
        }
        String tenant = fleet.path("data").path("rows").get(0).path("tenant").asText();
        String token = demo.suite.token("mcp-e2e", List.of("tenant:" + tenant), Duration.ofHours(1));
        try (McpAssistant own = as(token)) {
            assertEquals(List.of("cost_report", "fleet_occupants", "gpu_hours", "slo_states", "tenant_workloads", "triage",
                    "who_holds"), own.toolNames());
            JsonNode hours = own.answer("gpu_hours", Map.of("from", dayBefore, "to", end, "groupBy", "tenant"));
            assertTrue(hours.path("total").asInt() >= 1, hours.toString());
            hours.path("data").path("rows").forEach(row -> assertEquals(tenant, row.path("group").path("tenant").asText(), row.toString()));
            sameAsRest("gpu_hours as " + tenant, hours, "", token);
        }
    }
}
