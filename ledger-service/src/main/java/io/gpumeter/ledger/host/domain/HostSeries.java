package io.gpumeter.ledger.host.domain;

import java.util.List;

/** Host spans of the pods and nodes a bulk read named, over its window, ordered by pod or node, then time. */
public record HostSeries(List<HostContainerPoint> containers, List<HostNodePoint> nodes) {
}
