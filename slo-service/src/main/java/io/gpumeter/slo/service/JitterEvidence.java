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
 * without any neighbour), the host's and the card's pressures on it over the same span ({@code pressures}: its pods'
 * CPU throttling and network, its nodes' CPU and I/O pressure, its cards' power and thermal slowdowns), the ranked
 * suspects (neighbours and pressures alike), what could not be found ({@code gaps}), and which pressures could not
 * be measured and why ({@code unmeasured}). {@code pressures} and {@code unmeasured} are null in evidence stored
 * before the host and the card were read.
 */
@RegisterForReflection(targets = {JitterEvidence.class, JitterEvidence.PodGpus.class, JitterEvidence.Gpu.class,
        JitterEvidence.Neighbour.class, JitterEvidence.Curve.class, JitterEvidence.Point.class,
        JitterEvidence.LatencyPoint.class, EngineGaugeService.KvPoint.class, SuspectRanking.Suspect.class,
        SuspectRanking.Rise.class, JitterEvidence.Pressure.class, JitterEvidence.Unmeasured.class})
public record JitterEvidence(Instant attributedAt, Instant curveFrom, Instant curveTo, List<PodGpus> pods,
                             List<Neighbour> neighbours, List<LatencyPoint> latency,
                             List<EngineGaugeService.KvPoint> kvCacheUsage, List<SuspectRanking.Suspect> suspects,
                             List<String> gaps, List<Pressure> pressures, List<Unmeasured> unmeasured) {

    /** Evidence without the host and the card read (as stored before they were). */
    public JitterEvidence(Instant attributedAt, Instant curveFrom, Instant curveTo, List<PodGpus> pods,
                          List<Neighbour> neighbours, List<LatencyPoint> latency,
                          List<EngineGaugeService.KvPoint> kvCacheUsage, List<SuspectRanking.Suspect> suspects,
                          List<String> gaps) {
        this(attributedAt, curveFrom, curveTo, pods, neighbours, latency, kvCacheUsage, suspects, gaps, null, null);
    }

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

    /**
     * A pressure on the service that is not a neighbour, a suspect of its own: its {@code kind} and the {@code cause}
     * it points to (labels of {@link io.gpumeter.slo.domain.SuspectKind} and of the failure cause), its suspect
     * {@code key}, the pod, node or card it is about ({@code subject}, on {@code node} of {@code cluster}), and its
     * curves by field in the neighbours' shape: scope CONTAINER (the pod's containers summed), POD (the pod's own
     * cgroup or sandbox), NODE, or DEVICE (the card); each point's mean the ratio its kind rises by.
     */
    public record Pressure(String key, String kind, String cause, String subject, String cluster, String node,
                           Map<String, Curve> curves) {
    }

    /** A pressure that could not be measured: its kind, its subject, and what is missing. */
    public record Unmeasured(String kind, String cause, String subject, String missing) {
    }

    /** The service's merged percentiles of one minute, in ms; null without requests. */
    public record LatencyPoint(Instant minute, long count, Double p50Ms, Double p95Ms, Double p99Ms) {
    }
}
