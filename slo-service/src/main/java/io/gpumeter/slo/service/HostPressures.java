package io.gpumeter.slo.service;

import io.gpumeter.common.client.Answers;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.client.HostClient;
import io.gpumeter.slo.client.HostSeries;
import io.gpumeter.slo.client.Occupant;
import io.gpumeter.slo.client.UsagePoint;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Reads the host's pressures on a service's pods around an event: one ledger host read for all its pods and their
 * nodes (one per cluster they ran in), beside the cards' usage series attribution read already, and hands both to
 * {@link PressureCurves}. A failed read is said in what could not be measured, never lost with the event.
 */
@ApplicationScoped
public class HostPressures {

    private final HostClient host;

    public HostPressures(HostClient host) {
        this.host = host;
    }

    /**
     * @param heldByPod    the units each of the service's pods held at the event's start
     * @param eventPods    the pods ("namespace/pod") with requests during the event
     * @param curve        the span of the curves
     * @param usage        the cards' usage series, or null when they could not be read
     * @param usageFailure why they could not be read
     */
    public Uni<PressureCurves.Found> read(Map<String, List<Occupant>> heldByPod, Set<String> eventPods, TimeWindow curve,
                                          Map<String, List<UsagePoint>> usage, String usageFailure) {
        List<PressureCurves.Placement> placements = new ArrayList<>();
        Map<String, Set<String>> podsByCluster = new TreeMap<>();
        Map<String, Set<String>> nodesByCluster = new TreeMap<>();
        for (String pod : eventPods) {
            List<Occupant> held = heldByPod.getOrDefault(pod, List.of()).stream()
                    .filter(o -> o.gpuUuid() != null && o.node() != null).toList();
            if (held.isEmpty()) {
                placements.add(new PressureCurves.Placement(pod, null, null, List.of()));
                continue;
            }
            Occupant first = held.get(0);
            placements.add(new PressureCurves.Placement(pod, first.cluster(), first.node(),
                    held.stream().map(Occupant::gpuUuid).distinct().sorted().toList()));
            String cluster = Objects.requireNonNullElse(first.cluster(), "");
            podsByCluster.computeIfAbsent(cluster, c -> new TreeSet<>()).add(pod);
            nodesByCluster.computeIfAbsent(cluster, c -> new TreeSet<>()).add(first.node());
        }
        List<String> failures = new ArrayList<>();
        return Multi.createFrom().iterable(podsByCluster.keySet())
                .onItem().transformToUniAndConcatenate(cluster -> host.series(cluster, podsByCluster.get(cluster),
                                nodesByCluster.get(cluster), curve)
                        .onFailure().recoverWithItem(e -> {
                            failures.add(Answers.reason(e));
                            return HostSeries.EMPTY;
                        }))
                .collect().asList()
                .map(answers -> {
                    List<HostSeries.ContainerPoint> containers = new ArrayList<>();
                    List<HostSeries.NodePoint> nodes = new ArrayList<>();
                    answers.forEach(a -> {
                        containers.addAll(a.containers());
                        nodes.addAll(a.nodes());
                    });
                    HostSeries read = failures.isEmpty() ? new HostSeries(containers, nodes) : null;
                    return PressureCurves.of(placements, new PressureCurves.Read(read,
                            failures.isEmpty() ? null : String.join("; ", failures), usage, usageFailure));
                });
    }
}
