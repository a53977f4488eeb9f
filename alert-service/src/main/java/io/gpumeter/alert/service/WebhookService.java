package io.gpumeter.alert.service;

import io.gpumeter.alert.domain.ReceivedAlert;
import io.gpumeter.alert.repository.ReceivedRepository;
import io.gpumeter.alert.repository.ReceivedRepository.Change;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.util.List;

/**
 * Takes the alerts of one Alertmanager notification: stores each once per fingerprint and startsAt, runs the
 * runbook for one that starts firing, undoes for one that resolves, and does nothing for a repeat.
 */
@ApplicationScoped
public class WebhookService {

    /** What a notification changed. */
    public record Receipt(int alerts, int fired, int resolved, int duplicates, int actions) {

        Receipt plus(Change change, int actionRows) {
            return new Receipt(alerts + 1, fired + (change == Change.FIRED ? 1 : 0),
                    resolved + (change == Change.RESOLVED || change == Change.RESOLVED_UNSEEN ? 1 : 0),
                    duplicates + (change == Change.DUPLICATE ? 1 : 0), actions + actionRows);
        }
    }

    private final ReceivedRepository received;
    private final ActionService actions;
    private final Clock clock = Clock.systemUTC();

    public WebhookService(ReceivedRepository received, ActionService actions) {
        this.received = received;
        this.actions = actions;
    }

    public Uni<Receipt> receive(List<ReceivedAlert> alerts, String receiver, String groupKey) {
        Uni<Receipt> chain = Uni.createFrom().item(new Receipt(0, 0, 0, 0, 0));
        for (ReceivedAlert alert : alerts) {
            chain = chain.chain(receipt -> received.record(alert, receiver, groupKey, clock.instant())
                    .chain(change -> (switch (change) {
                        case FIRED -> actions.onFiring(alert).map(List::size);
                        case RESOLVED -> actions.onResolved(alert).map(List::size);
                        default -> Uni.createFrom().item(0);
                    }).map(n -> receipt.plus(change, n))));
        }
        return chain;
    }
}
