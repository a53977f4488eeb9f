package io.gpumeter.ledger.allocation.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The pods holding one ResourceClaim over time: a claim reserved for several pods is shared, and at every instant
 * its devices are divided equally among the pods holding it then (each from its start until its end). A device held
 * for admin access may also bill nothing at some instants (where its namespace admitted admin access): such an
 * instant holds nothing.
 */
public final class Sharing {

    /** A unit nobody else holds. */
    public static final Sharing ALONE = new Sharing(List.of());

    /** One holder's [start, end); end null while still held. */
    public record Holding(Instant start, Instant end) {

        boolean covers(Instant t) {
            return !t.isBefore(start) && (end == null || t.isBefore(end));
        }
    }

    private final List<Holding> holdings;
    private final Predicate<Instant> free;
    private final NavigableSet<Instant> freeChanges;

    public Sharing(List<Holding> holdings) {
        this(holdings, t -> false, new TreeSet<>());
    }

    private Sharing(List<Holding> holdings, Predicate<Instant> free, NavigableSet<Instant> freeChanges) {
        this.holdings = List.copyOf(holdings);
        this.free = free;
        this.freeChanges = freeChanges;
    }

    /**
     * The same holders, billing nothing at the instants {@code free} accepts; {@code changes} are the instants at
     * which its answer may change.
     */
    public Sharing freeWhere(Predicate<Instant> free, NavigableSet<Instant> changes) {
        return new Sharing(holdings, free, changes);
    }

    /** Whether the unit bills nothing at this instant: it is then not held at all. */
    public boolean freeAt(Instant t) {
        return free.test(t);
    }

    /** How many pods hold the claim at this instant; at least one, the pod asking. */
    public int holdersAt(Instant t) {
        return (int) Math.max(1, holdings.stream().filter(h -> h.covers(t)).count());
    }

    /** The share of a device each holder has at this instant. */
    public BigDecimal share(BigDecimal fraction, Instant t) {
        int n = holdersAt(t);
        return n == 1 ? fraction : fraction.divide(BigDecimal.valueOf(n), NormalizationPolicy.SCALE, RoundingMode.HALF_EVEN);
    }

    /** Splits [from, to) where the number of holders changes, or whether it bills; to null means open. */
    public List<Instant[]> split(Instant from, Instant to) {
        TreeSet<Instant> cuts = new TreeSet<>(freeChanges);
        for (Holding h : holdings) {
            cuts.add(h.start());
            if (h.end() != null) {
                cuts.add(h.end());
            }
        }
        List<Instant[]> pieces = new ArrayList<>();
        Instant pieceStart = from;
        for (Instant cut : cuts) {
            if (!cut.isAfter(from) || (to != null && !cut.isBefore(to))) {
                continue;
            }
            if (holdersAt(cut) != holdersAt(pieceStart) || freeAt(cut) != freeAt(pieceStart)) {
                pieces.add(new Instant[] {pieceStart, cut});
                pieceStart = cut;
            }
        }
        pieces.add(new Instant[] {pieceStart, to});
        return pieces;
    }
}
