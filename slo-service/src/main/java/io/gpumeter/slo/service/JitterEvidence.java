package io.gpumeter.slo.service;

import io.gpumeter.slo.domain.SuspectRanking;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * What attribution found about a jitter event, stored with it as JSON: the service's pods and the GPUs they held
 * during the first bad minute, the other pods on those GPUs with their curves over {@code [curveFrom, curveTo)},
 * the service's p50/p95/p99 curve and its KV-cache usage over the same span (a saturated KV cache slows requests
 * without any neighbour), the ranked suspects, and what could not be found.
 */
@RegisterForReflection(targets = {JitterEvidence.class, JitterEvidence.PodGpus.class, JitterEvidence.Gpu.class,
        JitterEvidence.Neighbour.class, JitterEvidence.Curve.class, JitterEvidence.Point.class,
        JitterEvidence.LatencyPoint.class, EngineGaugeService.KvPoint.class, SuspectRanking.Suspect.class,
        SuspectRanking.Rise.class})
public record JitterEvidence(Instant attributedAt, Instant curveFrom, Instant curveTo, List<PodGpus> pods,
                             List<Neighbour> neighbours, List<LatencyPoint> latency,
                             List<EngineGaugeService.KvPoint> kvCacheUsage, List<SuspectRanking.Suspect> suspects,
                             List<String> gaps) {

    /** One pod of the service and the units it held. */
    public record PodGpus(String namespace, String pod, List<Gpu> gpus) {
    }

    /** A unit of a card a pod held. */
    public record Gpu(String gpuUuid, String node, String unitKind, BigDecimal fraction, Instant since) {
    }

    /**
     * Another pod on one of those cards: who owns it, what kind of work it is, when it arrived, and its curves by
     * field (read from {@code curveGpu}, the first shared card).
     */
    public record Neighbour(String namespace, String pod, String ownerKind, String ownerName, String tenant,
                            String kind, Instant since, Instant until, List<String> gpuUuids, String curveGpu,
                            Map<String, Curve> curves) {
    }

    /**
     * One field's per-minute curve and where it was measured: CONTAINER (the neighbour's own containers, summed),
     * MIG_INSTANCE (its MIG instance) or DEVICE (the whole card, shared by every occupant).
     */
    public record Curve(String scope, List<Point> points) {
    }

    public record Point(Instant minute, double mean, double max) {
    }

    /** The service's merged percentiles of one minute, in ms; null without requests. */
    public record LatencyPoint(Instant minute, long count, Double p50Ms, Double p95Ms, Double p99Ms) {
    }
}
