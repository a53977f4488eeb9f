package io.gpumeter.billing.domain;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * Which rate card is in force when: the configured card until the first dated card takes effect, then each dated
 * card until the next one's effective instant.
 */
public final class RateCardTimeline {

    /** A card and the instant from which it prices GPU-hours. */
    public record Dated(Instant effectiveFrom, RateCard card) {
        public Dated {
            Objects.requireNonNull(effectiveFrom, "effectiveFrom");
            Objects.requireNonNull(card, "card");
        }
    }

    /** The half-open stretch [start, end) of a report period priced with one card. */
    public record Stretch(Instant start, Instant end, RateCard card) {
    }

    private final RateCard baseline;
    private final List<Dated> dated;

    /** @throws IllegalArgumentException when two cards take effect at the same instant */
    public RateCardTimeline(RateCard baseline, List<Dated> dated) {
        this.baseline = Objects.requireNonNull(baseline, "baseline");
        List<Dated> sorted = new ArrayList<>(dated);
        sorted.sort(Comparator.comparing(Dated::effectiveFrom));
        for (int i = 1; i < sorted.size(); i++) {
            if (sorted.get(i).effectiveFrom().equals(sorted.get(i - 1).effectiveFrom())) {
                throw new IllegalArgumentException("two rate cards take effect at " + sorted.get(i).effectiveFrom());
            }
        }
        this.dated = List.copyOf(sorted);
    }

    /** The card in force at {@code t}. */
    public RateCard at(Instant t) {
        RateCard card = baseline;
        for (Dated d : dated) {
            if (d.effectiveFrom().isAfter(t)) {
                break;
            }
            card = d.card();
        }
        return card;
    }

    /** [start, end) cut at every price change inside it, in time order; one stretch when nothing changes. */
    public List<Stretch> split(Instant start, Instant end) {
        if (!start.isBefore(end)) {
            throw new IllegalArgumentException("an empty or reversed period: " + start + " to " + end);
        }
        List<Stretch> stretches = new ArrayList<>();
        Instant from = start;
        RateCard card = at(start);
        for (Dated d : dated) {
            if (d.effectiveFrom().isAfter(start) && d.effectiveFrom().isBefore(end)) {
                stretches.add(new Stretch(from, d.effectiveFrom(), card));
                from = d.effectiveFrom();
                card = d.card();
            }
        }
        stretches.add(new Stretch(from, end, card));
        return stretches;
    }
}
