package io.gpumeter.common.triage;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.UsageBatch;

/**
 * Every fact a triage read, each half as the ledger's intake takes it, so that a regression case replays them into a
 * fresh suite and triages to the same cause: {@code bundle} for {@code POST /api/v1/facts/bundles} (the metering facts
 * — namespaces, nodes with their HAMi registrations, pod versions — and the governance facts), {@code usage} for
 * {@code POST /api/v1/usage} (the minutes of the cards' series the triage read, as per-minute partials).
 *
 * @param cluster the cluster every fact belongs to, as both halves name it
 * @param usage   null or empty when the triage read no usage
 */
public record InputBundle(String cluster, FactBundle bundle, UsageBatch usage) {

    /** Inputs kept before the metering facts and usage were: the governance facts alone. */
    public static InputBundle governanceOnly(GovernanceBatch governance) {
        return new InputBundle(governance.cluster(), new FactBundle(null, governance), null);
    }

    /** The metering half, or null. */
    public FactBatch facts() {
        return bundle == null ? null : bundle.facts();
    }

    /** The governance half, or null. */
    public GovernanceBatch governance() {
        return bundle == null ? null : bundle.governance();
    }

    /** How many facts and usage values it holds. */
    public int size() {
        return (facts() == null ? 0 : facts().size()) + (governance() == null ? 0 : governance().size())
                + (usage == null ? 0 : usage.values());
    }
}
