package io.gpumeter.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.tomakehurst.wiremock.stubbing.ServeEvent;
import io.gpumeter.common.testing.TestTokens;
import io.gpumeter.mcp.tools.ReadTool;
import io.gpumeter.mcp.tools.ToolArg;
import io.gpumeter.mcp.tools.ToolCatalogue;
import io.modelcontextprotocol.spec.McpError;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static com.github.tomakehurst.wiremock.client.WireMock.any;
import static com.github.tomakehurst.wiremock.client.WireMock.anyUrl;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Generated tool calls of every tenant token with other tenants' names in every argument that names something: each
 * call that reaches a service carries a token of the caller's one tenant — so the service's own tenant filter cuts
 * the answer — and never the caller's token nor a fleet role; a fleet tool reaches no service at all. The suite-wide
 * judgement of the answers is the end-to-end {@code McpTenantEscapeTest}.
 */
@QuarkusTest
@QuarkusTestResource(StandInServices.class)
class DelegatedCallsEscapeTest {

    private static final List<String> TENANTS = List.of("acme", "initech", "hooli");

    @TestHTTPResource("/")
    URL base;

    /** Names of {@code other}'s things, in the spellings an argument could take them. */
    static List<String> foreignNames(String other) {
        return List.of(other, other + "-ml", other + "-ml/" + other + "-train-0", other + "-train-0",
                "GPU-" + other.toUpperCase(), other + "-ml/" + other + "-chat");
    }

    /** Every call a hostile {@code tenant} would try of {@code tool}: each naming argument given each foreign name. */
    static List<Map<String, Object>> calls(ReadTool tool, String tenant) {
        Map<String, Object> required = new LinkedHashMap<>();
        for (ToolArg arg : tool.args()) {
            if (arg.required()) {
                required.put(arg.name(), valid(arg, tenant));
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(required);
        for (ToolArg arg : tool.args()) {
            if (!arg.names()) {
                continue;
            }
            for (String other : TENANTS) {
                if (other.equals(tenant)) {
                    continue;
                }
                for (String name : foreignNames(other)) {
                    Map<String, Object> call = new HashMap<>(required);
                    call.put(arg.name(), name);
                    out.add(call);
                }
            }
        }
        return out;
    }

    private static Object valid(ToolArg arg, String tenant) {
        return switch (arg.kind()) {
            case INSTANT -> arg.name().equals("to") ? "2026-11-03T00:00:00Z" : "2026-11-02T00:00:00Z";
            case MONTH -> "2026-11";
            case DAYS -> "30d";
            case FLAG -> true;
            case CHOICE, CHOICES -> arg.choices().get(0);
            case NAME -> arg.name().equals("uuid") ? "GPU-ESCAPE-1" : tenant + "-ml";
        };
    }

    @Test
    void everyCallThatReachesAServiceCarriesTheCallersOneTenantOnly() {
        int calls = 0;
        for (String tenant : TENANTS) {
            String bearer = TestTokens.bearer("tenant:" + tenant);
            try (Assistant assistant = Assistant.connect(base.toString(), bearer)) {
                List<String> shown = assistant.toolNames();
                for (ReadTool tool : ToolCatalogue.TOOLS) {
                    for (Map<String, Object> args : calls(tool, tenant)) {
                        StandInServices.services.reset();
                        StandInServices.services.answer(any(anyUrl()), "[]");
                        calls++;
                        if (!shown.contains(tool.name())) {
                            assertThrows(McpError.class, () -> assistant.call(tool.name(), args), tool.name());
                            assertEquals(0, StandInServices.services.server().getAllServeEvents().size(),
                                    tool.name() + " asked a service for a tenant");
                            continue;
                        }
                        assistant.call(tool.name(), args);
                        List<ServeEvent> sent = StandInServices.services.server().getAllServeEvents();
                        for (ServeEvent event : sent) {
                            assertTrue(!event.getRequest().getHeader("Authorization").equals(bearer), "the caller's token was passed on");
                            JsonNode claims = Delegation.claims(event.getRequest());
                            assertEquals(List.of("tenant:" + tenant), Delegation.groups(claims),
                                    tool.name() + " " + args + " -> " + event.getRequest().getUrl());
                        }
                    }
                }
            }
        }
        assertTrue(calls > 150, "the generator tried " + calls + " calls");
    }
}
