package io.gpumeter.alert.domain;

/**
 * Decides whether a runbook action may run, before anything is called: the ledger must know the node or card the
 * alert names, a target is needed, gpumeter does not act twice on a target it already holds for another alert, a
 * rate limit per hour, and for cordons the blast radius.
 */
public final class ActionPolicy {

    private ActionPolicy() {
    }

    /** What is known when an action is claimed. */
    public record Facts(boolean hasTarget, int recentAttempts, int maxPerHour, int otherHolders, int cordonedNodes,
                        int allowedCordons) {
    }

    /**
     * As {@link #decide(ActionKind, ActionMode, Facts)}, but an alert naming a node or card the ledger does not know
     * is refused before anything else is weighed, in dry-run too: that is what enforce would do.
     */
    public static ActionResult decide(ActionKind kind, ActionMode mode, Facts facts, boolean targetKnown) {
        return targetKnown ? decide(kind, mode, facts) : ActionResult.REFUSED_UNKNOWN_TARGET;
    }

    /**
     * @return PENDING when the action is to be carried out now; otherwise the final result: SKIPPED, SHARED,
     * RATE_LIMITED, REFUSED_BLAST_RADIUS or DRY_RUN
     */
    public static ActionResult decide(ActionKind kind, ActionMode mode, Facts facts) {
        if (!facts.hasTarget()) {
            return ActionResult.SKIPPED;
        }
        if (kind.onNode() && facts.otherHolders() > 0) {
            return mode == ActionMode.ENFORCE ? ActionResult.SHARED : ActionResult.DRY_RUN;
        }
        if (facts.recentAttempts() >= facts.maxPerHour()) {
            return ActionResult.RATE_LIMITED;
        }
        if (kind == ActionKind.CORDON && facts.cordonedNodes() + 1 > facts.allowedCordons()) {
            return ActionResult.REFUSED_BLAST_RADIUS;
        }
        return mode == ActionMode.ENFORCE ? ActionResult.PENDING : ActionResult.DRY_RUN;
    }
}
