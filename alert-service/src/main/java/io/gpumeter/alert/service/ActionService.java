package io.gpumeter.alert.service;

import io.gpumeter.alert.client.LedgerClient;
import io.gpumeter.alert.config.ActionsConfig;
import io.gpumeter.alert.config.AlertConfig;
import io.gpumeter.alert.domain.ActionKind;
import io.gpumeter.alert.domain.ActionMode;
import io.gpumeter.alert.domain.ActionPolicy;
import io.gpumeter.alert.domain.ActionResult;
import io.gpumeter.alert.domain.BlastRadius;
import io.gpumeter.alert.domain.ReceivedAlert;
import io.gpumeter.alert.repository.ActionRepository;
import io.gpumeter.alert.repository.StoredAction;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Runs the runbook for an alert that starts firing, and undoes on resolve what the runbook says to undo. Each action
 * is claimed in the audit first (once per alert episode, rate-limited, cordons within the blast radius), then
 * carried out in its mode, then its result recorded.
 */
@ApplicationScoped
public class ActionService {

    private static final Logger LOG = Logger.getLogger(ActionService.class);

    /** Undo results in the audit. */
    static final String UNDONE = "UNDONE";
    static final String UNDO_DRY_RUN = "DRY_RUN";
    static final String KEPT = "KEPT";
    static final String KEPT_SHARED = "KEPT_SHARED";
    static final String NOT_OURS = "NOT_OURS";
    static final String UNDO_FAILED = "FAILED";

    private final Runbook runbook;
    private final ActionRepository audit;
    private final NodeActions nodes;
    private final TraceSnapshots traces;
    private final Tickets tickets;
    private final KnownTargets known;
    private final LedgerClient ledger;
    private final AlertPayloads payloads;
    private final AlertMetrics metrics;
    private final ActionsConfig config;
    private final Clock clock;

    public ActionService(Runbook runbook, ActionRepository audit, NodeActions nodes, TraceSnapshots traces, Tickets tickets,
                         KnownTargets known, LedgerClient ledger, AlertPayloads payloads, AlertMetrics metrics,
                         AlertConfig config, Clock clock) {
        this.clock = clock;
        this.runbook = runbook;
        this.audit = audit;
        this.nodes = nodes;
        this.traces = traces;
        this.tickets = tickets;
        this.known = known;
        this.ledger = ledger;
        this.payloads = payloads;
        this.metrics = metrics;
        this.config = config.actions();
    }

    /**
     * The runbook's actions for a newly firing alert, in order; the audit rows they left. The ledger is asked once
     * whether it knows the alert's node and card; if not, each action is audited as refused and none runs.
     */
    public Uni<List<StoredAction>> onFiring(ReceivedAlert alert) {
        List<ActionKind> kinds = runbook.actions(alert.alertname()).stream()
                .filter(kind -> runbook.mode(kind) != ActionMode.OFF).toList();
        if (kinds.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        List<StoredAction> done = new ArrayList<>();
        return known.unknown(alert).chain(unknown -> {
            unknown.ifPresent(why -> LOG.warnf("%s (%s): %s", alert.alertname(), alert.fingerprint(), why));
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (ActionKind kind : kinds) {
                chain = chain.chain(() -> act(alert, kind, runbook.mode(kind), unknown).invoke(a -> a.ifPresent(done::add)))
                        .replaceWithVoid();
            }
            return chain.map(ignored -> done);
        });
    }

    /** Marks the episode's actions resolved and undoes what the runbook says to undo; the audit rows touched. */
    public Uni<List<StoredAction>> onResolved(ReceivedAlert alert) {
        Instant now = clock.instant();
        return audit.resolve(alert.fingerprint(), alert.startsAt(), now).chain(rows -> {
            Uni<Void> chain = Uni.createFrom().voidItem();
            for (StoredAction row : rows) {
                chain = chain.chain(() -> undo(alert, row, now));
            }
            return chain.map(ignored -> rows);
        });
    }

    /** @param unknown why the ledger does not vouch for the alert's node or card; empty when it does */
    private Uni<Optional<StoredAction>> act(ReceivedAlert alert, ActionKind kind, ActionMode mode, Optional<String> unknown) {
        Instant now = clock.instant();
        String node = alert.label("node");
        String target = switch (kind) {
            case TICKET -> tickets.target().orElse("ticket");
            case TRACE_SNAPSHOT -> node == null ? null : traces.namespace() + "/" + TraceSnapshots.jobName(alert) + "@" + node;
            default -> node;
        };
        Uni<Integer> allowed = kind == ActionKind.CORDON ? allowedCordons(now) : Uni.createFrom().item(Integer.MAX_VALUE);
        String plan = unknown.orElse(mode == ActionMode.DRY_RUN ? "dry-run: would " + plan(kind, node, target) : null);
        return allowed.chain(limit -> audit.claim(alert, kind, mode, target, runbook.maxPerHour(kind), limit, now, plan,
                        facts -> ActionPolicy.decide(kind, mode, facts, unknown.isEmpty())))
                .chain(claimed -> {
                    if (claimed.isEmpty()) {
                        return Uni.createFrom().item(Optional.<StoredAction>empty());
                    }
                    StoredAction row = claimed.get();
                    if (!ActionResult.PENDING.name().equals(row.result())) {
                        metrics.action(kind.label(), row.result());
                        return Uni.createFrom().item(claimed);
                    }
                    return execute(alert, kind, node).chain(outcome -> {
                        metrics.action(kind.label(), outcome.result().name());
                        LOG.infof("%s for %s (%s): %s", kind.label(), alert.alertname(), alert.fingerprint(), outcome.detail());
                        return audit.finish(row.id(), outcome.result(), outcome.detail())
                                .map(ignored -> Optional.of(withResult(row, outcome)));
                    });
                });
    }

    private String plan(ActionKind kind, String node, String target) {
        return switch (kind) {
            case CORDON -> "cordon node " + node;
            case FREEZE_DECODE -> "label node " + node + " " + NodePatches.DECODE_FROZEN + "=true"
                    + (config.freezeDecode().taint() ? " and taint it" : "");
            case ANNOTATE -> "annotate node " + node;
            case TRACE_SNAPSHOT -> "create Job " + target;
            case TICKET -> tickets.target().map(host -> "open a ticket at " + host)
                    .orElse("open a ticket (no ticket URL configured)");
        };
    }

    private Uni<Outcome> execute(ReceivedAlert alert, ActionKind kind, String node) {
        return switch (kind) {
            case CORDON -> blocking(() -> nodes.cordon(node, alert.alertname() + " " + alert.fingerprint() + " since "
                    + alert.startsAt()));
            case FREEZE_DECODE -> blocking(() -> nodes.freezeDecode(node, config.freezeDecode().taint()));
            case ANNOTATE -> blocking(() -> nodes.annotate(node, NodePatches.alertAnnotation(alert.alertname()),
                    summary(alert) + " (since " + alert.startsAt() + ")"));
            case TRACE_SNAPSHOT -> blocking(() -> traces.capture(alert, node));
            case TICKET -> tickets.send(alert, false, payloads.runbookUrl(alert.alertname()));
        };
    }

    private Uni<Void> undo(ReceivedAlert alert, StoredAction row, Instant now) {
        ActionKind kind = ActionKind.parse(row.action());
        ActionResult result = ActionResult.valueOf(row.result());
        if (result == ActionResult.DRY_RUN) {
            return audit.undone(row.id(), UNDO_DRY_RUN, runbook.undoesOnResolve(alert.alertname(), kind)
                    ? "dry-run: would undo " + kind.label() + " on " + row.target() : "dry-run: the runbook keeps this", now);
        }
        if (result == ActionResult.ALREADY_IN_PLACE && kind.onNode()) {
            return audit.undone(row.id(), NOT_OURS, "was in place before gpumeter acted; left as it is", now);
        }
        if (!result.holds()) {
            return Uni.createFrom().voidItem();
        }
        if (!runbook.undoesOnResolve(alert.alertname(), kind)) {
            return audit.undone(row.id(), KEPT, "the runbook keeps this after the alert resolves: "
                    + runbook.rollback(alert.alertname()), now);
        }
        // Only a change on a node is shared between alerts; a ticket belongs to its alert whatever host it went to.
        Uni<Boolean> heldByOthers = kind.onNode() ? audit.heldByOthers(row) : Uni.createFrom().item(false);
        return heldByOthers.chain(shared -> {
            if (shared) {
                return audit.undone(row.id(), KEPT_SHARED, "another firing alert still needs " + kind.label() + " on "
                        + row.target(), now);
            }
            if (runbook.mode(kind) != ActionMode.ENFORCE) {
                return audit.undone(row.id(), UNDO_DRY_RUN, "mode is now " + runbook.mode(kind).label() + "; nothing changed", now);
            }
            return reverse(alert, kind, row).chain(outcome -> {
                String undo = switch (outcome.result()) {
                    case APPLIED -> UNDONE;
                    case ALREADY_IN_PLACE -> NOT_OURS;
                    default -> UNDO_FAILED;
                };
                metrics.action(kind.label() + "-undo", undo);
                LOG.infof("undo %s for %s (%s): %s", kind.label(), alert.alertname(), alert.fingerprint(), outcome.detail());
                return audit.undone(row.id(), undo, outcome.detail(), now);
            });
        });
    }

    private Uni<Outcome> reverse(ReceivedAlert alert, ActionKind kind, StoredAction row) {
        String node = row.target();
        return switch (kind) {
            case CORDON -> blocking(() -> nodes.uncordon(node));
            case FREEZE_DECODE -> blocking(() -> nodes.unfreezeDecode(node, config.freezeDecode().taint()));
            case ANNOTATE -> blocking(() -> nodes.unannotate(node, NodePatches.alertAnnotation(alert.alertname())));
            case TICKET -> tickets.send(alert, true, payloads.runbookUrl(alert.alertname()));
            case TRACE_SNAPSHOT -> Uni.createFrom().item(Outcome.skipped("a trace snapshot is evidence; it stays"));
        };
    }

    private Uni<Integer> allowedCordons(Instant now) {
        return ledger.gpuNodes(now.minus(config.cordon().fleetWindow()), now).map(List::size)
                .onFailure().recoverWithItem(-1)
                .map(fleet -> BlastRadius.allowed(fleet, config.cordon().maxShare(), config.cordon().floor()));
    }

    private static Uni<Outcome> blocking(Supplier<Outcome> call) {
        return Uni.createFrom().item(call).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
    }

    private static String summary(ReceivedAlert alert) {
        String s = alert.annotations().get("summary");
        return s == null || s.isBlank() ? alert.alertname() : s;
    }

    private static StoredAction withResult(StoredAction a, Outcome o) {
        return new StoredAction(a.id(), a.alertFingerprint(), a.alertname(), a.startsAt(), a.action(), a.mode(), a.target(),
                o.result().name(), o.detail(), a.at(), a.resolvedAt(), a.undoResult(), a.undoDetail(), a.undoneAt());
    }
}
