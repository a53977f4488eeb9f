package io.gpumeter.alert.rest;

import io.gpumeter.alert.domain.RunbookEntry;
import io.gpumeter.alert.domain.RunbookMarkdown;
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
 * The runbook (checklist 10): which action for which alert, as JSON or as Markdown (?format=markdown, or an Accept
 * header that asks for text/markdown or text/html, as a browser following a runbook_url does).
 */
@Path("/api/v1/runbook")
public class RunbookResource {

    static final String MARKDOWN = "text/markdown";

    private final Runbook runbook;

    public RunbookResource(Runbook runbook) {
        this.runbook = runbook;
    }

    @GET
    @Produces({MediaType.APPLICATION_JSON, MARKDOWN, MediaType.TEXT_PLAIN, MediaType.TEXT_HTML})
    public Response get(@QueryParam("format") String format, @HeaderParam(HttpHeaders.ACCEPT) String accept) {
        List<RunbookEntry> entries = runbook.entries();
        if (markdown(format, accept)) {
            return Response.ok(RunbookMarkdown.render(entries), MARKDOWN + ";charset=UTF-8").build();
        }
        return Response.ok(entries, MediaType.APPLICATION_JSON).build();
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
