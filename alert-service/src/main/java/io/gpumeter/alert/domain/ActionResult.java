package io.gpumeter.alert.domain;

/** How an action ended, as the audit shows it. */
public enum ActionResult {
    /** Being carried out. */
    PENDING,
    /** Done: gpumeter changed the target. */
    APPLIED,
    /** Dry-run: recorded what enforce would have done; nothing changed. */
    DRY_RUN,
    /** gpumeter already holds this for another firing alert; undone with the last of them. */
    SHARED,
    /** The target already had it from someone else; gpumeter never undoes it. */
    ALREADY_IN_PLACE,
    /** The blast-radius guard refused: too large a share of the GPU nodes would be cordoned. */
    REFUSED_BLAST_RADIUS,
    /** The ledger does not know the node or card the alert names, or could not be asked: nothing was touched. */
    REFUSED_UNKNOWN_TARGET,
    /** More of this action in the last hour than its rate limit allows. */
    RATE_LIMITED,
    /** Nothing to act on (no node label) or nothing configured (no ticket URL). */
    SKIPPED,
    /** The call failed; the detail says why. */
    FAILED;

    /** Whether gpumeter holds the change, so that a resolve may have to undo it. */
    public boolean holds() {
        return this == APPLIED || this == SHARED || this == PENDING;
    }
}
