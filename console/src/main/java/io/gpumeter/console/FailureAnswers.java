package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The ledger's failure reads as the Failures page binds them: failures per group ({@code GET /api/v1/failures}) and
 * incidents ({@code GET /api/v1/failures/incidents}, a window's or the open ones). Evidence and names are written by
 * nodes and tenants: the page writes them only as template values, which the HTML template escapes.
 */
final class FailureAnswers {

    private FailureAnswers() {
    }

    /** One group's failures that started in the window, and the time to recover of those that did. */
    @TemplateData
    @RegisterForReflection
    record Group(String key, String rootCauseClass, int count, int recovered, int open, BigDecimal ratePer1000GpuHours,
                 BigDecimal mttrP50Seconds, BigDecimal mttrMeanSeconds) {

        /** Failures that ended without recovering. */
        int unrecovered() {
            return Math.max(0, count - recovered - open);
        }
    }

    /** One incident, with where it happened and the evidence it was opened on. */
    @TemplateData
    @RegisterForReflection
    record Incident(String id, String cluster, String cause, String rootCauseClass, String node, String gpuUuid,
                    String gpuPci, String namespace, String pod, String startedAt, String recoveredAt,
                    BigDecimal repairSeconds, boolean open, int occurrences, String evidence) {

        /** Cluster, node, card and pod, as many as it names. */
        public String where() {
            return Stream.of(blank(cluster), blank(node), blank(gpuUuid), blank(gpuPci), pod == null ? null : namespace + "/" + pod)
                    .filter(Objects::nonNull).collect(Collectors.joining(" · "));
        }

        /** The node, card and pod alone, as the timeline's tooltip says where. */
        String place() {
            return Stream.of(node, gpuUuid, pod == null ? null : namespace + "/" + pod).filter(Objects::nonNull)
                    .collect(Collectors.joining(" · "));
        }

        /** open, recovered or ended unrecovered. */
        String state() {
            return open ? "open" : recoveredAt != null ? "recovered" : "ended unrecovered";
        }

        private static String blank(String text) {
            return text == null || text.isBlank() ? null : text;
        }
    }
}
