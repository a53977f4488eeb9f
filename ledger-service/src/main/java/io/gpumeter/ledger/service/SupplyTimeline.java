package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.governance.domain.NodeCordons.Cordon;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.idle.domain.IntervalSet;
import io.gpumeter.ledger.inventory.domain.GpuModels;
import io.gpumeter.ledger.service.CardPresence.Presence;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Walks each node's cards of one model through a window, instant by instant where anything changes: the cards in the
 * inventory (P), whether the node is cordoned, and how many of them are failing (F, at most P; a failure naming its
 * card counts only while that card is there, one naming none counts as one of the node's cards). Per local day it
 * sums card-seconds: all of them, cordoned (P while cordoned), failed (F) and usable (0 while cordoned, else P − F),
 * and it keeps the state the window ends in. Cordons and failures that began in the window are counted for the models
 * whose cards were on the node when they began.
 */
final class SupplyTimeline {

    /** A card failing over [start, end), end null while it lasts; {@code recovered} when the book says it recovered. */
    record Failing(String cluster, String node, String uuid, String identity, Instant start, Instant end,
                   Instant recovered) {
    }

    /** What one model's cards add up to, in seconds of card time. */
    static final class ModelTally {
        final BigDecimal[] card;
        final BigDecimal[] cordoned;
        final BigDecimal[] failed;
        final BigDecimal[] usable;
        BigDecimal maintenance = BigDecimal.ZERO;
        BigDecimal bySuite = BigDecimal.ZERO;
        int endCards;
        int endCordoned;
        int endFailed;
        int endUsable;
        int incidents;
        int repaired;
        BigDecimal repairSeconds = BigDecimal.ZERO;
        int maintenanceCordons;
        int suiteCordons;

        ModelTally(int days) {
            card = zeros(days);
            cordoned = zeros(days);
            failed = zeros(days);
            usable = zeros(days);
        }
    }

    /** The state the window ends in, for the shapes: cordoned nodes, failing cards, failures naming no card per node. */
    record EndState(Set<String> cordonedNodes, Set<String> failingCards, Map<String, Integer> failingUnnamed) {
    }

    private final Instant from;
    private final Instant end;
    private final List<TimeBucket> days;
    final Map<String, ModelTally> models = new TreeMap<>();
    final EndState endState = new EndState(new HashSet<>(), new HashSet<>(), new HashMap<>());

    SupplyTimeline(Instant from, Instant end, List<TimeBucket> days) {
        this.from = from;
        this.end = end;
        this.days = days;
    }

    /** The key one model is tallied under, however its sources spell it. */
    static String key(String model) {
        String canonical = GpuModels.canonical(model);
        return canonical == null ? "" : canonical;
    }

    void walk(List<Presence> presences, Map<String, List<Cordon>> cordons, List<Failing> failing) {
        Map<String, Map<String, List<Presence>>> groups = new TreeMap<>();
        Map<String, Presence> cards = new HashMap<>();
        for (Presence p : presences) {
            groups.computeIfAbsent(p.cluster() + "/" + p.node(), k -> new TreeMap<>())
                    .computeIfAbsent(key(p.model()), k -> new ArrayList<>()).add(p);
            if (p.uuid() != null) {
                cards.putIfAbsent(p.cluster() + "/" + p.uuid(), p);
            }
        }
        Map<String, List<Failing>> failingOf = new HashMap<>();
        for (Failing f : failing) {
            Presence card = f.uuid() == null ? null : cards.get(f.cluster() + "/" + f.uuid());
            String node = card != null ? card.cluster() + "/" + card.node() : f.cluster() + "/" + f.node();
            String model = card != null ? key(card.model()) : modelAt(groups.get(node), f.start());
            if (model != null) {
                failingOf.computeIfAbsent(node + "\u0000" + model, k -> new ArrayList<>()).add(f);
            }
        }
        groups.forEach((node, byModel) -> byModel.forEach((model, list) -> walk(node, model, list,
                cordons.getOrDefault(node, List.of()), failingOf.getOrDefault(node + "\u0000" + model, List.of()))));
    }

    /** The model of a node's cards at an instant, else its first; null for a node with no cards. */
    private static String modelAt(Map<String, List<Presence>> byModel, Instant at) {
        if (byModel == null) {
            return null;
        }
        return byModel.entrySet().stream().filter(e -> e.getValue().stream().anyMatch(p -> p.covers(at)))
                .map(Map.Entry::getKey).findFirst().orElse(byModel.keySet().iterator().next());
    }

    private void walk(String node, String model, List<Presence> cards, List<Cordon> cordons, List<Failing> failing) {
        if (cards.stream().noneMatch(p -> p.start().isBefore(end) && (p.end() == null || p.end().isAfter(from)))) {
            return; // none of these cards was in the inventory in the window
        }
        ModelTally tally = models.computeIfAbsent(model, k -> new ModelTally(days.size()));
        TreeMap<Instant, int[]> events = new TreeMap<>();
        events.put(from, new int[5]);
        events.put(end, new int[5]);
        days.forEach(d -> events.putIfAbsent(d.start(), new int[5]));
        for (Presence p : cards) {
            delta(events, p.start(), p.end(), 0, p.cards());
        }
        for (Cordon c : cordons) {
            delta(events, c.start(), c.end(), c.bySuite() ? 2 : 1, 1);
            if (!c.start().isBefore(from) && c.start().isBefore(end) && !c.inherited()
                    && cards.stream().anyMatch(p -> p.covers(c.start()))) {
                if (c.bySuite()) {
                    tally.suiteCordons++;
                } else {
                    tally.maintenanceCordons++;
                }
            }
        }
        failures(events, cards, failing, tally);
        sweep(node, events, tally, failing);
    }

    private void failures(TreeMap<Instant, int[]> events, List<Presence> cards, List<Failing> failing, ModelTally tally) {
        Map<String, List<TimeWindow>> byIdentity = new TreeMap<>();
        for (Failing f : failing) {
            Instant stop = f.end() == null || f.end().isAfter(end) ? end : f.end();
            if (stop.isAfter(f.start())) {
                byIdentity.computeIfAbsent(f.identity(), k -> new ArrayList<>()).add(new TimeWindow(f.start(), stop));
            }
            if (!f.start().isBefore(from) && f.start().isBefore(end)) {
                tally.incidents++;
                if (f.recovered() != null && f.recovered().isBefore(end)) {
                    tally.repaired++;
                    tally.repairSeconds = tally.repairSeconds.add(seconds(Duration.between(f.start(), f.recovered())));
                }
            }
        }
        byIdentity.forEach((identity, windows) -> {
            IntervalSet failed = IntervalSet.of(windows);
            List<TimeWindow> own = cards.stream().filter(p -> identity.equals(p.cluster() + "/" + p.uuid())
                            && p.start().isBefore(end))
                    .map(p -> new TimeWindow(p.start(), p.end() == null || p.end().isAfter(end) ? end : p.end()))
                    .toList();
            boolean named = cards.stream().anyMatch(p -> identity.equals(p.cluster() + "/" + p.uuid()));
            IntervalSet counted = named ? failed.intersect(IntervalSet.of(own)) : failed;
            counted.windows().forEach(w -> delta(events, w.start(), w.end(), named ? 3 : 4, 1));
        });
    }

    /** Adds {@code n} to counter {@code which} over [start, stop) clipped to the window. */
    private void delta(TreeMap<Instant, int[]> events, Instant start, Instant stop, int which, int n) {
        Instant a = start.isBefore(from) ? from : start;
        Instant b = stop == null || stop.isAfter(end) ? end : stop;
        if (a.isBefore(b)) {
            events.computeIfAbsent(a, k -> new int[5])[which] += n;
            events.computeIfAbsent(b, k -> new int[5])[which] -= n;
        }
    }

    private void sweep(String node, TreeMap<Instant, int[]> events, ModelTally tally, List<Failing> failing) {
        int[] state = new int[5];
        int day = 0;
        Instant t = null;
        for (Map.Entry<Instant, int[]> e : events.entrySet()) {
            if (t != null) {
                while (day < days.size() - 1 && !days.get(day).end().isAfter(t)) {
                    day++;
                }
                add(tally, day, state, seconds(Duration.between(t, e.getKey())));
            }
            if (!e.getKey().isBefore(end)) {
                break; // the state in force up to the window's end is the state it ends in
            }
            for (int i = 0; i < state.length; i++) {
                state[i] += e.getValue()[i];
            }
            t = e.getKey();
        }
        end(node, tally, state, failing);
    }

    private void add(ModelTally tally, int day, int[] s, BigDecimal dt) {
        int cards = s[0];
        boolean cordoned = s[1] + s[2] > 0;
        int failing = Math.min(cards, s[3] + s[4]);
        tally.card[day] = tally.card[day].add(dt.multiply(BigDecimal.valueOf(cards)));
        tally.cordoned[day] = tally.cordoned[day].add(dt.multiply(BigDecimal.valueOf(cordoned ? cards : 0)));
        tally.failed[day] = tally.failed[day].add(dt.multiply(BigDecimal.valueOf(failing)));
        tally.usable[day] = tally.usable[day].add(dt.multiply(BigDecimal.valueOf(cordoned ? 0 : cards - failing)));
        tally.maintenance = tally.maintenance.add(dt.multiply(BigDecimal.valueOf(s[1] > 0 ? cards : 0)));
        tally.bySuite = tally.bySuite.add(dt.multiply(BigDecimal.valueOf(s[2] > 0 ? cards : 0)));
    }

    /** Counts the state the window ends in, and what the shapes must leave out. */
    private void end(String node, ModelTally tally, int[] s, List<Failing> failing) {
        boolean cordoned = s[1] + s[2] > 0;
        int failingCards = Math.min(s[0], s[3] + s[4]);
        tally.endCards += s[0];
        tally.endCordoned += cordoned ? s[0] : 0;
        tally.endFailed += failingCards;
        tally.endUsable += cordoned ? 0 : s[0] - failingCards;
        if (cordoned) {
            endState.cordonedNodes().add(node);
        }
        Set<String> unnamed = new HashSet<>();
        for (Failing f : failing) {
            if (f.start().isBefore(end) && (f.end() == null || !f.end().isBefore(end))) {
                if (f.uuid() != null && f.identity().equals(f.cluster() + "/" + f.uuid())) {
                    endState.failingCards().add(f.identity());
                }
                unnamed.add(f.identity());
            }
        }
        unnamed.removeAll(endState.failingCards());
        if (!unnamed.isEmpty()) {
            endState.failingUnnamed().merge(node, unnamed.size(), Integer::sum);
        }
    }

    private static BigDecimal seconds(Duration d) {
        return BigDecimal.valueOf(d.getSeconds()).add(BigDecimal.valueOf(d.getNano(), 9));
    }

    private static BigDecimal[] zeros(int n) {
        BigDecimal[] out = new BigDecimal[n];
        java.util.Arrays.fill(out, BigDecimal.ZERO);
        return out;
    }
}
