package io.gpumeter.collector.service;

/**
 * What a host push (or one node's part of a scrape or pull) did.
 *
 * @param samples  samples read from the body
 * @param kept     readings of GPU pods' cgroups or of a GPU node, taken into their minutes
 * @param unknown  samples of metrics not read
 * @param other    samples of anything but a GPU pod or a GPU node (system cgroups, other pods, virtual devices)
 * @param minutes  minutes the body closed, sent or held for the ledger
 * @param buffered whether closed minutes are held for the ledger rather than delivered before answering
 */
public record HostIngestResult(String cluster, String node, int samples, int kept, int unknown, int other, int minutes,
                               boolean buffered) {
}
