package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.config.UsageConfig;
import io.gpumeter.ledger.idle.domain.IntervalSet;
import io.gpumeter.ledger.repository.TriadRepository.PodSegment;
import io.gpumeter.ledger.repository.TriadRepository;
import io.gpumeter.ledger.triad.domain.FleetDiagnosis;
import io.gpumeter.ledger.triad.domain.GpuDiagnosis;
import io.gpumeter.ledger.triad.domain.TriadMinute;
import io.gpumeter.ledger.triad.domain.TriadSignature;
import io.gpumeter.ledger.triad.domain.TriadSummary;
import io.gpumeter.ledger.triad.domain.TriadThresholds;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** The utilization triad read per card, per pod on it, and across the fleet. */
@Startup // thresholds outside 0..1 stop the start, not the first request
@ApplicationScoped
public class DiagnosisService {

    private final TriadRepository triads;
    private final TriadThresholds thresholds;
    private final Clock clock;

    public DiagnosisService(TriadRepository triads, LedgerConfig config, Clock clock) {
        this.triads = triads;
        UsageConfig.Diagnosis d = config.diagnosis();
        this.thresholds = new TriadThresholds(d.engineHigh(), d.smHigh(), d.dramLow(), d.dramHigh());
        this.clock = clock;
    }

    public Uni<GpuDiagnosis> gpu(String uuid, Instant from, Instant to) {
        TimeWindow window = Windows.require(from, to);
        Instant cap = Windows.cap(window, clock.instant());
        return triads.minutes(uuid, window).chain(series -> triads.segments(uuid, window).chain(segments -> {
            if (!series.isEmpty() || !segments.isEmpty()) {
                return Uni.createFrom().item(diagnose(uuid, window, cap, series, segments));
            }
            return triads.known(uuid).map(known -> {
                if (!known) {
                    throw ApiProblem.notFound("uuid", "no GPU with UUID '" + uuid + "' is in the inventory or the ledger");
                }
                return diagnose(uuid, window, cap, series, segments);
            });
        }));
    }

    public Uni<FleetDiagnosis> fleet(Instant from, Instant to, String cluster) {
        TimeWindow window = Windows.require(from, to);
        String filter = Windows.cluster(cluster);
        return triads.fleet(window, filter).map(cards -> {
            Map<TriadSignature, Integer> signatures = new EnumMap<>(TriadSignature.class);
            for (TriadSignature s : TriadSignature.values()) {
                signatures.put(s, 0);
            }
            Map<String, Integer> firstColumns = new TreeMap<>();
            for (TriadRepository.CardTriad card : cards) {
                TriadSummary summary = TriadSummary.of(List.of(card.sums()), thresholds);
                signatures.merge(summary.window().signature(), 1, Integer::sum);
                if (summary.window().firstColumn() != null) {
                    firstColumns.merge(summary.window().firstColumn(), 1, Integer::sum);
                }
            }
            return new FleetDiagnosis(from, to, filter, thresholds, cards.size(), signatures, firstColumns);
        });
    }

    private GpuDiagnosis diagnose(String uuid, TimeWindow window, Instant cap, Map<String, List<TriadMinute>> series,
                                  List<PodSegment> segments) {
        List<TriadMinute> device = series.getOrDefault("", List.of());
        Map<String, List<PodSegment>> byPod = new LinkedHashMap<>();
        segments.forEach(s -> byPod.computeIfAbsent(s.cluster() + "/" + s.podUid(), k -> new ArrayList<>()).add(s));
        Map<String, IntervalSet> held = new LinkedHashMap<>();
        byPod.forEach((key, segs) -> held.put(key, IntervalSet.of(segs.stream()
                .map(s -> clip(s, window, cap)).filter(w -> w != null).toList())));
        List<GpuDiagnosis.Pod> pods = new ArrayList<>();
        byPod.forEach((key, segs) -> {
            PodSegment first = segs.get(0);
            IntervalSet mine = held.get(key);
            boolean ownInstance = UnitKind.MIG.name().equals(first.unitKind()) && !first.instance().isEmpty()
                    && series.containsKey(first.instance());
            boolean shared = !ownInstance && held.entrySet().stream()
                    .anyMatch(e -> !e.getKey().equals(key) && !e.getValue().intersect(mine).windows().isEmpty());
            List<TriadMinute> minutes = (ownInstance ? series.get(first.instance()) : device).stream()
                    .filter(m -> overlaps(mine, m.minute())).toList();
            Instant until = segs.stream().anyMatch(s -> s.end() == null) ? null
                    : segs.stream().map(PodSegment::end).max(Instant::compareTo).orElse(null);
            pods.add(new GpuDiagnosis.Pod(first.cluster(), first.namespace(), first.pod(), first.podUid(),
                    UnitKind.valueOf(first.unitKind()), first.migProfile(),
                    segs.stream().map(PodSegment::start).min(Instant::compareTo).orElseThrow(), until,
                    ownInstance ? "MIG_INSTANCE/" + first.instance() : "DEVICE", shared,
                    TriadSummary.of(minutes, thresholds)));
        });
        return new GpuDiagnosis(uuid, window.start(), window.end(), thresholds, TriadSummary.of(device, thresholds), pods);
    }

    private static TimeWindow clip(PodSegment s, TimeWindow window, Instant cap) {
        Instant start = s.start().isAfter(window.start()) ? s.start() : window.start();
        Instant end = s.end() == null || s.end().isAfter(cap) ? cap : s.end();
        return end.isAfter(start) ? new TimeWindow(start, end) : null;
    }

    private static boolean overlaps(IntervalSet held, Instant minute) {
        IntervalSet one = IntervalSet.of(List.of(new TimeWindow(minute, minute.plus(Duration.ofMinutes(1)))));
        return !held.intersect(one).windows().isEmpty();
    }
}
