package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.util.ArrayList;
import java.util.List;

/**
 * An incident as the ledger serves it ({@code GET /api/v1/failures/incidents/{id}}, or as a review kept it): its cause,
 * where it happened, when, whether it is still open, and the evidence it was opened on.
 *
 * @param where e.g. {@code lab · gpu-a · GPU-aaaa-0001 · acme-ml/train-5}
 * @param state {@code open}, {@code recovered 2026-11-30T10:12:00Z} or {@code ended 2026-11-30T10:12:00Z}
 */
@TemplateData
public record IncidentFacts(String cause, String rootCauseClass, String where, String startedAt, String state, int occurrences,
                            String evidence) {

    static IncidentFacts of(JsonNode i) {
        List<String> where = new ArrayList<>();
        for (String f : List.of("cluster", "node", "gpuUuid")) {
            String value = Format.text(i, f);
            if (value != null && !value.isBlank()) {
                where.add(value);
            }
        }
        String pod = Format.text(i, "pod");
        if (pod != null) {
            String namespace = Format.text(i, "namespace");
            where.add(namespace == null ? pod : namespace + "/" + pod);
        }
        String state = i.path("open").asBoolean() ? "open"
                : i.hasNonNull("recoveredAt") ? "recovered " + Format.text(i, "recoveredAt")
                : i.hasNonNull("endedAt") ? "ended " + Format.text(i, "endedAt") : "";
        return new IncidentFacts(Format.text(i, "cause"), Format.text(i, "rootCauseClass"), String.join(" · ", where),
                Format.text(i, "startedAt"), state, i.path("occurrences").asInt(), Format.text(i, "evidence"));
    }
}
