package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.client.Change;
import io.gpumeter.slo.client.ChangeImpact;
import io.gpumeter.slo.client.LedgerClient;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.PodHoldings;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.repository.JitterEventRepository;
import io.gpumeter.slo.repository.JitterEventRepository.StoredEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A change's impact on jitter: the jitter events that started on the nodes the change touched, over the same windows
 * before and after it that the ledger's impact read compares ({@code GET /api/v1/changes/{id}/impact}, which this
 * reads for the change, its nodes, the windows and their GPU-hours). An event is on a node when one of the pods its
 * evidence names (those with requests during it) held a unit there during the event. slo-service asks the ledger; the
 * ledger never asks slo-service (docs/adr/0018-jitter-impact-in-slo-service.md).
 */
@ApplicationScoped
public class JitterImpact {

    /** The events of one service in a window. */
    public record ServiceEvents(String namespace, String service, int events, int badMinutes) {
    }

    /**
     * One window: its jitter events on the touched nodes, their bad minutes, per service, the events' ids, the
     * GPU-hours the ledger counted on those nodes and the events per 1,000 of them (null without GPU-hours), and how
     * many events of the window the ledger could not place on any node.
     */
    public record Side(Instant from, Instant to, BigDecimal gpuHours, int jitterEvents, int badMinutes,
                       BigDecimal ratePer1000GpuHours, List<ServiceEvents> byService, List<Long> eventIds,
                       int unplacedEvents) {
    }

    /** The change, the nodes it touched, and the windows before and after it. */
    public record Impact(Change change, List<String> nodes, Side before, Side after) {
    }

    private final LedgerClient ledger;
    private final JitterEventRepository events;
    private final Duration maxSpan;

    public JitterImpact(LedgerClient ledger, JitterEventRepository events, SloConfig config) {
        this.ledger = ledger;
        this.events = events;
        this.maxSpan = config.changes().maxImpactSpan();
    }

    /**
     * @throws ApiProblem 404 naming {@code id} for a change the ledger does not know; 400 naming the field the ledger
     *                    refused, or {@code from} for windows spanning more than the configured maximum
     */
    public Uni<Impact> of(String id, Instant from, Instant to) {
        return ledger.changeImpact(id, from, to).chain(read -> {
            if (read.refused() != null) {
                throw read.refused();
            }
            ChangeImpact impact = read.impact();
            if (impact == null) {
                throw ApiProblem.notFound("id", "the ledger knows no change " + id);
            }
            Instant start = impact.before().from();
            Instant end = impact.after().to();
            if (Duration.between(start, end).compareTo(maxSpan) > 0) {
                throw ApiProblem.badRequest(from != null ? "from" : "to", "the windows around the change span "
                        + iso(Duration.between(start, end)) + ", at most " + iso(maxSpan) + " are counted; narrow from/to");
            }
            return events.startedIn(start, end).chain(found -> events.pods(found.stream().map(StoredEvent::id).toList())
                    .chain(pods -> placed(found, pods, new TimeWindow(start, end)).map(nodes -> new Impact(impact.change(),
                            impact.nodes(), side(impact.before(), found, nodes, impact),
                            side(impact.after(), found, nodes, impact)))));
        });
    }

    /** The nodes ("cluster/node") each event's pods held units on during it: one holdings read for every pod. */
    private Uni<Map<Long, Set<String>>> placed(List<StoredEvent> found, Map<Long, Set<String>> pods, TimeWindow span) {
        Set<String> all = new TreeSet<>();
        pods.values().forEach(all::addAll);
        Uni<Map<String, List<PodHoldings.Holding>>> held = all.isEmpty() ? Uni.createFrom().item(Map.of())
                : ledger.holdings(all, span);
        return held.map(holdings -> {
            Map<Long, Set<String>> out = new TreeMap<>();
            for (StoredEvent e : found) {
                Set<String> nodes = new HashSet<>();
                for (String pod : pods.getOrDefault(e.id(), Set.of())) {
                    for (PodHoldings.Holding h : holdings.getOrDefault(pod, List.of())) {
                        Occupant o = h.occupant();
                        if (o != null && o.node() != null && h.from().isBefore(e.end()) && h.to().isAfter(e.start())) {
                            nodes.add(o.cluster() + "/" + o.node());
                        }
                    }
                }
                out.put(e.id(), nodes);
            }
            return out;
        });
    }

    /** A duration as ISO-8601, in days when it is whole days (P14D rather than PT336H). */
    static String iso(Duration d) {
        return d.toSeconds() % 86_400 == 0 && d.getNano() == 0 ? "P" + d.toDays() + "D" : d.toString();
    }

    /** Without trailing zeros and never in exponent form: 500.000 is 500. */
    private static BigDecimal plain(BigDecimal v) {
        BigDecimal stripped = v.stripTrailingZeros();
        return stripped.scale() < 0 ? stripped.setScale(0) : stripped;
    }

    private static Side side(ChangeImpact.Side window, List<StoredEvent> found, Map<Long, Set<String>> placed,
                             ChangeImpact impact) {
        Set<String> touched = new HashSet<>();
        impact.nodes().forEach(n -> touched.add(impact.change().cluster() + "/" + n));
        Map<String, int[]> byService = new TreeMap<>();
        List<Long> ids = new ArrayList<>();
        int bad = 0;
        int unplaced = 0;
        for (StoredEvent e : found) {
            if (e.start().isBefore(window.from()) || !e.start().isBefore(window.to())) {
                continue;
            }
            Set<String> nodes = placed.getOrDefault(e.id(), Set.of());
            if (nodes.isEmpty()) {
                unplaced++;
                continue;
            }
            if (nodes.stream().noneMatch(touched::contains)) {
                continue;
            }
            ids.add(e.id());
            bad += e.badMinutes();
            int[] counts = byService.computeIfAbsent((e.namespace() == null ? "" : e.namespace()) + "/" + e.service(),
                    k -> new int[2]);
            counts[0]++;
            counts[1] += e.badMinutes();
        }
        List<ServiceEvents> services = new ArrayList<>();
        byService.forEach((key, counts) -> {
            int slash = key.indexOf('/');
            services.add(new ServiceEvents(slash == 0 ? null : key.substring(0, slash), key.substring(slash + 1),
                    counts[0], counts[1]));
        });
        BigDecimal hours = window.gpuHours();
        BigDecimal rate = hours == null || hours.signum() == 0 ? null
                : plain(BigDecimal.valueOf(ids.size() * 1000L).divide(hours, 3, RoundingMode.HALF_UP));
        return new Side(window.from(), window.to(), hours, ids.size(), bad, rate, services, ids, unplaced);
    }
}
