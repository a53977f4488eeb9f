package io.gpumeter.ledger.domain;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The pods holding one ResourceClaim over time: a claim reserved for several pods is shared, and at every instant
 * its devices are divided equally among the pods holding it then (each from its start until its end).
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

    public Sharing(List<Holding> holdings) {
        this.holdings = List.copyOf(holdings);
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

    /** Splits [from, to) where the number of holders changes; to null means open. */
    public List<Instant[]> split(Instant from, Instant to) {
        TreeSet<Instant> cuts = new TreeSet<>();
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
            if (holdersAt(cut) != holdersAt(pieceStart)) {
                pieces.add(new Instant[] {pieceStart, cut});
                pieceStart = cut;
            }
        }
        pieces.add(new Instant[] {pieceStart, to});
        return pieces;
    }
}
