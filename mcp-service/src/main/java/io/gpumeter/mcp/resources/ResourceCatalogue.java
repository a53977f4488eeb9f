package io.gpumeter.mcp.resources;

import io.gpumeter.mcp.tools.ArgKind;
import io.gpumeter.mcp.tools.Backend;

import java.util.List;

/** The documents served whole as MCP resources: billing's monthly CSV and an acceptance run's verdict. */
public final class ResourceCatalogue {

    public static final List<ReadResource> RESOURCES = List.of(
            new ReadResource("monthly_report", "Monthly cost report (CSV)",
                    "A month's cost report per tenant as billing serves it for FinOps: allocated, used and idle "
                            + "GPU-hours and cost per line, the rate card's version on every row. A tenant's token "
                            + "gets its own lines.",
                    "gpumeter://billing/reports/monthly/{month}.csv", "text/csv", Backend.BILLING,
                    "/api/v1/reports/monthly?month={month}&format=csv", "month", ArgKind.MONTH),
            new ReadResource("acceptance_verdict", "Acceptance run verdict (Markdown)",
                    "The one-page verdict of an acceptance run: pass or fail per assertion, risks and recommended "
                            + "actions, with its evidence.",
                    "gpumeter://slo/acceptance/runs/{id}/verdict.md", "text/markdown", Backend.SLO,
                    "/api/v1/acceptance/runs/{id}/verdict?format=markdown", "id", ArgKind.NAME));

    private ResourceCatalogue() {
    }
}
