package io.gpumeter.slo.rest;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Window;
import io.gpumeter.slo.acceptance.AcceptanceService;
import io.gpumeter.slo.acceptance.Pack;
import io.gpumeter.slo.acceptance.Plan;
import io.gpumeter.slo.acceptance.PlanYaml;
import io.gpumeter.slo.acceptance.VerdictHtml;
import io.gpumeter.slo.acceptance.VerdictMarkdown;
import io.gpumeter.slo.repository.StoredRun;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriBuilder;
import org.eclipse.microprofile.openapi.annotations.Operation;

import java.time.Instant;

/** Acceptance runs: a plan in, the run out; its one-page verdict and its pack of evidence. */
@Path("/api/v1/acceptance/runs")
@Produces(MediaType.APPLICATION_JSON)
public class AcceptanceResource {

    /** A run as listed. */
    @RegisterForReflection
    public record RunSummary(long id, String name, Instant from, Instant to, String verdict, Instant createdAt) {
    }

    private final AcceptanceService acceptance;
    private final ObjectMapper json;

    public AcceptanceResource(AcceptanceService acceptance, ObjectMapper json) {
        this.acceptance = acceptance;
        this.json = json;
    }

    /** The YAML media types a plan may be sent as; every other body is read as JSON. */
    static final String YAML = "application/yaml";

    @POST
    @Consumes({MediaType.APPLICATION_JSON, YAML, "application/x-yaml", "text/yaml"})
    @Operation(summary = "Evaluate an acceptance plan (window, cells, assertions), as JSON or YAML, and store the run:"
            + " 201 with the run")
    public Uni<Response> create(String body, @HeaderParam(HttpHeaders.CONTENT_TYPE) String contentType) {
        JsonNode plan = yaml(contentType) ? PlanYaml.read(body) : json(body);
        Plan parsed = acceptance.validate(plan);
        return acceptance.evaluateAndStore(parsed, plan).map(row -> Response
                .created(UriBuilder.fromPath("/api/v1/acceptance/runs/{id}").build(row.id))
                .entity(acceptance.view(row)).build());
    }

    @GET
    @Operation(summary = "The runs, newest first (paged with limit and offset)")
    public Uni<Page<RunSummary>> list(@QueryParam("limit") String limit, @QueryParam("offset") String offset) {
        Window w = Window.of(limit, offset);
        return acceptance.page(w.offset(), w.whole() ? Integer.MAX_VALUE : w.limit()).map(page -> page.map(r ->
                new RunSummary(r.id, r.name, r.from, r.to, r.verdict, r.createdAt)));
    }

    @GET
    @Path("/{id}")
    @Operation(summary = "A run as computed when its plan was submitted")
    public Uni<ObjectNode> get(@PathParam("id") String id) {
        return found(id).map(acceptance::view);
    }

    @GET
    @Path("/{id}/verdict")
    @Produces({MediaType.TEXT_HTML, "text/markdown"})
    @Operation(summary = "The one-page verdict: format=html (self-contained, one A4 page) or format=markdown")
    public Uni<Response> verdict(@PathParam("id") String id, @QueryParam("format") String format) {
        String f = format == null || format.isBlank() ? "html" : format.strip();
        if (!f.equals("html") && !f.equals("markdown")) {
            throw ApiProblem.badRequest("format", "format must be html or markdown, got '" + format + "'");
        }
        return found(id).map(row -> {
            var run = acceptance.run(row);
            return f.equals("html")
                    ? Response.ok(VerdictHtml.render(row.id, row.createdAt, run), "text/html; charset=utf-8").build()
                    : Response.ok(VerdictMarkdown.render(row.id, row.createdAt, run), "text/markdown; charset=utf-8")
                    .build();
        });
    }

    @GET
    @Path("/{id}/pack")
    @Produces("application/zip")
    @Operation(summary = "The acceptance pack: run, verdict, matrix, commitments, evidence files and SHA256SUMS")
    public Uni<Response> pack(@PathParam("id") String id) {
        return found(id).map(row -> Response.ok(Pack.zip(row, acceptance.run(row), acceptance.view(row), json),
                        "application/zip")
                .header("Content-Disposition", "attachment; filename=\"acceptance-run-" + row.id + ".zip\"").build());
    }

    private JsonNode json(String body) {
        try {
            return json.readTree(body == null ? "" : body);
        } catch (JsonProcessingException e) {
            throw ApiProblem.badRequest("plan", "the body is not JSON (line " + e.getLocation().getLineNr()
                    + ", column " + e.getLocation().getColumnNr() + ")");
        }
    }

    private static boolean yaml(String contentType) {
        String type = contentType == null ? "" : contentType.toLowerCase(java.util.Locale.ROOT);
        return type.startsWith(YAML) || type.startsWith("application/x-yaml") || type.startsWith("text/yaml");
    }

    private Uni<StoredRun> found(String id) {
        long parsed;
        try {
            parsed = Long.parseLong(id);
        } catch (NumberFormatException e) {
            throw ApiProblem.notFound("id", "there is no acceptance run " + id);
        }
        return acceptance.get(parsed).map(row -> {
            if (row == null) {
                throw ApiProblem.notFound("id", "there is no acceptance run " + id);
            }
            return row;
        });
    }
}
