package io.gpumeter.alert.review;

import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.Source;
import io.gpumeter.common.client.Answers;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Which of the ledger's incidents wait for a review: those the rule evaluation reads — started within
 * gpumeter.alert.evaluation.failure-lookback, or still open whatever their start — that started at least
 * {@code olderThan} ago and have no review. The list and the IncidentUnreviewed rule take the same set; the rule
 * from the incidents its evaluation has read already, so that it costs one read of the reviews and no call to the
 * ledger. Incidents without the ledger's stable id cannot be reviewed and are left out.
 */
@ApplicationScoped
public class UnreviewedIncidents {

    private final ReviewLedger ledger;
    private final ReviewRepository reviews;
    private final ReviewConfig config;
    private final Duration lookback;

    public UnreviewedIncidents(ReviewLedger ledger, ReviewRepository reviews, ReviewConfig config, AlertConfig alert) {
        this.ledger = ledger;
        this.reviews = reviews;
        this.config = config;
        this.lookback = alert.evaluation().failureLookback();
    }

    public Duration olderThanByDefault() {
        return config.unreviewedAfter();
    }

    /**
     * The incidents older than {@code olderThan} with ({@code reviewed}) or without a review, oldest first; empty
     * while the ledger has no incidents read. Two reads of the ledger (the look-back's and the open ones) and one of
     * the reviews.
     */
    public Uni<Optional<List<IncidentRef>>> list(boolean reviewed, Duration olderThan, Instant now) {
        Instant before = now.minus(olderThan);
        Uni<Optional<List<IncidentRef>>> recent = before.isAfter(now.minus(lookback))
                ? ledger.incidents(now.minus(lookback), before) : Uni.createFrom().item(Optional.of(List.of()));
        return Uni.combine().all().unis(recent, ledger.openIncidents()).asTuple().chain(t -> {
            if (t.getItem1().isEmpty() || t.getItem2().isEmpty()) {
                return Uni.createFrom().item(Optional.<List<IncidentRef>>empty());
            }
            Map<String, IncidentRef> byId = new LinkedHashMap<>();
            t.getItem1().get().forEach(i -> byId.putIfAbsent(i.id(), i));
            t.getItem2().get().forEach(i -> byId.put(i.id(), i));
            List<IncidentRef> old = byId.values().stream().filter(i -> i.id() != null && !i.id().isBlank())
                    .filter(i -> i.startedAt() != null && !i.startedAt().isAfter(before)).toList();
            return reviews.reviewed(old.stream().map(IncidentRef::id).toList()).map(done -> Optional.of(old.stream()
                    .filter(i -> done.contains(i.id()) == reviewed)
                    .sorted(Comparator.comparing(IncidentRef::startedAt).thenComparing(IncidentRef::id)).toList()));
        });
    }

    /** The rule's source: of the incidents an evaluation read, those waiting for a review past the configured time. */
    public Uni<Source<List<Incident>>> waiting(Source<List<Incident>> incidents, Instant now) {
        if (!(incidents instanceof Source.Available<List<Incident>> read)) {
            return Uni.createFrom().item(incidents);
        }
        Instant before = now.minus(config.unreviewedAfter());
        List<Incident> old = read.value().stream().filter(i -> i.id() != null && !i.id().isBlank())
                .filter(i -> i.startedAt() != null && !i.startedAt().isAfter(before)).toList();
        return reviews.reviewed(old.stream().map(Incident::id).distinct().toList())
                .map(done -> Source.available(old.stream().filter(i -> !done.contains(i.id())).toList()))
                .onFailure().recoverWithItem(e -> Source.failed("reviews: " + Answers.reason(e)));
    }

}
