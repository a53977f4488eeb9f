package io.gpumeter.ledger.rest;

import java.util.List;

/**
 * A bulk host read: the cluster, the window, the pods as "namespace/pod" and the nodes by name.
 */
public record HostSeriesRequest(String cluster, String from, String to, List<String> pods, List<String> nodes) {
}
