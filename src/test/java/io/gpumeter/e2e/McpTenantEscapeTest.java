package io.gpumeter.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tenant-escape matrix of the MCP server, generated from its own tool list (MCP has no OpenAPI document): each
 * tenant's token — acme, initech and hooli share one card — calls every tool it is shown with the others' names in
 * every argument that names something (tenant, namespace, pod, service, node, card), and, beside it, every tool it is
 * not shown. An answer passes as the REST matrix's does ({@link TenantEscapeMatrixTest}): a refusal, or data that
 * names no other tenant anywhere and whose every {@code tenant} field is the caller's (or unknown/unassigned).
 */
@ExtendWith(McpTenantEscapeTest.StartSuite.class)
class McpTenantEscapeTest {

    private static final List<String> TENANTS = List.of("acme", "initech", "hooli");
    /** Arguments that name a tenant's things, and what a hostile caller puts there for {@code other}. */
    private static final Map<String, List<String>> NAMING = new LinkedHashMap<>();

    static {
        NAMING.put("tenant", List.of("%s", "%S", "%s,acme"));
        NAMING.put("namespace", List.of("%s-ml"));
        NAMING.put("pod", List.of("%s-train-0", "%s-ml/%s-train-0"));
        NAMING.put("workload", List.of("%s-ml/%s-train-0"));
        NAMING.put("podGroup", List.of("%s-ml/%s-train-0"));
        NAMING.put("service", List.of("%s-chat", "%s-ml/%s-chat"));
        NAMING.put("node", List.of("escape-node"));
        NAMING.put("uuid", List.of("GPU-ESCAPE-1"));
        NAMING.put("cluster", List.of("escape"));
    }

    static Suite suite;

    static final class StartSuite implements BeforeAllCallback {
        @Override
        public void beforeAll(ExtensionContext context) {
            suite = SuiteExtension.suite(context);
        }
    }

    @BeforeAll
    static void threeTenantsShareACard() {
        // the REST matrix's own fleet: three tenants' pods on GPU-ESCAPE-1, initech's budget and SLO
        TenantEscapeMatrixTest.suite = suite;
        TenantEscapeMatrixTest.threeTenantsShareACard();
    }

    private static Object fill(String pattern, String other) {
        return pattern.replace("%S", other.toUpperCase(Locale.ROOT)).replace("%s", other);
    }

    /** Valid values for the arguments that name nothing, so a call reaches its read. */
    private static Object plain(String name, Map<String, Object> schema) {
        return switch (name) {
            case "from" -> "2026-11-01T00:00:00Z";
            case "to" -> "2026-12-01T00:00:00Z";
            case "at" -> "2026-11-02T12:00:00Z";
            case "month" -> "2026-11";
            case "horizon", "history" -> "7d";
            case "open" -> true;
            default -> schema.containsKey("enum") ? ((List<?>) schema.get("enum")).get(0) : null;
        };
    }

    @Test
    void noTenantReadsAnotherTenantsFactsThroughAnyTool() {
        List<String> failures = new ArrayList<>();
        Map<String, Integer> outcomes = new TreeMap<>();
        for (String tenant : TENANTS) {
            String token = suite.token("mcp-escape", List.of("tenant:" + tenant), Duration.ofHours(1));
            List<String> foreign = new ArrayList<>(List.of("acme", "initech", "hooli", "globex"));
            foreign.remove(tenant);
            try (McpAssistant assistant = McpAssistant.connect(suite.url(Service.MCP), token);
                 McpAssistant fleet = McpAssistant.connect(suite.url(Service.MCP), suite.adminToken())) {
                List<String> shown = assistant.toolNames();
                for (McpSchema.Tool tool : fleet.client().listTools().tools()) {
                    for (Map<String, Object> args : calls(tool, tenant)) {
                        String outcome;
                        try {
                            McpSchema.CallToolResult result = assistant.call(tool.name(), args);
                            outcome = Boolean.TRUE.equals(result.isError()) ? "refused"
                                    : judge(McpAssistant.parse(McpAssistant.text(result)).path("data"), tenant, foreign);
                        } catch (McpError e) {
                            outcome = shown.contains(tool.name()) ? "a protocol error: " + e.getMessage() : "not shown";
                        }
                        outcomes.merge(outcome.startsWith("escape") ? "escape" : outcome, 1, Integer::sum);
                        if (outcome.startsWith("escape") || outcome.startsWith("a protocol")) {
                            failures.add(tenant + " " + tool.name() + " " + args + ": " + outcome);
                        }
                    }
                }
                assertTrue(!shown.contains("idle") && shown.contains("gpu_hours"), tenant + " is shown " + shown);
            }
        }
        System.out.printf("MCP tenant escape matrix: %s%n", outcomes);
        assertTrue(outcomes.getOrDefault("answered", 0) > 20, "calls that reached a read: " + outcomes);
        assertEquals(List.of(), failures.subList(0, Math.min(20, failures.size())), failures.size() + " escapes");
    }

    /** The calls a hostile {@code tenant} makes of a tool: the plain one, then each naming argument with each other tenant's names. */
    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> calls(McpSchema.Tool tool, String tenant) {
        Map<String, Map<String, Object>> properties = (Map<String, Map<String, Object>>) tool.inputSchema().get("properties");
        List<String> required = (List<String>) tool.inputSchema().getOrDefault("required", List.of());
        Map<String, Object> base = new HashMap<>();
        for (Map.Entry<String, Map<String, Object>> p : properties.entrySet()) {
            Object value = plain(p.getKey(), p.getValue());
            if (value != null && (required.contains(p.getKey()) || List.of("from", "to", "at").contains(p.getKey()))) {
                base.put(p.getKey(), value);
            }
        }
        for (String name : required) {
            base.putIfAbsent(name, NAMING.containsKey(name) ? fill(NAMING.get(name).get(0), tenant) : "x");
        }
        List<Map<String, Object>> out = new ArrayList<>();
        out.add(base);
        for (String name : properties.keySet()) {
            if (!NAMING.containsKey(name)) {
                continue;
            }
            for (String other : TENANTS) {
                if (other.equals(tenant)) {
                    continue;
                }
                for (String pattern : NAMING.get(name)) {
                    Map<String, Object> call = new HashMap<>(base);
                    call.put(name, fill(pattern, other));
                    out.add(call);
                }
            }
        }
        return out;
    }

    /** "answered" when the data keeps to the caller's own rows, else what escaped — the REST matrix's rule. */
    private static String judge(JsonNode data, String own, List<String> foreign) {
        String text = data.toString().toLowerCase(Locale.ROOT);
        for (String other : foreign) {
            if (text.contains(other)) {
                return "escape: names " + other + ": " + abbreviate(text);
            }
        }
        String field = foreignTenantField(data, own);
        return field == null ? "answered" : "escape: a row of tenant " + field;
    }

    private static String foreignTenantField(JsonNode node, String own) {
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> fields = node.fields();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                if (f.getKey().equalsIgnoreCase("tenant") && f.getValue().isTextual()
                        && !List.of(own, "unknown", "unassigned").contains(f.getValue().asText())) {
                    return f.getValue().asText();
                }
                String inner = foreignTenantField(f.getValue(), own);
                if (inner != null) {
                    return inner;
                }
            }
        } else if (node.isArray()) {
            for (JsonNode item : node) {
                String inner = foreignTenantField(item, own);
                if (inner != null) {
                    return inner;
                }
            }
        }
        return null;
    }

    private static String abbreviate(String text) {
        return text.length() > 300 ? text.substring(0, 300) + "…" : text;
    }
}
