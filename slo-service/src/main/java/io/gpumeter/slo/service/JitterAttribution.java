package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.UsagePoint;
import io.gpumeter.slo.domain.NeighbourKind;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.repository.LatencyRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Gathers a jitter event's evidence from the ledger: the service's pods and their cards during the first bad minute,
 * the other pods on those cards, their curves around the event, the host's and the cards' pressures on the service
 * ({@link HostPressures}), and the suspects — neighbours and pressures — ranked by one rule. Each is one read for the
 * whole set of pods, nodes or cards. A ledger failure leaves a gap, named in {@code gaps} (or, for a pressure, in
 * {@code unmeasured}), rather than losing the event.
 */
@ApplicationScoped
public class JitterAttribution {

    /** The utilization triad and its companions, read per neighbour where the ledger has them. */
    static final List<String> ACTIVITY_FIELDS = List.of("GPU_UTIL", "GR_ENGINE_ACTIVE", "SM_ACTIVE", "SM_OCCUPANCY",
            "TENSOR_ACTIVE", "DRAM_ACTIVE");
    /** Whole-card series: power, clock and throttle reasons are never per container. */
    static final List<String> DEVICE_FIELDS = List.of("POWER_W", "SM_CLOCK_MHZ", "THROTTLE_REASONS");

    private final Neighbourhood neighbourhood;
    private final LedgerClient ledger;
    private final LatencyRepository latency;
    private final HostPressures host;

    public JitterAttribution(Neighbourhood neighbourhood, LedgerClient ledger, LatencyRepository latency,
                             HostPressures host) {
        this.neighbourhood = neighbourhood;
        this.ledger = ledger;
        this.latency = latency;
        this.host = host;
    }

    /**
     * The evidence of an event that started at {@code start}.
     *
     * @param eventPods   the service's pods ("namespace/pod") with requests during the event
     * @param servicePods every pod of the service seen around the event; those are never its own neighbours
     * @param curve       the span of the curves
     * @param latencyCurve the service's per-minute percentiles over {@code curve}
     * @param kvCurve      the service's per-minute KV-cache usage over {@code curve}
     */
    public Uni<JitterEvidence> gather(Instant start, Set<String> eventPods, Set<String> servicePods, TimeWindow curve,
                                      List<JitterEvidence.LatencyPoint> latencyCurve,
                                      List<EngineGaugeService.KvPoint> kvCurve) {
        List<String> gaps = Collections.synchronizedList(new ArrayList<>());
        Uni<Map<String, List<Occupant>>> held = neighbourhood.holdings(eventPods, start)
                .onFailure().recoverWithItem(e -> gap(gaps, Map.of(), "the GPUs of pods " + String.join(", ", eventPods), e));
        return held.chain(heldByPod -> {
            List<JitterEvidence.PodGpus> podGpus = eventPods.stream()
                    .map(key -> podGpus(key, heldByPod.getOrDefault(key, List.of()))).toList();
            Set<String> gpus = new TreeSet<>();
            podGpus.forEach(p -> p.gpus().forEach(g -> gpus.add(g.gpuUuid())));
            String cards = String.join(", ", gpus);
            Uni<Map<String, List<Occupant>>> onCards = neighbourhood.occupants(gpus, start)
                    .onFailure().recoverWithItem(e -> gap(gaps, Map.of(), "the occupants of GPU " + cards, e));
            String[] usageFailed = {null};
            // one usage read for the cards: the neighbours' curves and the cards' own clocks-event reasons alike
            Uni<Map<String, List<UsagePoint>>> usage = gpus.isEmpty() ? Uni.createFrom().item(Map.of())
                    : ledger.usage(gpus, curve.start(), curve.end())
                    .onFailure().recoverWithItem(e -> {
                        usageFailed[0] = e.getClass().getSimpleName();
                        return gap(gaps, Map.of(), "the usage curves of GPU " + cards, e);
                    });
            return onCards.chain(occupants -> usage.chain(usageByGpu -> host.read(heldByPod, eventPods, curve,
                    usageFailed[0] == null ? usageByGpu : null, usageFailed[0]).chain(pressures -> {
                Map<String, List<Occupant>> byPod = new TreeMap<>();
                occupants.values().forEach(list -> list.stream().filter(o -> !servicePods.contains(o.podKey()))
                        .forEach(o -> byPod.computeIfAbsent(o.podKey(), k -> new ArrayList<>()).add(o)));
                return latency.podsWithRequests(byPod.keySet(), curve).map(inference -> {
                    List<JitterEvidence.Neighbour> neighbours = new ArrayList<>();
                    byPod.forEach((key, units) -> neighbours.add(neighbour(units, inference.contains(key), usageByGpu)));
                    List<SuspectRanking.Candidate> candidates = new ArrayList<>();
                    neighbours.forEach(n -> candidates.add(signal(n)));
                    candidates.addAll(PressureCurves.candidates(pressures.pressures()));
                    return new JitterEvidence(start, curve.start(), curve.end(), podGpus, neighbours, latencyCurve,
                            kvCurve, SuspectRanking.rank(start, candidates), List.copyOf(gaps), pressures.pressures(),
                            pressures.unmeasured());
                });
            })));
        });
    }

    private static <T> T gap(List<String> gaps, T empty, String what, Throwable e) {
        gaps.add("ledger: " + what + " could not be read (" + e.getClass().getSimpleName() + ")");
        return empty;
    }

    private static JitterEvidence.PodGpus podGpus(String key, List<Occupant> held) {
        int slash = key.indexOf('/');
        List<JitterEvidence.Gpu> gpus = held.stream().filter(o -> o.gpuUuid() != null)
                .map(o -> new JitterEvidence.Gpu(o.gpuUuid(), o.node(), o.unit() == null ? null : o.unit().kind(),
                        o.fraction(), o.since()))
                .toList();
        return new JitterEvidence.PodGpus(key.substring(0, slash), key.substring(slash + 1), gpus);
    }

    private static JitterEvidence.Neighbour neighbour(List<Occupant> held, boolean reportsLatency,
                                                      Map<String, List<UsagePoint>> usageByGpu) {
        Occupant first = held.get(0);
        List<String> gpus = held.stream().map(Occupant::gpuUuid).distinct().sorted().toList();
        String curveGpu = gpus.get(0);
        Occupant onCurveGpu = held.stream().filter(o -> curveGpu.equals(o.gpuUuid())).findFirst().orElse(first);
        Instant since = held.stream().map(Occupant::since).filter(s -> s != null).min(Instant::compareTo).orElse(null);
        Map<String, JitterEvidence.Curve> curves = curves(onCurveGpu, usageByGpu.getOrDefault(curveGpu, List.of()));
        return new JitterEvidence.Neighbour(first.namespace(), first.pod(), first.ownerKind(),
                first.owner() == null ? null : first.owner().name(), first.tenant(),
                NeighbourKind.of(first.ownerKind(), reportsLatency).label(), since, first.until(), gpus, curveGpu, curves);
    }

    /** Activity from the neighbour's own containers, else its MIG instance, else the card; power and throttle from the card. */
    private static Map<String, JitterEvidence.Curve> curves(Occupant o, List<UsagePoint> usage) {
        Map<String, JitterEvidence.Curve> out = new TreeMap<>();
        String containerPrefix = o.podKey() + "/";
        String migInstance = o.unit() != null && "MIG".equals(o.unit().kind()) ? o.unit().migInstance() : null;
        for (String field : ACTIVITY_FIELDS) {
            List<UsagePoint> mine = usage.stream().filter(p -> field.equals(p.field())).toList();
            List<UsagePoint> containers = mine.stream().filter(p -> "CONTAINER".equals(p.scope())
                    && p.scopeKey() != null && p.scopeKey().startsWith(containerPrefix)).toList();
            List<UsagePoint> mig = migInstance == null ? List.of() : mine.stream()
                    .filter(p -> "MIG_INSTANCE".equals(p.scope()) && migInstance.equals(p.scopeKey())).toList();
            if (!containers.isEmpty()) {
                out.put(field, summed("CONTAINER", containers));
            } else if (!mig.isEmpty()) {
                out.put(field, summed("MIG_INSTANCE", mig));
            } else {
                device(mine).ifPresent(c -> out.put(field, c));
            }
        }
        for (String field : DEVICE_FIELDS) {
            device(usage.stream().filter(p -> field.equals(p.field())).toList()).ifPresent(c -> out.put(field, c));
        }
        return out;
    }

    private static Optional<JitterEvidence.Curve> device(List<UsagePoint> points) {
        List<UsagePoint> device = points.stream().filter(p -> "DEVICE".equals(p.scope())).toList();
        return device.isEmpty() ? Optional.empty() : Optional.of(summed("DEVICE", device));
    }

    /** Several series of one scope (e.g. a pod's containers) summed per minute. */
    private static JitterEvidence.Curve summed(String scope, List<UsagePoint> points) {
        Map<Instant, double[]> byMinute = new TreeMap<>();
        for (UsagePoint p : points) {
            double[] sum = byMinute.computeIfAbsent(p.minute(), m -> new double[2]);
            sum[0] += p.mean();
            sum[1] += p.max();
        }
        List<JitterEvidence.Point> out = new ArrayList<>();
        byMinute.forEach((minute, v) -> out.add(new JitterEvidence.Point(minute, v[0], v[1])));
        return new JitterEvidence.Curve(scope, out);
    }

    private static SuspectRanking.Candidate signal(JitterEvidence.Neighbour n) {
        Map<String, List<SuspectRanking.MinuteValue>> activity = new TreeMap<>();
        Function<JitterEvidence.Point, SuspectRanking.MinuteValue> value =
                p -> new SuspectRanking.MinuteValue(p.minute(), p.mean());
        for (String field : SuspectRanking.RAMP_FIELDS) {
            JitterEvidence.Curve c = n.curves().get(field);
            if (c != null) {
                activity.put(field, c.points().stream().map(value).toList());
            }
        }
        return SuspectRanking.Candidate.neighbour(n.namespace() + "/" + n.pod(), n.since(), activity);
    }
}
