package io.gpumeter.mcp;

import com.github.tomakehurst.wiremock.client.WireMock;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.TestTokens;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.util.List;

import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The monthly CSV and an acceptance run's verdict as resources, read with the caller's rights as the tools are. */
@QuarkusTest
@QuarkusTestResource(StandInServices.class)
class ResourcesTest {

    private static final String CSV = "tenant,model,allocated_gpu_hours,allocated_cost\nacme,NVIDIA-H100-80GB-HBM3,12.5,51.25\n";

    @TestHTTPResource("/")
    URL base;

    @BeforeEach
    void reset() {
        StandInServices.services.reset();
        StandInServices.services.answer(get(urlPathEqualTo("/api/v1/reports/monthly")),
                WireMock.aResponse().withStatus(200).withHeader("Content-Type", "text/csv").withBody(CSV));
        StandInServices.services.answer(get(urlPathEqualTo("/api/v1/acceptance/runs/run-7/verdict")),
                WireMock.aResponse().withStatus(200).withHeader("Content-Type", "text/markdown").withBody("# Verdict: PASS\n"));
    }

    private static String text(McpSchema.ReadResourceResult result) {
        return ((McpSchema.TextResourceContents) result.contents().get(0)).text();
    }

    @Test
    void aTenantReadsItsMonthlyCsvThroughATokenOfItsOwnTenant() {
        try (Assistant acme = Assistant.connect(base.toString(), TestTokens.bearer("tenant:acme"))) {
            McpSchema.ReadResourceResult csv = acme.client().readResource(
                    new McpSchema.ReadResourceRequest("gpumeter://billing/reports/monthly/2026-11.csv"));
            assertEquals(CSV, text(csv));
            assertEquals("text/csv", ((McpSchema.TextResourceContents) csv.contents().get(0)).mimeType());
        }
        LoggedRequest sent = StandInServices.services.calls(getRequestedFor(urlPathEqualTo("/api/v1/reports/monthly"))).get(0);
        assertEquals("2026-11", sent.queryParameter("month").firstValue());
        assertEquals("csv", sent.queryParameter("format").firstValue());
        assertEquals(List.of("tenant:acme"), Delegation.groups(Delegation.claims(sent)));
    }

    @Test
    void aVerdictIsAFleetReadAndAMonthIsChecked() {
        try (Assistant reader = Assistant.connect(base.toString(), TestTokens.bearer("reader"))) {
            assertEquals("# Verdict: PASS\n", text(reader.client().readResource(
                    new McpSchema.ReadResourceRequest("gpumeter://slo/acceptance/runs/run-7/verdict.md"))));
            McpError bad = assertThrows(McpError.class, () -> reader.client().readResource(
                    new McpSchema.ReadResourceRequest("gpumeter://billing/reports/monthly/November.csv")));
            assertTrue(bad.getMessage().contains("Argument 'month'"), bad.getMessage());
        }
        try (Assistant acme = Assistant.connect(base.toString(), TestTokens.bearer("tenant:acme"))) {
            assertThrows(McpError.class, () -> acme.client().readResource(
                    new McpSchema.ReadResourceRequest("gpumeter://slo/acceptance/runs/run-7/verdict.md")));
        }
        assertEquals(1, StandInServices.services.count(getRequestedFor(urlPathEqualTo("/api/v1/acceptance/runs/run-7/verdict"))),
                "the reader's read only");
    }
}
