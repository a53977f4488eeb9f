package io.gpumeter.alert.service;

import io.gpumeter.common.client.Answers;
import io.gpumeter.alert.client.AlertmanagerClient;
import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.Backoff;
import io.gpumeter.alert.repository.AdvisoryLock;
import io.gpumeter.alert.repository.OutboxRepository;
import io.gpumeter.alert.repository.OutboxRepository.Pending;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Delivers the outbox to Alertmanager in batches, on one replica at a time. A failed POST keeps its alerts and
 * pushes their next attempt back, doubling up to the configured maximum; nothing leaves the outbox unaccepted.
 */
@ApplicationScoped
public class OutboxDelivery {

    private static final Logger LOG = Logger.getLogger(OutboxDelivery.class);
    static final String LOCK = "gpumeter.alert.delivery";
    /** Batches per run, so that one run cannot hold the lock forever. */
    private static final int MAX_BATCHES = 20;

    private final AdvisoryLock lock;
    private final OutboxRepository outbox;
    private final AlertmanagerClient alertmanager;
    private final AlertMetrics metrics;
    private final AlertConfig.Alertmanager config;
    private final Clock clock;

    public OutboxDelivery(AdvisoryLock lock, OutboxRepository outbox, AlertmanagerClient alertmanager, AlertMetrics metrics,
                          AlertConfig config, Clock clock) {
        this.clock = clock;
        this.lock = lock;
        this.outbox = outbox;
        this.alertmanager = alertmanager;
        this.metrics = metrics;
        this.config = config.alertmanager();
    }

    /** Sends what is due; returns how many alerts Alertmanager accepted. */
    public Uni<Integer> deliver() {
        if (!config.enabled()) {
            return metrics.refresh().replaceWith(0);
        }
        return lock.tryRun(LOCK, () -> batch(0, 0)).map(sent -> sent.orElse(0))
                .call(metrics::refresh)
                .onFailure().invoke(e -> LOG.warn("outbox delivery failed", e))
                .onFailure().recoverWithItem(0);
    }

    private Uni<Integer> batch(int round, int accepted) {
        if (round >= MAX_BATCHES) {
            return Uni.createFrom().item(accepted);
        }
        Instant now = clock.instant();
        return outbox.due(now, config.batchSize()).chain(due -> {
            if (due.isEmpty()) {
                return Uni.createFrom().item(accepted);
            }
            return alertmanager.post(due.stream().map(p -> AlertPayloads.postable(p.payload())).toList())
                    .chain(() -> outbox.delivered(due))
                    .invoke(() -> metrics.delivery(true, due.size()))
                    .chain(() -> due.size() < config.batchSize() ? Uni.createFrom().item(accepted + due.size())
                            : batch(round + 1, accepted + due.size()))
                    .onFailure().recoverWithUni(e -> {
                        int failures = due.stream().mapToInt(Pending::attempts).max().orElse(0) + 1;
                        Duration pause = Backoff.after(failures, config.backoffInitial(), config.backoffMax());
                        String reason = Answers.reason(e);
                        LOG.warnf("Alertmanager did not accept %d alerts (%s); next attempt in %s", due.size(), reason, pause);
                        metrics.delivery(false, due.size());
                        return outbox.failed(due, now, pause, reason).replaceWith(accepted);
                    });
        });
    }
}
