package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;

/**
 * What the review page reads, with the viewer's token: alert-service's review of the incident and the ledger's
 * incident, side by side; before a review, the incident's triage as it stands (alert-service freezes that one when
 * the review is recorded), so the reviewer decides on what will be kept.
 */
@ApplicationScoped
public class ReviewReads {

    private final Upstream upstream;
    private final ObjectMapper json;

    public ReviewReads(Upstream upstream, ObjectMapper json) {
        this.upstream = upstream;
        this.json = json;
    }

    /**
     * @param review    null when there is none yet or it could not be read (the page says which)
     * @param items     the review's prevention items, each in a line
     * @param frozen    the triage the review froze, null when it kept none
     * @param incident  the review's copy of the incident, else the ledger's; null when neither answered
     * @param triageNow the incident's triage now, read only when there is no review
     */
    record Read(ReviewView review, List<PreventionView> items, TriageView frozen, IncidentFacts incident, TriageView triageNow) {
    }

    static String path(String id) {
        return "/api/v1/failures/incidents/" + Format.segment(id) + "/review";
    }

    Read read(String id, Viewer viewer, Page page) {
        var reviewCall = upstream.getJson(Backend.ALERT, path(id), viewer.token());
        var incidentCall = upstream.getJson(Backend.LEDGER, "/api/v1/failures/incidents/" + Format.segment(id), viewer.token());
        Answer answer = reviewCall.join();
        page.call(answer.call());
        ReviewView review = null;
        if (answer.ok()) {
            review = answer.as(json, ReviewView.class);
        } else if (answer.status() == 404) {
            page.message(Message.info("Incident " + id + " has no review yet.", viewer.reviews()
                    ? "Record one below: the cause as decided, a summary and what prevents the next one; the triage shown is frozen with it."
                    : "An operator or admin records it."));
        } else {
            page.message(answer.refusal());
        }
        Answer incident = incidentCall.join();
        page.call(incident.call());
        if (!incident.ok() && (review == null || review.incident() == null)) {
            page.message(incident.refusal());
        }
        IncidentFacts facts = review != null && review.incident() != null ? review.incident()
                : incident.ok() ? incident.as(json, IncidentFacts.class) : null;
        TriageView now = null;
        TriageSubject subject = review == null && incident.ok() ? TriageLinks.subjectOf(incident.as(json, FailureAnswers.Incident.class)) : null;
        if (subject != null) {
            Answer triage = upstream.getJson(Backend.ALERT, "/api/v1/triage?" + subject.query(), viewer.token()).join();
            page.call(triage.call());
            if (triage.ok()) {
                now = TriageView.of(triage.as(json, TriageAnswer.class));
            } else {
                page.message(triage.refusal());
            }
        }
        return new Read(review, review == null ? List.of() : review.items(id),
                review == null || review.triage() == null ? null : TriageView.of(review.triage()), facts, now);
    }
}
