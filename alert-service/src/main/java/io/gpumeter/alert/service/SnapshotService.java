package io.gpumeter.alert.service;

import io.gpumeter.common.client.Answers;
import io.gpumeter.alert.client.BillingClient;
import io.gpumeter.alert.client.LedgerClient;
import io.gpumeter.alert.client.OccupantView;
import io.gpumeter.alert.client.SloClient;
import io.gpumeter.alert.client.UsagePointView;
import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.config.RulesConfig;
import io.gpumeter.alert.domain.BudgetForecast;
import io.gpumeter.alert.domain.Card;
import io.gpumeter.alert.domain.CostAnomaly;
import io.gpumeter.alert.domain.Holder;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.Incidents;
import io.gpumeter.alert.domain.Minute;
import io.gpumeter.alert.domain.SloState;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.Source;
import io.gpumeter.alert.domain.ViolationEpisode;
import io.gpumeter.alert.review.UnreviewedIncidents;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Takes one evaluation's snapshot: the occupied cards and their series from the ledger (two reads, whatever the size
 * of the fleet), the ledger's violations and incidents (those that started within the lookback and those still open),
 * slo-service's SLO states, billing-service's budget forecasts and cost judgements, and which of those incidents
 * wait for a review (one read of the reviews). A source that fails is marked
 * failed, never replaced by an empty answer, so that no alert resolves because a call timed out.
 */
@ApplicationScoped
public class SnapshotService {

    private final LedgerClient ledger;
    private final SloClient slo;
    private final BillingClient billing;
    private final AlertConfig config;
    private final UnreviewedIncidents unreviewed;
    private final Duration usageLookback;

    public SnapshotService(LedgerClient ledger, SloClient slo, BillingClient billing, AlertConfig config, RuleBook rules,
                           UnreviewedIncidents unreviewed) {
        this.unreviewed = unreviewed;
        this.ledger = ledger;
        this.slo = slo;
        this.billing = billing;
        this.config = config;
        this.usageLookback = rules.usageLookback();
    }

    public Uni<Snapshot> take(Instant now) {
        RulesConfig r = config.rules();
        Uni<Source<List<Card>>> cards = cards(now);
        Uni<Source<List<ViolationEpisode>>> violations = ledger.violations(now.minus(r.violations().lookback()), now)
                .onFailure().recoverWithItem(e -> Source.failed("ledger: " + Answers.reason(e)));
        Uni<Source<List<Incident>>> recentIncidents = ledger.incidents(now.minus(config.evaluation().failureLookback()), now)
                .onFailure().recoverWithItem(e -> Source.failed("ledger: " + Answers.reason(e)));
        // Open incidents whatever their start: one older than the lookback is still failing.
        Uni<Source<List<Incident>>> openIncidents = ledger.openIncidents()
                .onFailure().recoverWithItem(e -> Source.failed("ledger: " + Answers.reason(e)));
        Uni<Source<List<Incident>>> incidents = Uni.combine().all().unis(recentIncidents, openIncidents).asTuple()
                .map(t -> Incidents.merge(t.getItem1(), t.getItem2()));
        Uni<Source<List<SloState>>> slos = slo.states(now.minus(r.latency().lookback()), now)
                .onFailure().recoverWithItem(e -> Source.failed("slo-service: " + Answers.reason(e)));
        Uni<Source<List<BudgetForecast>>> budgets = billing.budgetForecasts(now)
                .onFailure().recoverWithItem(e -> Source.failed("billing-service: " + Answers.reason(e)));
        Uni<Source<List<CostAnomaly>>> costs = billing.costAnomalies(now)
                .onFailure().recoverWithItem(e -> Source.failed("billing-service: " + Answers.reason(e)));
        // the incidents waiting for a review are those just read: one read of the reviews, no call to the ledger
        Uni<Source<List<Incident>>> read = incidents.memoize().indefinitely();
        Uni<Source<List<Incident>>> waiting = read.chain(i -> unreviewed.waiting(i, now));
        return Uni.combine().all().unis(cards, violations, read, slos, budgets, costs, waiting).asTuple()
                .map(t -> new Snapshot(now, t.getItem1(), t.getItem2(), t.getItem3(), t.getItem4(), t.getItem5(),
                        t.getItem6(), t.getItem7()));
    }

    /** The cards held now and their series: one read of the fleet's occupants, one of the held cards' usage. */
    private Uni<Source<List<Card>>> cards(Instant now) {
        Instant from = now.minus(usageLookback);
        return ledger.fleetOccupants(now)
                .map(SnapshotService::byCard)
                .chain(held -> held.isEmpty() ? Uni.createFrom().item(List.<Card>of()) : ledger.usage(held.keySet(), from, now)
                        .map(usage -> held.values().stream().map(card -> new Card(card.node(), card.gpuUuid(),
                                card.holders(), series(usage.getOrDefault(card.gpuUuid(), List.of())))).toList()))
                .map(list -> Source.available(list.stream()
                        .sorted(Comparator.comparing(Card::node).thenComparing(Card::gpuUuid)).toList()))
                .onFailure().recoverWithItem(e -> Source.failed("ledger: " + Answers.reason(e)));
    }

    private static Map<String, Card> byCard(List<OccupantView> occupants) {
        Map<String, Card> cards = new TreeMap<>();
        for (OccupantView o : occupants) {
            if (o.gpuUuid() == null || o.node() == null) {
                continue;
            }
            Card card = cards.get(o.gpuUuid());
            List<Holder> holders = new ArrayList<>(card == null ? List.of() : card.holders());
            holders.add(new Holder(o.namespace(), o.pod(), o.tenant(), o.since()));
            cards.put(o.gpuUuid(), new Card(o.node(), o.gpuUuid(), holders, Map.of()));
        }
        return cards;
    }

    /**
     * The card's series by field: device-level where the exporter reports it, else the largest of its MIG
     * instances per minute. Per-container and per-process series are left out.
     */
    static Map<String, List<Minute>> series(List<UsagePointView> points) {
        Map<String, Map<Instant, Minute>> device = new HashMap<>();
        Map<String, Map<Instant, Minute>> mig = new HashMap<>();
        for (UsagePointView p : points) {
            if (p.field() == null || p.minute() == null) {
                continue;
            }
            Map<String, Map<Instant, Minute>> target = "DEVICE".equals(p.scope()) ? device
                    : "MIG_INSTANCE".equals(p.scope()) ? mig : null;
            if (target != null) {
                target.computeIfAbsent(p.field(), f -> new TreeMap<>()).merge(p.minute(),
                        new Minute(p.minute(), p.mean(), p.max()),
                        (a, b) -> new Minute(a.at(), Math.max(a.mean(), b.mean()), Math.max(a.max(), b.max())));
            }
        }
        Map<String, List<Minute>> out = new HashMap<>();
        mig.forEach((field, minutes) -> out.put(field, List.copyOf(minutes.values())));
        device.forEach((field, minutes) -> out.put(field, List.copyOf(minutes.values())));
        return out;
    }
}
