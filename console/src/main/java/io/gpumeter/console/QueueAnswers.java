package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The ledger's queue reads as the Queues page binds them: the waits per group ({@code GET /api/v1/queue-wait}), what
 * waits now ({@code GET /api/v1/queue-wait/pending}) and one object's way through the schedulers
 * ({@code GET /api/v1/scheduling-decisions}). Names, queues and messages are tenants' words: the page writes them
 * only as template values, which the HTML template escapes.
 */
final class QueueAnswers {

    /** The queue-wait read's {@code source} to the triage's kind of subject. */
    private static final Map<String, String> KIND_OF_SOURCE = Map.of("pod", "pod", "kueue", "workload", "volcano", "podGroup");

    private QueueAnswers() {
    }

    /** One group's waits that ended in the window. */
    @TemplateData
    @RegisterForReflection
    record Wait(String key, int count, BigDecimal p50Seconds, BigDecimal p95Seconds, BigDecimal p99Seconds,
                BigDecimal maxSeconds) {

        public String group() {
            return key == null ? "(none)" : key;
        }

        static double minutes(BigDecimal seconds) {
            return seconds == null ? 0 : seconds.divide(BigDecimal.valueOf(60), 2, RoundingMode.HALF_EVEN).doubleValue();
        }
    }

    /** The queues an object waits in (the decisions name no scheduler: a pod without queues has none to show). */
    @TemplateData
    @RegisterForReflection
    record Queue(String clusterQueue, String localQueue, String volcanoQueue) {

        public String text() {
            return Stream.of(clusterQueue, localQueue, volcanoQueue).filter(Objects::nonNull).collect(Collectors.joining(" · "));
        }
    }

    /** What waits now: an object, its queues, why it waits and where it stands. */
    @TemplateData
    @RegisterForReflection
    record Pending(String cluster, String source, String namespace, String name, String clusterQueue, String localQueue,
                   String volcanoQueue, String scheduler, String state, String waitingSince, BigDecimal ageSeconds,
                   String reasonClass, String reason, Integer positionInClusterQueue, Integer positionInLocalQueue,
                   Integer priority, int rejections) {

        /** The triage's kind of subject: pod, workload (Kueue) or podGroup (Volcano). */
        public String kind() {
            return KIND_OF_SOURCE.getOrDefault(source == null ? "pod" : source, "pod");
        }

        public String object() {
            return namespace + "/" + name;
        }

        /** Its queues, or its scheduler when it waits in none. */
        public String queue() {
            String queues = new Queue(clusterQueue, localQueue, volcanoQueue).text();
            return queues.isEmpty() && scheduler != null ? scheduler : queues;
        }

        public String why() {
            return reasonClass != null ? reasonClass : reason != null ? reason : "";
        }
    }

    /** One step of an object's way through the schedulers; a refusal carries its class. */
    @TemplateData
    @RegisterForReflection
    record Step(String at, String step, String status, String reason, String message, String reasonClass) {
    }

    /** A wait until admission (Kueue) or reservation. */
    @RegisterForReflection
    record Waited(String waitFrom, String admittedAt, String reservedAt) {

        String end() {
            return admittedAt != null ? admittedAt : reservedAt;
        }
    }

    /** An object's scheduling decisions. */
    @RegisterForReflection
    record Decisions(String state, String reason, Queue queue, List<Step> trail, List<Waited> waits) {
    }
}
