package io.gpumeter.mcp;

import io.gpumeter.common.testing.TestTokens;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The tools and resource templates each role is shown, as the access table opens their REST reads. */
@QuarkusTest
@QuarkusTestResource(StandInServices.class)
class ToolListTest {

    static final List<String> EVERY_TOOL = List.of("budget_forecasts", "capacity_plan", "changes", "cost_report",
            "failures", "fleet_occupants", "gpu_hours", "idle", "incidents", "jitter_events", "pending_now",
            "queue_wait", "slo_states", "tenant_workloads", "triage", "who_holds");
    /** The reads the access table opens to tenants, each cut to the tenant's own rows. */
    static final List<String> TENANT_TOOLS = List.of("cost_report", "fleet_occupants", "gpu_hours", "slo_states",
            "tenant_workloads", "triage", "who_holds");

    @TestHTTPResource("/")
    URL base;

    private Assistant as(String bearer) {
        return Assistant.connect(base.toString(), bearer);
    }

    @Test
    void aFleetTokenSeesEveryToolReadOnlyWithItsArgumentsSchemad() {
        for (String role : List.of("admin", "operator", "reader")) {
            try (Assistant assistant = as(TestTokens.bearer(role))) {
                assertEquals(EVERY_TOOL, assistant.toolNames(), role);
            }
        }
        try (Assistant service = as(TestTokens.serviceBearer("mcp"))) {
            McpSchema.ListToolsResult tools = service.tools();
            assertEquals(EVERY_TOOL.size(), tools.tools().size());
            McpSchema.Tool hours = tools.tools().stream().filter(t -> t.name().equals("gpu_hours")).findFirst().orElseThrow();
            assertEquals(Boolean.TRUE, hours.annotations().readOnlyHint());
            assertEquals(List.of("from", "to"), hours.inputSchema().get("required"));
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> properties = (Map<String, Map<String, Object>>) hours.inputSchema().get("properties");
            assertEquals("date-time", properties.get("from").get("format"));
            assertEquals(List.of("from", "to", "groupBy", "timeZone", "tenant"), List.copyOf(properties.keySet()));
            assertTrue(hours.description().contains("GPU-hours"), hours.description());
        }
    }

    @Test
    void aTenantTokenSeesOnlyTheToolsOfReadsCutToItsOwnRows() {
        try (Assistant tenant = as(TestTokens.bearer("tenant:acme"))) {
            assertEquals(TENANT_TOOLS, tenant.toolNames());
            assertEquals(List.of("monthly_report"), tenant.client().listResourceTemplates().resourceTemplates().stream()
                    .map(McpSchema.ResourceTemplate::name).toList());
        }
        // a fleet role beside a tenant group reads the fleet, as at every service
        try (Assistant both = as(TestTokens.bearer("reader", "tenant:acme"))) {
            assertEquals(EVERY_TOOL, both.toolNames());
            assertEquals(List.of("acceptance_verdict", "monthly_report"), both.client().listResourceTemplates()
                    .resourceTemplates().stream().map(McpSchema.ResourceTemplate::name).sorted().toList());
        }
    }

    @Test
    void aTenantCallingAFleetToolByNameIsRefusedAndNoServiceIsAsked() {
        StandInServices.services.reset();
        try (Assistant tenant = as(TestTokens.bearer("tenant:acme"))) {
            // a tool the caller is not shown does not exist for it: the protocol's own error for an unknown tool
            McpError unknown = assertThrows(McpError.class, () -> tenant.call("idle",
                    Map.of("from", "2026-11-02T00:00:00Z", "to", "2026-11-03T00:00:00Z")));
            assertTrue(unknown.getMessage().contains("Invalid tool name: idle"), unknown.getMessage());
        }
        assertEquals(0, StandInServices.services.server().getAllServeEvents().size());
    }
}
