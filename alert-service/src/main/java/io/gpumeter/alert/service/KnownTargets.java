package io.gpumeter.alert.service;

import io.gpumeter.common.client.Answers;
import io.gpumeter.alert.client.LedgerClient;
import io.gpumeter.alert.domain.ReceivedAlert;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;

/**
 * Whether the node and the card an alert names are ones the ledger knows. An alert's labels are only the sender's
 * word: a runbook action touches nothing the ledger has not seen, and nothing at all while the ledger cannot be asked.
 */
@ApplicationScoped
public class KnownTargets {

    static final String NODE = "node";
    static final String GPU = "gpu_uuid";

    private final LedgerClient ledger;
    private final Clock clock;

    public KnownTargets(LedgerClient ledger, Clock clock) {
        this.clock = clock;
        this.ledger = ledger;
    }

    /** Empty when the ledger knows every node and card the alert names (or it names none); otherwise why not. */
    public Uni<Optional<String>> unknown(ReceivedAlert alert) {
        Instant now = clock.instant();
        return check("node", alert.label(NODE), node -> ledger.knowsNode(node, now))
                .chain(node -> node.isPresent() ? Uni.createFrom().item(node)
                        : check("GPU", alert.label(GPU), gpu -> ledger.knowsGpu(gpu, now)));
    }

    private static Uni<Optional<String>> check(String what, String name, Function<String, Uni<Boolean>> known) {
        if (name == null || name.isBlank()) {
            return Uni.createFrom().item(Optional.empty());
        }
        return known.apply(name)
                .map(yes -> yes ? Optional.<String>empty()
                        : Optional.of("the ledger does not know " + what + " '" + shorten(name) + "'; nothing was done"))
                .onFailure().recoverWithItem(e -> Optional.of("the ledger could not confirm " + what + " '" + shorten(name)
                        + "' (" + Answers.reason(e) + "); nothing was done"));
    }

    private static String shorten(String s) {
        return s.length() > 64 ? s.substring(0, 64) + "…" : s;
    }
}
