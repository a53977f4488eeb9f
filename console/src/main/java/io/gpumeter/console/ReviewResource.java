package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.net.URI;

/**
 * An incident's review, the page after the incident: the incident, the cause as decided, the summary, the prevention
 * items (each downloadable as what the team applies) and the triage frozen when it was recorded; before a review, the
 * incident's triage as it stands. Operators and admins record it with the form (alert-service decides who may; the
 * form only shows to those it would accept). Reached from an incident on the Failures page.
 */
@Path("/failures/incidents/{id}/review")
public class ReviewResource {

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final ReviewReads reads;
    private final Template review;

    public ReviewResource(Session session, Upstream upstream, ObjectMapper json, ReviewReads reads,
                          @Location("review.html") Template review) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.reads = reads;
        this.review = review;
    }

    @GET
    @Blocking
    @Produces(MediaType.TEXT_HTML)
    public TemplateInstance show(@CookieParam(Session.COOKIE) String cookie, @PathParam("id") String id, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Incident review", "failures", viewer);
        ReviewReads.Read read = reads.read(id, viewer, page);
        return draw(page, id, read, ReviewForm.of(read.review(), read.triageNow(), json));
    }

    /** Records the review, then shows it (a reload asks again instead of posting twice). */
    @POST
    @Blocking
    @Consumes(MediaType.APPLICATION_FORM_URLENCODED)
    @Produces(MediaType.TEXT_HTML)
    public Response record(@CookieParam(Session.COOKIE) String cookie, @PathParam("id") String id,
                           MultivaluedMap<String, String> fields, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Incident review", "failures", viewer);
        ReviewForm form = ReviewForm.read(fields);
        String body = form.problems().isEmpty() ? form.body(json) : null;
        if (body != null) {
            Answer answer = upstream.postJson(Backend.ALERT, ReviewReads.path(id), body, viewer.token()).join();
            page.call(answer.call());
            // 201 a new version, 200 the same decision sent again: either way it is recorded
            if (answer.status() >= 200 && answer.status() < 300) {
                return Response.seeOther(URI.create("/failures/incidents/" + Format.segment(id) + "/review")).build();
            }
            page.message(answer.refusal());
        } else {
            page.message(Message.error("The review is not complete", String.join(" ", form.problems()),
                    "Fill in the fields named and record it again."));
        }
        ReviewReads.Read read = reads.read(id, viewer, page);
        return Response.status(Response.Status.BAD_REQUEST).entity(draw(page, id, read, form)).type(MediaType.TEXT_HTML).build();
    }

    /** The review as alert-service writes it in Markdown, downloaded through the console with the viewer's token. */
    @GET
    @Path("markdown")
    @Blocking
    public Response markdown(@CookieParam(Session.COOKIE) String cookie, @PathParam("id") String id, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        return file(upstream.download(Backend.ALERT, ReviewReads.path(id) + "?format=markdown", viewer.token()).join(),
                "incident-" + id.replaceAll("[^A-Za-z0-9_-]", "_") + "-review.md");
    }

    /** Prevention item {@code n} as what the team applies (a PrometheusRule, admission objects, a plan, a bundle). */
    @GET
    @Path("items/{n}")
    @Blocking
    public Response item(@CookieParam(Session.COOKIE) String cookie, @PathParam("id") String id, @PathParam("n") int n,
                         @QueryParam("version") Integer version, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        return file(upstream.download(Backend.ALERT, ReviewReads.path(id) + "/items/" + n + (version == null ? "" : "?version=" + version),
                viewer.token()).join(), "incident-" + id.replaceAll("[^A-Za-z0-9_-]", "_") + "-item-" + n);
    }

    /** The service's file as it answered it, an attachment under its own name (else {@code name}); its refusal in words. */
    private static Response file(Upstream.Download d, String name) {
        if (d.refusal() != null) {
            return Response.status(d.status() > 0 ? d.status() : 502).type("text/plain; charset=UTF-8")
                    .entity(d.refusal().title() + (d.refusal().detail() != null ? ": " + d.refusal().detail() : "")).build();
        }
        String disposition = d.disposition() != null ? d.disposition().replaceFirst("^inline", "attachment")
                : "attachment; filename=\"" + name + "\"";
        return Response.ok(d.body(), d.type()).header("Content-Disposition", disposition).build();
    }

    private TemplateInstance draw(Page page, String id, ReviewReads.Read read, ReviewForm form) {
        TriageView triage = read.review() != null ? read.frozen() : read.triageNow();
        if (triage != null) {
            var axis = EvidenceAxis.option(triage);
            if (axis != null) {
                page.charts.add(Chart.of("evidence-chart", "The evidence in time", axis, json));
            }
        }
        return review.data("page", page).data("id", id).data("review", read.review()).data("items", read.items()).data("incident", read.incident())
                .data("form", form).data("triage", triage).data("frozen", read.review() != null)
                .data("chartHeight", triage == null ? 0 : EvidenceAxis.height(triage)).data("classes", ReviewForm.CLASSES)
                .data("markdown", "/failures/incidents/" + Format.segment(id) + "/review/markdown");
    }
}
