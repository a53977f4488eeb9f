package io.gpumeter.mcp;

import io.gpumeter.common.security.Caller;
import io.gpumeter.mcp.auth.McpCaller;
import io.gpumeter.mcp.reads.DelegatedTokens;
import io.gpumeter.mcp.resources.ReadResource;
import io.gpumeter.mcp.resources.ResourceCatalogue;
import io.gpumeter.mcp.tools.ReadTool;
import io.gpumeter.mcp.tools.ToolAccess;
import io.gpumeter.mcp.tools.ToolCatalogue;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The rights a call carries are exactly the caller's for every read a tool or resource makes: the projection to
 * {@code reader} or the one tenant opens no read the caller's own token would not, and closes none it would.
 */
class DelegatedRightsTest {

    private static final List<List<String>> CALLERS = List.of(List.of("admin"), List.of("operator"), List.of("reader"),
            List.of("service"), List.of("tenant:acme"), List.of("reader", "tenant:acme"), List.of("admin", "tenant:acme"));

    @Test
    void everyToolsReadIsOpenToTheCallExactlyWhenItIsOpenToTheCaller() {
        for (List<String> groups : CALLERS) {
            McpCaller caller = new McpCaller("someone", Caller.of(groups), Instant.EPOCH);
            Caller call = Caller.of(DelegatedTokens.groups(caller));
            assertEquals(caller.caller().confinedTo(), call.confinedTo(), groups + " reads the same tenant");
            for (ReadTool tool : ToolCatalogue.TOOLS) {
                assertEquals(ToolAccess.open(tool, caller), call.mayCall("GET", tool.pathPattern()), groups + " " + tool.name());
            }
            for (ReadResource resource : ResourceCatalogue.RESOURCES) {
                assertEquals(caller.caller().mayCall("GET", resource.pathPattern()), call.mayCall("GET", resource.pathPattern()),
                        groups + " " + resource.name());
            }
        }
    }

    @Test
    void aCallMayReadButNeverWrite() {
        for (List<String> groups : CALLERS) {
            Caller call = Caller.of(DelegatedTokens.groups(new McpCaller("someone", Caller.of(groups), Instant.EPOCH)));
            for (String write : List.of("/api/v1/reports/monthly/2026-11/close", "/api/v1/rate-cards", "/api/v1/slos",
                    "/api/v1/acceptance/runs", "/api/v1/facts", "/api/v1/ingest/kubernetes")) {
                assertEquals(false, call.mayCall("POST", write), groups + " POST " + write);
            }
        }
    }
}
