package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * slo-service's jitter answers as the Jitter page binds them: the events of a window ({@code GET /api/v1/jitter-events}),
 * one event with its evidence ({@code GET /api/v1/jitter-events/{id}}) and the service's interference factor
 * ({@code GET /api/v1/interference}, which says the window it read). Services, pods and reasons are tenants' words:
 * the page writes them only as template values or chart data, which are escaped.
 */
final class JitterAnswers {

    private JitterAnswers() {
    }

    /** A jitter event as the list gives it: when, how bad, and its top suspect. */
    @TemplateData
    @RegisterForReflection
    record Listed(long id, String service, String namespace, String slo, String sli, String start, String end,
                  int badMinutes, BigDecimal peakP99Ms, BigDecimal limitMs, String topSuspect, BigDecimal topSuspectScore) {

        /** The service as it is known, "namespace/name" (its name alone for an event stored before namespaces counted). */
        public String known() {
            return namespace == null || service == null ? service : namespace + "/" + service;
        }

        /** The service's triage at the event's start (the list names no cluster); null without a namespace. */
        public String triage() {
            return service == null || namespace == null ? null : TriageSubject.link("service", namespace, service, null,
                    start == null ? null : Format.instant(start).orElse(null));
        }
    }

    /** One jitter event with its evidence, as its own read gives it. */
    @TemplateData
    @RegisterForReflection
    record Event(long id, String service, String namespace, String slo, String sli, String start, String end,
                 int badMinutes, BigDecimal peakP99Ms, BigDecimal limitMs, String curveFrom, String curveTo, List<Pod> pods, List<Neighbour> neighbours, List<LatencyMinute> latency,
                 List<Suspect> suspects, List<String> gaps, List<Pressure> pressures, List<Unmeasured> unmeasured) {

        /** The service as it is known, "namespace/name" (its name alone for an event stored before namespaces counted). */
        public String known() {
            return namespace == null || service == null ? service : namespace + "/" + service;
        }

        /** The service's triage at the event's start (slo-service names no cluster); null without a namespace. */
        public String triage() {
            return service == null || namespace == null ? null : TriageSubject.link("service", namespace, service, null,
                    start == null ? null : Format.instant(start).orElse(null));
        }

        /** Where the curves start and end: their own span, else the event's. */
        String from() {
            return curveFrom != null ? curveFrom : start;
        }

        String to() {
            return curveTo != null ? curveTo : end;
        }

        Instant startAt() {
            return start == null ? null : Format.instant(start).orElse(null);
        }
    }

    /** One of the service's pods and the cards it held. */
    @RegisterForReflection
    record Pod(String namespace, String pod, List<PodCard> gpus) {
    }

    @RegisterForReflection
    record PodCard(String gpuUuid, String node) {
    }

    /** A pod that shared the service's cards: when it came and went, and its curves by field. */
    @RegisterForReflection
    record Neighbour(String namespace, String pod, String since, String until, Map<String, Curve> curves) {

        String name() {
            return namespace + "/" + pod;
        }
    }

    /** A series' points, each a minute's mean and max. */
    @RegisterForReflection
    record Curve(String scope, List<Point> points) {
    }

    @RegisterForReflection
    record Point(String minute, double mean, double max) {
    }

    /** The service's latency percentiles in one minute. */
    @RegisterForReflection
    record LatencyMinute(String minute, BigDecimal p50Ms, BigDecimal p95Ms, BigDecimal p99Ms) {
    }

    /** A ranked suspect, its rises and why. */
    @RegisterForReflection
    record Suspect(int rank, String key, double score, Double arrivedMinutesBefore, double ramp, List<Rise> rises,
                   List<String> reasons) {
    }

    @RegisterForReflection
    record Rise(String field, double before, double recent) {
    }

    /** A host's or a card's pressure on the service, its curves by field, each point a ratio 0..1. */
    @RegisterForReflection
    record Pressure(String key, Map<String, Curve> curves) {
    }

    /** A pressure slo-service could not measure: whose, of what kind, and what is missing. */
    @RegisterForReflection
    record Unmeasured(String kind, String subject, String cause, String missing) {

        String said() {
            return "the " + kind + " of " + subject + " (so " + cause + " cannot be ruled out): " + missing;
        }
    }

    /**
     * The service's interference factor over the window slo-service read: the one asked, or its latest
     * {@code maxWindow} when the one asked was longer ({@code narrowed}).
     */
    @RegisterForReflection
    record Interference(String from, String to, String maxWindow, boolean narrowed, List<Bucket> byNeighbours,
                        List<Bucket> byKind) {
    }

    /** One bucket of the factor, by neighbour count or by neighbour kind. */
    @TemplateData
    @RegisterForReflection
    record Bucket(String bucket, long podMinutes, BigDecimal p99Ms, BigDecimal ifLatency, BigDecimal ifThroughput) {

        /** The bucket in words on the chart's axis. */
        String label() {
            return "0".equals(bucket) ? "dedicated" : bucket + " neighbour" + ("1".equals(bucket) ? "" : "s");
        }
    }
}
