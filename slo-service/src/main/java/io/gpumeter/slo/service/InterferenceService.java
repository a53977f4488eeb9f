package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.InterferenceFactor;
import io.gpumeter.slo.domain.LatencyHistograms;
import io.gpumeter.slo.domain.NeighbourKind;
import io.gpumeter.slo.domain.Sli;
import io.gpumeter.slo.repository.LatencyRepository;
import io.gpumeter.slo.service.PodPlacements.PodMinuteKey;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.HdrHistogram.Histogram;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The interference factor of a service: each pod-minute with requests is placed on the cards its pod held (ledger
 * Q1) and counted by the other pods on those cards; replicas of the same service are not neighbours.
 */
@ApplicationScoped
public class InterferenceService {

    /**
     * The factor's buckets and how many pod-minutes could not be placed on a card.
     *
     * @param from      the window read: the one asked, or its latest {@code maxWindow} when it was narrowed
     * @param maxWindow the longest window one read spans ({@code gpumeter.slo.interference.max-window}), ISO-8601
     * @param narrowed  whether the window asked was longer and its latest {@code maxWindow} was read
     */
    public record Report(String service, String namespace, Sli sli, Instant from, Instant to, String maxWindow,
                         boolean narrowed, long podMinutes, long unplacedPodMinutes, String precision,
                         List<InterferenceFactor.Bucket> byNeighbours, List<InterferenceFactor.Bucket> byKind) {
    }

    private final LatencyRepository latency;
    private final ServiceNamespaces namespaces;
    private final Neighbourhood neighbourhood;
    private final PodPlacements placements;
    private final SloConfig config;

    public InterferenceService(LatencyRepository latency, ServiceNamespaces namespaces, Neighbourhood neighbourhood,
                               PodPlacements placements, SloConfig config) {
        this.latency = latency;
        this.namespaces = namespaces;
        this.neighbourhood = neighbourhood;
        this.placements = placements;
        this.config = config;
    }

    /**
     * @param namespace the service's namespace; null for the only namespace that reported the service in the window
     * @throws ApiProblem 400 naming {@code to} for a window longer than the configured maximum, or {@code namespace}
     *                    for a service several namespaces reported in the window
     */
    public Uni<Report> report(String service, String namespace, Sli sli, TimeWindow window) {
        return report(service, namespace, sli, window, false);
    }

    /**
     * @param narrow read the latest {@code max-window} of a longer window instead of refusing it, so a caller need not
     *               know this service's configuration; the report says which window it read
     */
    public Uni<Report> report(String service, String namespace, Sli sli, TimeWindow asked, boolean narrow) {
        Duration longest = config.interference().maxWindow();
        boolean narrowed = asked.duration().compareTo(longest) > 0;
        if (narrowed && !narrow) {
            throw ApiProblem.badRequest("to", "an interference window spans at most " + longest
                    + "; narrow from/to, or ask narrow=true for its latest " + longest);
        }
        TimeWindow window = narrowed ? new TimeWindow(asked.end().minus(longest), asked.end()) : asked;
        return namespaces.ofRequests(service, namespace, window, "namespace").chain(ns -> read(service, ns, sli,
                window, narrowed));
    }

    /** The report of the service of namespace {@code ns} (null: none reported it, so nothing is read). */
    private Uni<Report> read(String service, String ns, Sli sli, TimeWindow window, boolean narrowed) {
        return latency.podRequests(service, ns, window).chain(requests -> latency.histograms(service, ns, sli, window)
                .chain(histograms -> {
                    Map<PodMinuteKey, Histogram> latencyByKey = new HashMap<>();
                    for (LatencyRepository.StoredHistogram h : histograms) {
                        Histogram into = latencyByKey.computeIfAbsent(
                                new PodMinuteKey(h.minute(), h.namespace() + "/" + h.pod()),
                                k -> LatencyHistograms.empty());
                        LatencyHistograms.mergeInto(into, h.histogram());
                    }
                    Map<String, List<Instant>> minutesByPod = new TreeMap<>();
                    requests.forEach(r -> minutesByPod.computeIfAbsent(r.namespace() + "/" + r.pod(),
                            p -> new ArrayList<>()).add(r.minute()));
                    return placements.of(minutesByPod).chain(held -> neighbours(held).chain(onCards ->
                            classify(onCards, minutesByPod.keySet(), window).map(kinds -> {
                                List<InterferenceFactor.PodMinute> minutes = new ArrayList<>();
                                long unplaced = 0;
                                for (LatencyRepository.PodRequests r : requests) {
                                    PodMinuteKey key = new PodMinuteKey(r.minute(), r.namespace() + "/" + r.pod());
                                    List<Occupant> units = held.getOrDefault(key, List.of());
                                    if (units.stream().noneMatch(u -> u.gpuUuid() != null)) {
                                        unplaced++;
                                        continue;
                                    }
                                    Map<String, String> others = new TreeMap<>();
                                    for (Occupant u : units) {
                                        for (Occupant o : onCards.getOrDefault(cardKey(u.gpuUuid(), r.minute()), List.of())) {
                                            if (!minutesByPod.containsKey(o.podKey())) {
                                                others.put(o.podKey(), o.ownerKind());
                                            }
                                        }
                                    }
                                    List<NeighbourKind> neighbourKinds = others.entrySet().stream()
                                            .map(e -> NeighbourKind.of(e.getValue(), kinds.contains(e.getKey()))).toList();
                                    minutes.add(new InterferenceFactor.PodMinute(r.minute(), key.pod(), others.size(),
                                            others.isEmpty() ? null : NeighbourKind.dominant(neighbourKinds),
                                            r.requests(), latencyByKey.get(key)));
                                }
                                InterferenceFactor.Report f = InterferenceFactor.compute(minutes);
                                return new Report(service, ns, sli, window.start(), window.end(),
                                        config.interference().maxWindow().toString(), narrowed, minutes.size(), unplaced,
                                        LatencyHistograms.PRECISION, f.byNeighbours(), f.byKind());
                            })));
                }));
    }

    /**
     * The occupants of every card a pod-minute was placed on, keyed by card and minute: what was held on all those
     * cards over the span of the minutes, one ledger read, each card-minute then picked from it.
     */
    private Uni<Map<String, List<Occupant>>> neighbours(Map<PodMinuteKey, List<Occupant>> held) {
        Map<String, TreeSet<Instant>> minutesByCard = new TreeMap<>();
        held.forEach((key, units) -> units.stream().filter(u -> u.gpuUuid() != null)
                .forEach(u -> minutesByCard.computeIfAbsent(u.gpuUuid(), g -> new TreeSet<>()).add(key.minute())));
        Instant first = minutesByCard.values().stream().map(TreeSet::first).min(Instant::compareTo).orElse(null);
        Instant last = minutesByCard.values().stream().map(TreeSet::last).max(Instant::compareTo).orElse(null);
        if (first == null) {
            return Uni.createFrom().item(Map.of());
        }
        return neighbourhood.onCards(minutesByCard.keySet(), new TimeWindow(first, last.plus(Duration.ofMinutes(1))))
                .map(onCards -> {
                    Map<String, List<Occupant>> out = new HashMap<>();
                    minutesByCard.forEach((gpu, minutes) -> {
                        var units = onCards.getOrDefault(gpu, List.of());
                        minutes.forEach(minute -> out.put(cardKey(gpu, minute), Neighbourhood.during(units, minute)));
                    });
                    return out;
                });
    }

    /** Which neighbours report request latency here, and so are inference. */
    private Uni<Set<String>> classify(Map<String, List<Occupant>> onCards, Set<String> servicePods, TimeWindow window) {
        Set<String> others = new TreeSet<>();
        onCards.values().forEach(list -> list.forEach(o -> others.add(o.podKey())));
        others.removeAll(servicePods);
        return latency.podsWithRequests(others, window);
    }

    private static String cardKey(String gpu, Instant minute) {
        return gpu + "@" + minute;
    }

    /** The SLO assertion "with n shared pods p99 <= maxRatio x dedicated" checked against a report. */
    public record Assertion(String service, String namespace, Sli sli, Instant from, Instant to, int neighbours, String bucket,
                            BigDecimal maxRatio, Double dedicatedP99Ms, Double sharedP99Ms, long dedicatedPodMinutes,
                            long sharedPodMinutes, BigDecimal ifLatency, String verdict, Boolean pass,
                            String statement) {
    }

    public Uni<Assertion> assertion(String service, String namespace, Sli sli, TimeWindow window, int neighbours,
                                    BigDecimal maxRatio) {
        return report(service, namespace, sli, window).map(r -> {
            String label = InterferenceFactor.countBucket(neighbours);
            InterferenceFactor.Bucket dedicated = r.byNeighbours().get(0);
            InterferenceFactor.Bucket shared = r.byNeighbours().stream().filter(b -> b.bucket().equals(label))
                    .findFirst().orElseThrow();
            BigDecimal ratio = shared.ifLatency();
            Boolean pass = ratio == null ? null : ratio.compareTo(maxRatio) <= 0;
            String verdict = pass == null ? "NO_DATA" : pass ? "PASS" : "FAIL";
            String claim = "with " + label + " shared pod" + (label.equals("1") ? "" : "s") + " p99 <= "
                    + maxRatio.toPlainString() + "x dedicated";
            String statement = pass == null
                    ? claim + ": no data (" + (dedicated.p99Ms() == null ? "no dedicated minutes" : "no such shared minutes")
                    + ")"
                    : claim + ": " + shared.p99Ms() + " ms vs " + dedicated.p99Ms() + " ms = " + ratio.toPlainString()
                    + "x, " + verdict;
            return new Assertion(service, r.namespace(), sli, r.from(), r.to(), neighbours, label, maxRatio, dedicated.p99Ms(),
                    shared.p99Ms(), dedicated.podMinutes(), shared.podMinutes(), ratio, verdict, pass, statement);
        });
    }
}
