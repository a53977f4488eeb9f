package io.gpumeter.ledger.fragmentation.domain;

import io.gpumeter.ledger.inventory.domain.MigProfile;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** Probes free GPU memory with typical request shapes, and free MIG slices with typical profiles. */
public final class FragmentationProbe {

    private final ShapeMix shapes;
    private final List<MigProfile> profiles;

    public FragmentationProbe(ShapeMix shapes, List<MigProfile> profiles) {
        this.shapes = shapes;
        this.profiles = List.copyOf(profiles);
    }

    /**
     * Places the held units on the cards. A unit naming a known card goes there; the others take, on their node
     * and in UUID order, the first card that can hold them: a whole card an untouched one, a time-slice replica a
     * card with a replica left, a vGPU the first card with its memory, cores and a slot free, a MIG instance the
     * first MIG card with room. Units that fit nowhere are left out.
     */
    public List<CardState> place(Collection<ProbeCard> cards, Collection<HeldUnit> units) {
        return held(cards, units, null).stream().map(this::state).toList();
    }

    /** The card {@link #place} puts each unit on, in the order of {@code units}; null for a unit that fits nowhere. */
    public static List<ProbeCard> placements(Collection<ProbeCard> cards, List<HeldUnit> units) {
        CardRoom[] where = new CardRoom[units.size()];
        held(cards, units, where);
        return Arrays.stream(where).map(r -> r == null ? null : r.card).toList();
    }

    /**
     * For each card and each request {@code requests} names for it, how many such units it holds when empty and how
     * many more fit once the held units are placed as {@link #place} places them, by the same rules.
     */
    public List<RequestRoom> rooms(Collection<ProbeCard> cards, Collection<HeldUnit> units,
                                   Function<ProbeCard, List<HeldUnit>> requests) {
        List<RequestRoom> out = new ArrayList<>();
        for (CardRoom placed : held(cards, units, null)) {
            for (HeldUnit request : requests.apply(placed.card)) {
                out.add(new RequestRoom(placed.card, request, fit(new CardRoom(placed.card), request),
                        fit(placed.copy(), request)));
            }
        }
        return out;
    }

    /** Holds units like {@code request} on the card until one no longer fits (or past any card's room); how many did. */
    private static int fit(CardRoom room, HeldUnit request) {
        int n = 0;
        while (n < RequestRoom.MOST_UNITS && room.canHold(request)) {
            room.hold(request);
            n++;
        }
        return n;
    }

    /** @param where when given, receives the room each unit went to, by the unit's position */
    private static List<CardRoom> held(Collection<ProbeCard> cards, Collection<HeldUnit> units, CardRoom[] where) {
        Map<String, CardRoom> byUuid = new LinkedHashMap<>();
        Map<String, List<CardRoom>> byNode = new LinkedHashMap<>();
        cards.stream()
                .sorted(Comparator.comparing(ProbeCard::cluster).thenComparing(ProbeCard::node).thenComparing(ProbeCard::uuid))
                .forEach(c -> {
                    CardRoom room = new CardRoom(c);
                    byUuid.put(c.cluster() + "/" + c.uuid(), room);
                    byNode.computeIfAbsent(c.cluster() + "/" + c.node(), k -> new ArrayList<>()).add(room);
                });
        List<HeldUnit> held = List.copyOf(units);
        List<Integer> unnamed = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
            HeldUnit u = held.get(i);
            CardRoom room = u.gpuUuid() == null ? null : byUuid.get(u.cluster() + "/" + u.gpuUuid());
            if (room == null) {
                unnamed.add(i);
            } else {
                room.hold(u);
                placed(where, i, room);
            }
        }
        for (int i : unnamed) {
            HeldUnit u = held.get(i);
            byNode.getOrDefault(u.cluster() + "/" + u.node(), List.of()).stream().filter(r -> r.canHold(u)).findFirst()
                    .ifPresent(r -> {
                        r.hold(u);
                        placed(where, i, r);
                    });
        }
        return new ArrayList<>(byUuid.values());
    }

    private static void placed(CardRoom[] where, int unit, CardRoom room) {
        if (where != null) {
            where[unit] = room;
        }
    }

    /**
     * The figures for one group of cards. Memory: for each shape s, Σ over cards of (free mod s, or all the card's
     * free memory when it cannot take another task) ÷ Σ free, and the shapes' ratios weighted by the mix. MIG:
     * free slices no configured profile can use ÷ free slices.
     */
    public Fragmentation measure(String key, Map<String, String> group, Collection<CardState> states) {
        List<CardState> memoryCards = states.stream().filter(s -> !s.mig()).toList();
        long free = memoryCards.stream().mapToLong(CardState::freeMib).sum();
        List<Fragmentation.ShapeFigure> figures = new ArrayList<>();
        BigDecimal weighted = BigDecimal.ZERO;
        for (ShapeMix.Shape shape : shapes.shapes()) {
            long stranded = memoryCards.stream().mapToLong(s -> s.strandedMib(shape.sizeMib())).sum();
            figures.add(new Fragmentation.ShapeFigure(shape.sizeGiB(), shapes.share(shape), stranded, ratio(stranded, free)));
            weighted = weighted.add(shape.weight().multiply(BigDecimal.valueOf(stranded)));
        }
        BigDecimal denominator = shapes.totalWeight().multiply(BigDecimal.valueOf(free));
        BigDecimal overall = denominator.signum() == 0 ? null
                : weighted.divide(denominator, 6, RoundingMode.HALF_EVEN).stripTrailingZeros();
        List<CardState> migCards = states.stream().filter(CardState::mig).toList();
        int freeSlices = migCards.stream().mapToInt(CardState::freeSlices).sum();
        int strandedSlices = migCards.stream().mapToInt(CardState::strandedSlices).sum();
        return new Fragmentation(key, group, new Fragmentation.Memory(memoryCards.size(), free, figures, overall),
                new Fragmentation.Mig(migCards.size(), freeSlices, strandedSlices, ratio(strandedSlices, freeSlices)));
    }

    private CardState state(CardRoom r) {
        ProbeCard c = r.card;
        if (c.mig() != null) {
            return migState(r);
        }
        if (r.whole || r.shared > 0 || r.migSlices > 0) {
            return new CardState(c, 0, false, 0, 0);
        }
        long free = Math.max(0, c.memoryMib() - r.memory);
        boolean coresLeft = r.cores < c.cores();
        boolean slotLeft = c.slots() == 0 || r.vgpus < c.slots();
        return new CardState(c, free, free > 0 && coresLeft && slotLeft, 0, 0);
    }

    /**
     * Instances made to measure strand what no combination of profiles fills; under the single strategy every
     * instance has the node's profile, so free instances strand when no profile fits in one, and slices left over
     * after the last whole instance always strand.
     */
    private CardState migState(CardRoom r) {
        ProbeCard.MigLayout layout = r.card.mig();
        if (r.whole || r.shared > 0 || r.vgpus > 0) {
            return new CardState(r.card, 0, false, 0, 0);
        }
        if (layout.fixed() != null) {
            int size = layout.fixed().gpuInstanceSlices();
            int instances = layout.slices() / size;
            int freeInstances = Math.max(0, instances - r.migInstances);
            int leftover = layout.slices() - instances * size;
            boolean usable = profiles.stream().anyMatch(p -> fitsIn(p, layout.fixed()));
            int free = freeInstances * size + leftover;
            return new CardState(r.card, 0, false, free, usable ? leftover : free);
        }
        int free = Math.max(0, layout.slices() - r.migSlices);
        return new CardState(r.card, 0, false, free, free - maxPack(free));
    }

    /** A request for profile p runs in an instance of profile q when q is at least as large in slices and memory. */
    static boolean fitsIn(MigProfile p, MigProfile q) {
        return p.gpuInstanceSlices() <= q.gpuInstanceSlices() && p.memoryGb() <= q.memoryGb();
    }

    /** The most of {@code free} slices instances of the configured profiles can fill, any number of each. */
    int maxPack(int free) {
        boolean[] reachable = new boolean[free + 1];
        reachable[0] = true;
        int best = 0;
        for (int n = 1; n <= free; n++) {
            for (MigProfile p : profiles) {
                int size = p.gpuInstanceSlices();
                if (size <= n && reachable[n - size]) {
                    reachable[n] = true;
                    best = n;
                    break;
                }
            }
        }
        return best;
    }

    private static BigDecimal ratio(long part, long whole) {
        return whole == 0 ? null
                : BigDecimal.valueOf(part).divide(BigDecimal.valueOf(whole), 6, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
