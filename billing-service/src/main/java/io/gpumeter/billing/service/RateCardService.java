package io.gpumeter.billing.service;

import io.gpumeter.billing.config.BillingConfig;
import io.gpumeter.billing.domain.EnergyTerms;
import io.gpumeter.billing.domain.RateCard;
import io.gpumeter.billing.domain.RateCardTimeline;
import io.gpumeter.billing.repository.RateCardRepository;
import io.gpumeter.billing.repository.StoredRateCard;
import io.gpumeter.common.problem.ApiProblem;
import io.quarkus.hibernate.reactive.panache.common.WithTransaction;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.util.Currency;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The configured rate card and the dated cards stored after it: validation, duplicates, and the timeline reports
 * price with.
 */
@Startup // builds the configured card at boot, so a contradictory card stops the service instead of a bill
@ApplicationScoped
public class RateCardService {

    private final RateCardRepository repository;
    private final RateCard baseline;
    private final String currency;

    private final Clock clock;

    public RateCardService(RateCardRepository repository, BillingConfig config, Clock clock) {
        this.clock = clock;
        this.repository = repository;
        this.baseline = ConfiguredCard.of(config.rateCard());
        this.currency = Currency.getInstance(config.currency().strip()).getCurrencyCode();
    }

    /** The ISO 4217 code every card and report of this service is in. */
    public String currency() {
        return currency;
    }

    /**
     * Stores a new card.
     *
     * @throws ApiProblem 400 for an invalid card, 409 when its version or effective instant is taken
     */
    @WithTransaction
    public Uni<StoredRateCard> create(@Valid @NotNull RateCardRequest request) {
        Map<String, BigDecimal> models = request.models() == null ? Map.of() : request.models();
        Map<String, EnergyTerms> clusters = request.clusterEnergy();
        try {
            new RateCard(request.version(), request.defaultRate(), models, request.energy(), clusters);
        } catch (IllegalArgumentException e) {
            throw ApiProblem.badRequest("models", e.getMessage());
        }
        String cardCurrency = request.currency() == null ? currency : request.currency().strip();
        if (!currency.equals(cardCurrency)) {
            throw ApiProblem.badRequest("currency", "currency must be " + currency
                    + ", the currency this service bills in, got '" + request.currency() + "'");
        }
        if (baseline.version().equals(request.version())) {
            throw conflict("version", "version '" + request.version() + "' is the configured rate card's");
        }
        Instant effectiveFrom = request.effectiveFrom().toInstant();
        return repository.findByVersion(request.version())
                .invoke(found -> {
                    if (found != null) {
                        throw conflict("version", "a rate card with version '" + request.version() + "' exists");
                    }
                })
                .chain(() -> repository.findByEffectiveFrom(effectiveFrom))
                .invoke(found -> {
                    if (found != null) {
                        throw conflict("effectiveFrom", "rate card '" + found.version + "' already takes effect at "
                                + effectiveFrom);
                    }
                })
                .chain(() -> {
                    StoredRateCard card = new StoredRateCard();
                    card.version = request.version();
                    card.effectiveFrom = effectiveFrom;
                    card.currency = currency;
                    card.defaultRate = request.defaultRate();
                    card.models = new TreeMap<>(models);
                    StoredCards.setEnergy(card, request.energy(), clusters);
                    card.createdAt = clock.instant();
                    return repository.persist(card);
                });
    }

    public Uni<List<StoredRateCard>> list() {
        return repository.listByEffectiveFrom();
    }

    /** The card, or null. */
    public Uni<StoredRateCard> get(String version) {
        return repository.findByVersion(version);
    }

    /** Whether a card was deleted. */
    @WithTransaction
    public Uni<Boolean> delete(String version) {
        return repository.delete("version", version).map(count -> count > 0);
    }

    /**
     * The timeline a report prices with, read now; blocks the calling worker thread.
     *
     * @throws ApiProblem 503 when the billing schema cannot be read
     */
    public RateCardTimeline timeline() {
        List<StoredRateCard> stored;
        try {
            stored = Await.result(repository::listByEffectiveFrom);
        } catch (RuntimeException e) {
            throw ApiProblem.unavailable("the rate cards cannot be read from the billing database; retry later.");
        }
        return new RateCardTimeline(baseline, stored.stream()
                .map(s -> new RateCardTimeline.Dated(s.effectiveFrom, StoredCards.card(s)))
                .toList());
    }

    private static ApiProblem conflict(String field, String detail) {
        return new ApiProblem(409, "Conflict", field, detail);
    }
}
