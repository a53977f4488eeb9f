package io.gpumeter.alert.service;

import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.Episode;
import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Transitions;
import io.gpumeter.alert.domain.rule.Rule;
import io.gpumeter.alert.repository.AdvisoryLock;
import io.gpumeter.alert.repository.EpisodeRepository;
import io.gpumeter.alert.repository.OutboxRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One evaluation, on one replica at a time: snapshot → rules → firing/resolved transitions stored with each rule's
 * status → every firing alert (and each new resolution) into the outbox → an immediate delivery attempt.
 */
@ApplicationScoped
public class EvaluationService {

    private static final Logger LOG = Logger.getLogger(EvaluationService.class);
    static final String LOCK = "gpumeter.alert.evaluation";

    private final AdvisoryLock lock;
    private final SnapshotService snapshots;
    private final RuleBook rules;
    private final Pool pool;
    private final EpisodeRepository episodes;
    private final OutboxRepository outbox;
    private final AlertPayloads payloads;
    private final OutboxDelivery delivery;
    private final boolean sending;
    private final AlertMetrics metrics;
    private final Clock clock;

    public EvaluationService(AdvisoryLock lock, SnapshotService snapshots, RuleBook rules, Pool pool,
                             EpisodeRepository episodes, OutboxRepository outbox, AlertPayloads payloads,
                             OutboxDelivery delivery, AlertConfig config, AlertMetrics metrics, Clock clock) {
        this.clock = clock;
        this.metrics = metrics;
        this.lock = lock;
        this.snapshots = snapshots;
        this.rules = rules;
        this.pool = pool;
        this.episodes = episodes;
        this.outbox = outbox;
        this.payloads = payloads;
        this.delivery = delivery;
        this.sending = config.alertmanager().enabled();
    }

    /** An evaluation now (asked for by a person): the rules' results, or empty when another replica is evaluating. */
    public Uni<Optional<List<RuleResult>>> evaluate() {
        return run(null);
    }

    /**
     * The scheduled evaluation of one period: skipped when another replica is evaluating, and also when the newest
     * stored evaluation (another replica's, or one asked for) is less than half a period old, so that any number of
     * replicas evaluate the rules, and post to Alertmanager, as often as one would.
     */
    public Uni<Optional<List<RuleResult>>> evaluateOnSchedule(Duration period) {
        return run(period.dividedBy(2));
    }

    private Uni<Optional<List<RuleResult>>> run(Duration freshFor) {
        AtomicBoolean recent = new AtomicBoolean();
        return lock.tryRun(LOCK, () -> {
                    Instant now = clock.instant();
                    return due(freshFor, now).chain(due -> {
                        if (!due) {
                            recent.set(true);
                            return Uni.createFrom().<List<RuleResult>>nullItem();
                        }
                        return snapshots.take(now).map(rules::evaluate).call(results -> store(results, now));
                    });
                })
                .invoke(ran -> {
                    if (freshFor != null) {
                        metrics.evaluation(ran.isPresent() ? "ran" : recent.get() ? "already-evaluated" : "another-replica");
                    }
                })
                .call(ran -> delivery.deliver())
                .onFailure().invoke(e -> LOG.warn("rule evaluation failed", e));
    }

    private Uni<Boolean> due(Duration freshFor, Instant now) {
        if (freshFor == null) {
            return Uni.createFrom().item(true);
        }
        return episodes.lastEvaluation().map(last -> last.isEmpty() || !last.get().isAfter(now.minus(freshFor)));
    }

    private Uni<Void> store(List<RuleResult> results, Instant now) {
        return pool.withTransaction(conn -> episodes.firing(conn).chain(firing -> {
            Transitions t = Transitions.plan(results, firing);
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (Finding f : t.opened()) {
                chain = chain.chain(() -> episodes.open(conn, f, payloads.annotations(f), now));
            }
            for (Finding f : t.refreshed()) {
                chain = chain.chain(() -> episodes.refresh(conn, f, payloads.annotations(f), now));
            }
            for (Episode e : t.resolved()) {
                chain = chain.chain(() -> episodes.resolve(conn, e, now));
            }
            for (int i = 0; i < results.size(); i++) {
                Rule rule = rules.rules().get(i);
                RuleResult result = results.get(i);
                chain = chain.chain(() -> episodes.saveStatus(conn, rule, result, now));
            }
            return chain.chain(() -> enqueue(conn, now));
        }));
    }

    /** Every firing alert again (Alertmanager forgets one it stops hearing of), and each alert resolved just now. */
    private Uni<Void> enqueue(SqlConnection conn, Instant now) {
        if (!sending) {
            return Uni.createFrom().voidItem();
        }
        return episodes.firingOrResolvedAt(conn, now).chain(list -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (var e : list) {
                chain = chain.chain(() -> outbox.enqueue(conn, e.fingerprint(), e.startsAt(), payloads.payload(e, now), now));
            }
            return chain;
        });
    }
}
