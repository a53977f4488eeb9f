package io.gpumeter.alert.domain;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Builds snapshots for rule tests: cards with per-minute series, and the other sources. */
public final class Snapshots {

    public static final Instant NOW = Instant.parse("2026-05-04T12:00:30Z");

    private Snapshots() {
    }

    /** A card on a node with series field → values, one per minute, the last value in the newest complete minute. */
    public static CardBuilder card(String node, String uuid) {
        return new CardBuilder(node, uuid);
    }

    public static Snapshot of(List<Card> cards) {
        return new Snapshot(NOW, Source.available(cards), Source.available(List.of()), Source.available(List.of()),
                Source.available(List.of()));
    }

    public static Snapshot with(Source<List<Card>> cards, Source<List<ViolationEpisode>> violations,
                                Source<List<Incident>> incidents, Source<List<SloState>> slos) {
        return new Snapshot(NOW, cards, violations, incidents, slos);
    }

    /** A snapshot with nothing but billing-service's budget forecasts and cost judgements. */
    public static Snapshot billing(Source<List<BudgetForecast>> budgets, Source<List<CostAnomaly>> costs) {
        return new Snapshot(NOW, Source.available(List.of()), Source.available(List.of()), Source.available(List.of()),
                Source.available(List.of()), budgets, costs);
    }

    /** Minute timestamps ending one minute before {@link #NOW}'s minute. */
    public static Instant minute(int minutesAgo) {
        return NOW.truncatedTo(java.time.temporal.ChronoUnit.MINUTES).minus(Duration.ofMinutes(minutesAgo));
    }

    /** Builds a card. */
    public static final class CardBuilder {
        private final String node;
        private final String uuid;
        private final List<Holder> holders = new ArrayList<>();
        private final Map<String, List<Minute>> series = new HashMap<>();

        CardBuilder(String node, String uuid) {
            this.node = node;
            this.uuid = uuid;
        }

        public CardBuilder held(String namespace, String pod, String tenant, Duration since) {
            holders.add(new Holder(namespace, pod, tenant, NOW.minus(since)));
            return this;
        }

        /** {@code values} for consecutive minutes, the last one a minute ago and the first {@code values.length} ago. */
        public CardBuilder series(String field, double... values) {
            return seriesEndingAgo(field, 1, values);
        }

        /** Like {@link #series} but ending {@code endAgo} minutes ago. */
        public CardBuilder seriesEndingAgo(String field, int endAgo, double... values) {
            List<Minute> minutes = new ArrayList<>(series.getOrDefault(field, List.of()));
            for (int i = 0; i < values.length; i++) {
                minutes.add(new Minute(minute(endAgo + values.length - 1 - i), values[i], values[i]));
            }
            minutes.sort(java.util.Comparator.comparing(Minute::at));
            series.put(field, minutes);
            return this;
        }

        /** The same value for each of {@code count} minutes, ending a minute ago. */
        public CardBuilder flat(String field, double value, int count) {
            double[] values = new double[count];
            java.util.Arrays.fill(values, value);
            return series(field, values);
        }

        public Card build() {
            return new Card(node, uuid, holders, series);
        }
    }
}
