package io.gpumeter.slo.service;

import io.gpumeter.common.config.RetentionConfig;
import io.gpumeter.slo.config.SloConfig;
import io.gpumeter.slo.repository.LatencyRetentionRepository;
import io.micrometer.core.instrument.MeterRegistry;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * Keeps the latency tables bounded: folds each service's minutes older than the minute retention into hour rows,
 * hour by hour, then deletes rows older than the hour retention. Every replica may run it; the per-service lock
 * and the fold's record of how far it got make two runs at once fold each hour once.
 */
@ApplicationScoped
public class LatencyRetention {

    private static final Logger LOG = Logger.getLogger(LatencyRetention.class);

    /** What one run did. */
    public record Outcome(long hoursFolded, long minuteRowsFolded, long rowsDropped) {
    }

    private final LatencyRetentionRepository repository;
    private final RetentionConfig config;
    private final MeterRegistry registry;
    private final Clock clock;

    public LatencyRetention(LatencyRetentionRepository repository, SloConfig config, MeterRegistry registry, Clock clock) {
        this.repository = repository;
        this.config = config.retention();
        this.registry = registry;
        this.clock = clock;
    }

    /** One run at the current time. */
    public Uni<Outcome> run() {
        Instant now = clock.instant();
        Instant horizon = now.minus(config.minutes()).truncatedTo(ChronoUnit.HOURS);
        Instant dropBefore = now.minus(config.hours()).truncatedTo(ChronoUnit.HOURS);
        return repository.services()
                .onItem().transformToMulti(services -> Multi.createFrom().iterable(services))
                .onItem().transformToUniAndConcatenate(service -> foldFrom(service, horizon, new Outcome(0, 0, 0)))
                .collect().in(() -> new long[2], (sum, o) -> {
                    sum[0] += o.hoursFolded();
                    sum[1] += o.minuteRowsFolded();
                })
                .chain(sum -> repository.dropBefore(dropBefore).map(dropped -> new Outcome(sum[0], sum[1], dropped)))
                .invoke(this::count)
                .onFailure().invoke(e -> LOG.warnf("latency retention failed: %s", e.getMessage()));
    }

    private Uni<Outcome> foldFrom(String service, Instant horizon, Outcome so) {
        return repository.nextHour(service, horizon).chain(next -> next.isEmpty() ? Uni.createFrom().item(so)
                : repository.foldHour(service, next.get()).chain(rows -> foldFrom(service, horizon,
                        new Outcome(so.hoursFolded() + 1, so.minuteRowsFolded() + rows, 0))));
    }

    private void count(Outcome o) {
        registry.counter("gpumeter.slo.retention.hours.folded").increment(o.hoursFolded());
        registry.counter("gpumeter.slo.retention.minute.rows.folded").increment(o.minuteRowsFolded());
        registry.counter("gpumeter.slo.retention.rows.dropped").increment(o.rowsDropped());
    }
}
