package io.gpumeter.ledger.supply.domain;

import io.gpumeter.common.triage.FailureCause;
import io.gpumeter.common.triage.XidClass;

import java.util.List;
import java.util.Set;

/**
 * Which incidents of the failure book are a card failing, for the supply a capacity plan reads: the card itself
 * needs a reset, a drain or a replacement before it serves again. These are the incidents of the book's card and
 * node scopes with cause
 * <ul>
 * <li>{@code gpu-lost} — Xid 79, or a card gone from its node's registration;</li>
 * <li>{@code gpu-health} — the card's memory needs a reset or a replacement (row remapping, double-bit ECC, pages
 * pending retirement);</li>
 * <li>{@code xid-N} for every Xid not of the application class — hardware and driver Xids, and the codes the
 * catalogue does not class, which the book likewise keeps open until the card is reset.</li>
 * </ul>
 * Left out: application Xids (the workload's own fault; the card serves on, the book recovers them at once), MIG
 * reconfigurations, failed and inconsistent MIG layouts (an operator's change of layout, not the card), and every
 * pod-scope cause (what a workload suffered: its card's own failure, if any, is counted once, on the card).
 */
public final class CardFailures {

    /** The scopes of the failure book that name a card or its node rather than a pod. */
    public static final List<String> SCOPES = List.of("gpu", "dcgm", "dcgm-health", "node");

    private static final Set<String> CAUSES = Set.of(FailureCause.GPU_LOST.label(), FailureCause.GPU_HEALTH.label());

    private CardFailures() {
    }

    public static boolean counts(String scope, String cause) {
        if (!SCOPES.contains(scope) || cause == null) {
            return false;
        }
        return CAUSES.contains(cause) || XidClass.code(cause).map(code -> XidClass.of(code) != XidClass.APPLICATION).orElse(false);
    }
}
