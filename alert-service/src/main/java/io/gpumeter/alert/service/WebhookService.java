package io.gpumeter.alert.service;

import io.gpumeter.alert.domain.ReceivedAlert;
import io.gpumeter.alert.repository.ReceivedRepository;
import io.gpumeter.alert.repository.ReceivedRepository.Change;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.List;

/**
 * Takes the alerts of one Alertmanager notification: stores each once per fingerprint and startsAt, runs the
 * runbook for one that starts firing, undoes for one that resolves, and does nothing for a repeat or for a resolve
 * whose labels differ from those the alert fired with.
 */
@ApplicationScoped
public class WebhookService {

    private static final Logger LOG = Logger.getLogger(WebhookService.class);

    /** What a notification changed; {@code refused} counts resolves whose labels did not match the firing alert. */
    public record Receipt(int alerts, int fired, int resolved, int duplicates, int refused, int actions) {

        Receipt plus(Change change, int actionRows) {
            return new Receipt(alerts + 1, fired + (change == Change.FIRED ? 1 : 0),
                    resolved + (change == Change.RESOLVED || change == Change.RESOLVED_UNSEEN ? 1 : 0),
                    duplicates + (change == Change.DUPLICATE ? 1 : 0), refused + (change == Change.RESOLVE_REFUSED ? 1 : 0),
                    actions + actionRows);
        }
    }

    private final ReceivedRepository received;
    private final ActionService actions;
    private final AlertMetrics metrics;
    private final Clock clock;

    public WebhookService(ReceivedRepository received, ActionService actions, AlertMetrics metrics, Clock clock) {
        this.clock = clock;
        this.received = received;
        this.actions = actions;
        this.metrics = metrics;
    }

    public Uni<Receipt> receive(List<ReceivedAlert> alerts, String receiver, String groupKey) {
        Uni<Receipt> chain = Uni.createFrom().item(new Receipt(0, 0, 0, 0, 0, 0));
        for (ReceivedAlert alert : alerts) {
            chain = chain.chain(receipt -> received.record(alert, receiver, groupKey, clock.instant())
                    .chain(change -> (switch (change) {
                        case FIRED -> actions.onFiring(alert).map(List::size);
                        case RESOLVED -> actions.onResolved(alert).map(List::size);
                        case RESOLVE_REFUSED -> refuseResolve(alert, receiver);
                        default -> Uni.createFrom().item(0);
                    }).map(n -> receipt.plus(change, n))));
        }
        return chain;
    }

    private Uni<Integer> refuseResolve(ReceivedAlert alert, String receiver) {
        metrics.refusedResolve();
        LOG.warnf("refused a resolve of %s (%s, firing since %s) from receiver %s: its labels differ from those the "
                + "alert fired with; it stays firing and nothing is undone", alert.alertname(), alert.fingerprint(),
                alert.startsAt(), receiver);
        return Uni.createFrom().item(0);
    }
}
