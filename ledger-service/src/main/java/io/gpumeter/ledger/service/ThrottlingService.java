package io.gpumeter.ledger.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.ClockEventReason;
import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.common.problem.Params;
import io.gpumeter.ledger.repository.ThrottlingRepository;
import io.gpumeter.ledger.usage.domain.Throttling;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Why a card's clocks were held down over a window: minutes and episodes per clocks-event reason, and the counters. */
@ApplicationScoped
public class ThrottlingService {

    /** The longest window one read covers, as GPU-hours reads. */
    static final Duration MAX_WINDOW = Duration.ofDays(400);

    private final ThrottlingRepository repository;

    public ThrottlingService(ThrottlingRepository repository) {
        this.repository = repository;
    }

    public Uni<Throttling> throttling(String gpuUuid, Instant from, Instant to) {
        if (gpuUuid == null || gpuUuid.isBlank()) {
            throw ApiProblem.badRequest("uuid", "uuid is required: the card's UUID");
        }
        TimeWindow window = Params.window(from, to, MAX_WINDOW);
        return repository.totals(gpuUuid, window.start(), window.end())
                .chain(totals -> repository.islands(gpuUuid, window.start(), window.end())
                        .chain(islands -> repository.counters(gpuUuid, window.start(), window.end())
                                .map(counters -> assemble(gpuUuid, window, totals, islands, counters))));
    }

    static Throttling assemble(String gpuUuid, TimeWindow window, List<ThrottlingRepository.Total> totals,
                               List<ThrottlingRepository.Island> islands,
                               Map<String, ThrottlingRepository.Counter> counters) {
        Map<String, Double> minutes = new HashMap<>();
        totals.forEach(t -> minutes.put(t.field(), t.minutes()));
        Map<String, List<Throttling.Episode>> episodes = new HashMap<>();
        for (ThrottlingRepository.Island i : islands) {
            episodes.computeIfAbsent(i.field(), f -> new ArrayList<>()).add(new Throttling.Episode(i.from(), i.to(),
                    round(i.minutes()), counters.containsKey(UsageField.POWER_VIOLATION_S.name()) ? round(orZero(i.powerSeconds())) : null,
                    counters.containsKey(UsageField.THERMAL_VIOLATION_S.name()) ? round(orZero(i.thermalSeconds())) : null));
        }
        List<Throttling.Reason> reasons = new ArrayList<>();
        for (ClockEventReason reason : ClockEventReason.values()) {
            String field = reason.field().name();
            if (minutes.containsKey(field)) {
                reasons.add(new Throttling.Reason(reason.name(), reason.kind().name(), reason.slowsWork(),
                        round(minutes.get(field)), List.copyOf(episodes.getOrDefault(field, List.of()))));
            }
        }
        return new Throttling(gpuUuid, window.start(), window.end(), reasons,
                violation(counters.get(UsageField.POWER_VIOLATION_S.name())),
                violation(counters.get(UsageField.THERMAL_VIOLATION_S.name())));
    }

    private static Throttling.Violation violation(ThrottlingRepository.Counter counter) {
        return counter == null ? null : new Throttling.Violation(round(counter.seconds()), round(counter.covered()));
    }

    private static double orZero(Double value) {
        return value == null ? 0 : value;
    }

    /** To the millisecond (of a minute or a second). */
    private static BigDecimal round(double value) {
        return BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
    }
}
