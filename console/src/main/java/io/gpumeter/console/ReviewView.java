package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.util.ArrayList;
import java.util.List;

/**
 * An incident's review as alert-service serves it ({@code GET /api/v1/failures/incidents/{id}/review}): the root-cause
 * class and cause as decided, by whom and when, the summary, the prevention items, and what was frozen with it — the
 * ledger's incident and the triage (drawn as the Triage page draws a live one), or why there is none.
 *
 * @param version  this version's number; {@code versions} how many the review has
 * @param triage   null when no service could triage the incident's subject; {@code triageNote} says why
 * @param incident null when the review kept none
 */
@TemplateData
public record ReviewView(String incidentId, int version, int versions, String reviewer, String reviewedAt,
                         String rootCauseClass, String cause, String summary, List<PreventionView> items, JsonNode prevention,
                         IncidentFacts incident, TriageView triage, String triageNote, String inputsNote) {

    static ReviewView of(String id, JsonNode r) {
        int version = r.path("version").asInt(0);
        List<PreventionView> items = new ArrayList<>();
        r.path("prevention").forEach(i -> items.add(PreventionView.of(i, id, version)));
        JsonNode frozen = r.path("triage");
        JsonNode incident = r.path("incident");
        return new ReviewView(id, version, r.path("versions").asInt(version), Format.text(r, "reviewer"), Format.text(r, "reviewedAt"),
                Format.text(r, "rootCauseClass"), Format.text(r, "cause"), Format.text(r, "summary"), items, r.path("prevention"),
                incident.isObject() ? IncidentFacts.of(incident) : null, frozen.isObject() ? TriageView.of(frozen) : null,
                Format.text(r, "triageNote"), r.path("inputs").isObject() ? Format.text(r.path("inputs"), "note") : null);
    }
}
