package io.gpumeter.alert.rest;

import io.gpumeter.alert.domain.CauseEntry;
import io.gpumeter.alert.domain.RunbookEntry;
import io.gpumeter.alert.domain.RunbookMarkdown;
import io.gpumeter.alert.service.CauseRunbook;
import io.gpumeter.alert.service.Runbook;
import io.gpumeter.common.problem.ApiProblem;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

import java.util.List;
import java.util.Locale;

/**
 * The runbook (checklist 10): which action for which alert, and what to do for each cause a triage names, as JSON or
 * as Markdown (?format=markdown, or an Accept header that asks for text/markdown or text/html, as a browser following
 * a runbook_url does). JSON answers one section, the alerts unless {@code section=causes}; Markdown both unless one
 * is asked for.
 */
@Path("/api/v1/runbook")
public class RunbookResource {

    static final String MARKDOWN = "text/markdown";

    private final Runbook runbook;
    private final CauseRunbook causes;

    public RunbookResource(Runbook runbook, CauseRunbook causes) {
        this.runbook = runbook;
        this.causes = causes;
    }

    @GET
    @Produces({MediaType.APPLICATION_JSON, MARKDOWN, MediaType.TEXT_PLAIN, MediaType.TEXT_HTML})
    public Response get(@QueryParam("format") String format, @QueryParam("section") String section,
                        @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        String only = section(section);
        List<RunbookEntry> alerts = "causes".equals(only) ? List.of() : runbook.entries();
        List<CauseEntry> byCause = "alerts".equals(only) ? List.of() : causes.entries();
        if (markdown(format, accept)) {
            return Response.ok(RunbookMarkdown.render(alerts, byCause), MARKDOWN + ";charset=UTF-8").build();
        }
        // one list per answer, the alerts' by default as ever
        return Response.ok("causes".equals(only) ? byCause : alerts, MediaType.APPLICATION_JSON).build();
    }

    private static String section(String section) {
        if (section == null || section.isBlank()) {
            return null;
        }
        String s = section.strip().toLowerCase(Locale.ROOT);
        if (!s.equals("alerts") && !s.equals("causes")) {
            throw ApiProblem.badRequest("section", "section must be alerts or causes, got '" + section + "'");
        }
        return s;
    }

    private static boolean markdown(String format, String accept) {
        if (format != null && !format.isBlank()) {
            return switch (format.strip().toLowerCase(Locale.ROOT)) {
                case "json" -> false;
                case "markdown", "md" -> true;
                default -> throw ApiProblem.badRequest("format", "format must be json or markdown, got '" + format + "'");
            };
        }
        String a = accept == null ? "" : accept.toLowerCase(Locale.ROOT);
        return !a.contains("application/json") && (a.contains(MARKDOWN) || a.contains("text/html") || a.contains("text/plain"));
    }
}
