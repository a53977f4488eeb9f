package io.gpumeter.collector.host;

/**
 * One sample of a host series as a minute reads it.
 *
 * @param container the container, "" for the pod itself (its cgroup, or its sandbox's network); null for a node's
 *                  series (then namespace and pod are null too)
 * @param series    what tells this series from the others adding up to the same quantity of the same row: the
 *                  cgroup, CPU and mode, device or interface; a counter's increases are taken series by series
 * @param atMs      the sample's own timestamp, else when its body arrived
 */
public record HostReading(String namespace, String pod, String container, HostSlot slot, String series, double value,
                          long atMs) {

    /** The row the reading adds to: "namespace/pod/container", or "" for the node. */
    String row() {
        return container == null ? "" : namespace + '/' + pod + '/' + container;
    }
}
