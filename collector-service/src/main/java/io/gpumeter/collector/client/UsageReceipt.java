package io.gpumeter.collector.client;

/** The ledger's answer to a usage batch: samples counted for the first time, already counted, pods newly bound. */
public record UsageReceipt(int accepted, int duplicates, int podsBound) {
}
