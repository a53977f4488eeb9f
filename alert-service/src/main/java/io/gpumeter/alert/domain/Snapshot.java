package io.gpumeter.alert.domain;

import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Everything one evaluation reads, fetched once: the occupied cards with their series, the ledger's violation
 * episodes and failure incidents, slo-service's SLO states, billing-service's budget forecasts and cost
 * judgements, and those of the incidents waiting too long for a review, each possibly absent or failed.
 */
public record Snapshot(Instant now, Source<List<Card>> cards, Source<List<ViolationEpisode>> violations,
                       Source<List<Incident>> incidents, Source<List<SloState>> slos,
                       Source<List<BudgetForecast>> budgets, Source<List<CostAnomaly>> costs,
                       Source<List<Incident>> unreviewed) {

    /** A snapshot without the reviews' source (it counts as absent). */
    public Snapshot(Instant now, Source<List<Card>> cards, Source<List<ViolationEpisode>> violations,
                    Source<List<Incident>> incidents, Source<List<SloState>> slos,
                    Source<List<BudgetForecast>> budgets, Source<List<CostAnomaly>> costs) {
        this(now, cards, violations, incidents, slos, budgets, costs, Source.absent("reviews not read"));
    }

    /** A snapshot without billing-service's sources (they count as absent). */
    public Snapshot(Instant now, Source<List<Card>> cards, Source<List<ViolationEpisode>> violations,
                    Source<List<Incident>> incidents, Source<List<SloState>> slos) {
        this(now, cards, violations, incidents, slos, Source.absent("billing-service not read"),
                Source.absent("billing-service not read"));
    }

    /** Node of each occupied card. */
    public Map<String, String> nodeOfCard() {
        Map<String, String> nodes = new HashMap<>();
        cards.orElse(List.of()).forEach(c -> nodes.put(c.gpuUuid(), c.node()));
        return nodes;
    }

    /** Tenant of each namespace that holds a card now. */
    public Map<String, String> tenantOfNamespace() {
        Map<String, String> tenants = new HashMap<>();
        cards.orElse(List.of()).forEach(c -> c.holders().forEach(h -> {
            if (h.namespace() != null && h.tenant() != null) {
                tenants.putIfAbsent(h.namespace(), h.tenant());
            }
        }));
        return tenants;
    }
}
