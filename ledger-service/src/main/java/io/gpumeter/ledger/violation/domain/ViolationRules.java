package io.gpumeter.ledger.violation.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * Finds over-use and bypass episodes from per-container minutes and the allocations in force: consecutive minutes
 * over the allocation (beyond a tolerance) form one episode, SOFT when shorter than the hard threshold, HARD when
 * sustained; a container measured on a card where its pod holds no allocation that minute is a BYPASS.
 *
 * @param tolerance  how far above the allocation still counts as within it (0.10 = 110 %)
 * @param hardAfter  how long an episode lasts before it is a hard violation
 */
public record ViolationRules(double tolerance, Duration hardAfter) {

    /** The allocation a pod holds on a card during [since, until). */
    public record Holding(String cluster, String gpuUuid, String namespace, String pod, Integer cores, Long memoryMib,
                          Instant since, Instant until) {
        boolean covers(Instant minute) {
            return !minute.isBefore(since) && (until == null || minute.isBefore(until));
        }
    }

    public List<Violation> find(List<ContainerMinute> minutes, List<Holding> holdings) {
        Map<String, List<ContainerMinute>> bySeries = new TreeMap<>();
        minutes.forEach(m -> bySeries.computeIfAbsent(m.cluster() + "|" + m.gpuUuid() + "|" + m.namespace() + "|" + m.pod()
                + "|" + m.container(), k -> new ArrayList<>()).add(m));
        List<Violation> found = new ArrayList<>();
        for (List<ContainerMinute> series : bySeries.values()) {
            series.sort(Comparator.comparing(ContainerMinute::minute));
            found.addAll(episodes(series, holdings, "CORES", m -> m.coreUtil(), h -> h.cores() == null || h.cores() == 0
                    ? null : h.cores() / 100.0));
            found.addAll(episodes(series, holdings, "MEMORY", m -> m.memoryMib(), h -> h.memoryMib() == null || h.memoryMib() == 0
                    ? null : h.memoryMib().doubleValue()));
        }
        found.sort(Comparator.comparing(Violation::start).thenComparing(Violation::gpuUuid).thenComparing(Violation::pod));
        return found;
    }

    /**
     * Processes nvidia-smi saw for a pod on a card where the pod holds nothing that minute: one BYPASS episode (resource
     * PROCESS) per container and card over consecutive minutes in which its processes ran kernels or held memory.
     * Over-use of a HAMi grant is judged on HAMi's own container series, not here, so no episode is found twice.
     */
    public List<Violation> bypasses(List<ContainerMinute> processMinutes, List<Holding> holdings) {
        Map<String, List<ContainerMinute>> bySeries = new TreeMap<>();
        processMinutes.forEach(m -> bySeries.computeIfAbsent(m.cluster() + "|" + m.gpuUuid() + "|" + m.namespace() + "|"
                + m.pod() + "|" + m.container(), k -> new ArrayList<>()).add(m));
        List<Violation> found = new ArrayList<>();
        for (List<ContainerMinute> series : bySeries.values()) {
            series.sort(Comparator.comparing(ContainerMinute::minute));
            found.addAll(episodes(series, holdings, "PROCESS",
                    m -> positive(m.coreUtil()) || positive(m.memoryMib()) ? 1.0 : 0.0, h -> null));
        }
        found.sort(Comparator.comparing(Violation::start).thenComparing(Violation::gpuUuid).thenComparing(Violation::pod));
        return found;
    }

    private static boolean positive(Double value) {
        return value != null && value > 0;
    }

    private List<Violation> episodes(List<ContainerMinute> series, List<Holding> holdings, String resource,
                                     Function<ContainerMinute, Double> used, Function<Holding, Double> allowed) {
        List<Violation> out = new ArrayList<>();
        Episode open = null;
        for (ContainerMinute m : series) {
            Double value = used.apply(m);
            if (value == null) {
                continue;
            }
            Optional<Holding> holding = holdings.stream().filter(h -> h.cluster().equals(m.cluster())
                    && h.gpuUuid().equals(m.gpuUuid()) && h.namespace().equals(m.namespace()) && h.pod().equals(m.pod())
                    && h.covers(m.minute())).findFirst();
            Violation.Kind kind;
            double ratio;
            if (holding.isEmpty()) {
                if (value <= 0) {
                    open = close(open, out);
                    continue;
                }
                kind = Violation.Kind.BYPASS;
                ratio = Double.POSITIVE_INFINITY;
            } else {
                Double limit = allowed.apply(holding.get());
                if (limit == null || value <= limit * (1 + tolerance)) {
                    open = close(open, out);
                    continue;
                }
                kind = Violation.Kind.SOFT;
                ratio = value / limit;
            }
            boolean continues = open != null && open.kind == kind && open.end.equals(m.minute());
            if (!continues) {
                close(open, out);
                open = new Episode(m, resource, kind);
            }
            open.end = m.minute().plusSeconds(60);
            open.peak = Math.max(open.peak, ratio);
        }
        close(open, out);
        return out;
    }

    private Episode close(Episode episode, List<Violation> out) {
        if (episode != null) {
            Duration length = Duration.between(episode.start, episode.end);
            Violation.Kind kind = episode.kind == Violation.Kind.SOFT && length.compareTo(hardAfter) >= 0
                    ? Violation.Kind.HARD : episode.kind;
            ContainerMinute m = episode.first;
            out.add(new Violation(kind, episode.resource, m.cluster(), m.gpuUuid(), m.namespace(), m.pod(), m.container(),
                    episode.start, episode.end, (int) length.toMinutes(), Double.isFinite(episode.peak) ? episode.peak : null));
        }
        return null;
    }

    private static final class Episode {
        final ContainerMinute first;
        final String resource;
        final Violation.Kind kind;
        final Instant start;
        Instant end;
        double peak;

        Episode(ContainerMinute first, String resource, Violation.Kind kind) {
            this.first = first;
            this.resource = resource;
            this.kind = kind;
            this.start = first.minute();
        }
    }
}
