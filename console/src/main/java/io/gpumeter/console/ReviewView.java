package io.gpumeter.console;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

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
@RegisterForReflection
public record ReviewView(int version, int versions, String reviewer, String reviewedAt, String rootCauseClass, String cause,
                         String summary, List<Item> prevention, IncidentFacts incident, TriageAnswer triage, String triageNote,
                         Inputs inputs) {

    /**
     * A prevention item as alert-service serves it: its kind and the fields it was given (those of its kind only), its
     * number {@code n} with the path of its export, and an alert threshold's expression. An acceptance item's cell,
     * baseline and assertion are alert-service's own free-form objects, passed on as they came.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    @RegisterForReflection
    public record Item(String kind, Integer n, String export, String expr, String alert, String metric,
                       Map<String, String> matchers, String function, String range, String aggregate, List<String> by,
                       String comparison, BigDecimal threshold, @JsonProperty("for") String forDuration, String severity,
                       String description, String policy, String namespace, String resource, String limit,
                       String otherResource, String schedulerName, String action, Map<String, Object> cell,
                       Map<String, Object> baseline, Map<String, Object> assertion, String note) {
    }

    /** What a regression case kept: how many facts, and what the redaction did (or why there are none). */
    @RegisterForReflection
    public record Inputs(Integer facts, String note) {
    }

    /** The items said in a line each, with their exports' links. */
    List<PreventionView> items(String incidentId) {
        return prevention == null ? List.of() : prevention.stream().map(i -> PreventionView.of(i, incidentId, version)).toList();
    }

    public String inputsNote() {
        return inputs == null ? null : inputs.note();
    }
}
