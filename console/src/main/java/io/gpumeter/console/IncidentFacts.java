package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * An incident as the ledger serves it ({@code GET /api/v1/failures/incidents/{id}}, or as a review kept it): its cause,
 * where it happened, when, whether it is still open, and the evidence it was opened on.
 */
@TemplateData
@RegisterForReflection
public record IncidentFacts(String cause, String rootCauseClass, String cluster, String node, String gpuUuid, String namespace,
                            String pod, String startedAt, String recoveredAt, String endedAt, boolean open, int occurrences,
                            String evidence) {

    /** e.g. {@code lab · gpu-a · GPU-aaaa-0001 · acme-ml/train-5}. */
    public String where() {
        return Stream.of(blank(cluster), blank(node), blank(gpuUuid), pod == null ? null : namespace == null ? pod : namespace + "/" + pod)
                .filter(Objects::nonNull).collect(Collectors.joining(" · "));
    }

    /** {@code open}, {@code recovered 2026-11-30T10:12:00Z} or {@code ended 2026-11-30T10:12:00Z}. */
    public String state() {
        return open ? "open" : recoveredAt != null ? "recovered " + recoveredAt : endedAt != null ? "ended " + endedAt : "";
    }

    private static String blank(String text) {
        return text == null || text.isBlank() ? null : text;
    }
}
