package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import java.util.Optional;

/**
 * Triage: from a pod, Kueue workload, pod group, node or inference service to its symptom, the layer and cause the
 * diagnosis tree reached, the facts that decided it (each with the command that shows it), the causes ruled out, the
 * changes before it and the runbook's fix — alert-service's answer, asked with the viewer's own token, so a tenant
 * triages only its own subjects and sees no other tenant's names (alert-service redacts them).
 */
@Path("/triage")
@Produces(MediaType.TEXT_HTML)
public class TriageResource {

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template triage;

    public TriageResource(Session session, Upstream upstream, ObjectMapper json, @Location("triage.html") Template triage) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.triage = triage;
    }

    @GET
    @Blocking
    public TemplateInstance triage(@CookieParam(Session.COOKIE) String cookie, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Triage", "triage", viewer);
        Optional<TriageSubject> subject = TriageSubject.read(name -> uri.getQueryParameters().getFirst(name), page);
        TriageView view = null;
        if (subject.isPresent()) {
            Answer answer = upstream.getJson(Backend.ALERT, "/api/v1/triage?" + subject.get().query(), viewer.token()).join();
            page.call(answer.call());
            if (!answer.ok()) {
                page.message(answer.refusal());
            } else {
                view = TriageView.of(answer.as(json, TriageAnswer.class));
                ChartOption axis = EvidenceAxis.option(view);
                if (axis != null) {
                    page.charts.add(Chart.of("evidence-chart", "The evidence in time", axis, json));
                }
            }
        } else if (!page.refused()) {
            page.message(Message.info("Pick what to triage.", "Name a pod, Kueue workload, pod group or inference service with its "
                    + "namespace, or a node; the Queues, Failures and Jitter pages link here too."));
        }
        return draw(triage, page, subject.orElse(null), view);
    }

    /** The triage page's data, shared with the review page that draws a triage as frozen. */
    static TemplateInstance draw(Template template, Page page, TriageSubject subject, TriageView view) {
        return template.data("page", page).data("subject", subject).data("kinds", TriageSubject.KINDS).data("triage", view)
                .data("form", subject != null ? subject : new TriageSubject("pod", null, null, null, null))
                .data("chartHeight", view == null ? 0 : EvidenceAxis.height(view));
    }
}
