package io.gpumeter.collector.client;

/** What the ledger did with host minutes: stored (new, or covering more of their minute), and already held. */
public record HostReceipt(int stored, int unchanged) {
}
