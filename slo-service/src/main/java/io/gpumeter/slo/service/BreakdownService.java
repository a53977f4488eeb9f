package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.domain.AttainmentBreakdown;
import io.gpumeter.slo.domain.PodMinute;
import io.gpumeter.slo.domain.SloDefinition;
import io.gpumeter.slo.domain.TenantCoverage;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where an SLO's minutes, and its missed ones, ran: the cards and nodes its pods held (ledger Q1 history) and the
 * queues they went through (the ledger's scheduling decisions).
 */
@ApplicationScoped
public class BreakdownService {

    /** An SLO's breakdown over a window; {@code selection} as in its status, for tenant selectors. */
    public record Breakdown(SloDefinition definition, TimeWindow window, AttainmentBreakdown.Result result,
                            TenantCoverage selection) {
    }

    private final SloService slos;
    private final SloEvents events;
    private final PodPlacements placements;
    private final PodQueues queues;
    private final SloConfig config;

    public BreakdownService(SloService slos, SloEvents events, PodPlacements placements, PodQueues queues,
                            SloConfig config) {
        this.slos = slos;
        this.events = events;
        this.placements = placements;
        this.queues = queues;
        this.config = config;
    }

    /**
     * @throws ApiProblem 400 naming {@code to} for a window longer than the configured maximum, 404 naming
     *                    {@code name} for an unknown SLO, 503 when the ledger cannot place the pods or name their
     *                    queues
     */
    public Uni<Breakdown> breakdown(String name, TimeWindow window) {
        if (window.duration().compareTo(config.breakdown().maxWindow()) > 0) {
            throw ApiProblem.badRequest("to", "a breakdown spans at most " + config.breakdown().maxWindow()
                    + "; narrow from/to");
        }
        return slos.get(name).chain(stored -> {
            if (stored == null) {
                throw ApiProblem.notFound("name", "there is no SLO named '" + name + "'");
            }
            SloDefinition d = stored.definition();
            return events.podMinutes(d, window).chain(selected -> {
                Map<String, List<Instant>> minutesByPod = new TreeMap<>();
                for (PodMinute p : selected.pods()) {
                    List<Instant> minutes = minutesByPod.computeIfAbsent(p.podKey(), k -> new ArrayList<>());
                    if (minutes.isEmpty() || !minutes.get(minutes.size() - 1).equals(p.minute())) {
                        minutes.add(p.minute());
                    }
                }
                // one after the other, so a breakdown never has more than one ledger read in flight
                return placements.of(minutesByPod)
                        .chain(held -> queues.of(minutesByPod.keySet())
                                .map(queueOf -> AttainmentBreakdown.compute(d, selected.pods(), cards(held), queueOf)))
                        .onFailure(e -> !(e instanceof ApiProblem)).transform(e -> ApiProblem.unavailable(
                                "ledger-service could not say which cards the pods held or which queues they went"
                                        + " through; try again shortly"))
                        .map(result -> new Breakdown(selected.slo(), window, result, selected.coverage()));
            });
        });
    }

    private static Map<AttainmentBreakdown.PodAt, List<AttainmentBreakdown.Card>> cards(
            Map<PodPlacements.PodMinuteKey, List<Occupant>> held) {
        Map<AttainmentBreakdown.PodAt, List<AttainmentBreakdown.Card>> out = new HashMap<>();
        held.forEach((key, units) -> out.put(new AttainmentBreakdown.PodAt(key.pod(), key.minute()), units.stream()
                .filter(u -> u.gpuUuid() != null)
                .map(u -> new AttainmentBreakdown.Card(u.gpuUuid(), u.node())).toList()));
        return out;
    }
}
