package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.launcher.simulator.StackObjects.Counts;
import static io.gpumeter.launcher.simulator.StackPodObjects.Stage;
import static io.gpumeter.launcher.simulator.StackPodObjects.View;

/**
 * The stack's DaemonSets and the pods they keep on every GPU node they select, and how each change replaces or
 * restarts those pods: the driver's upgrade node by hand (OnDelete), the device plugin's crash loop under the
 * kubelet's back-off, the dcgm-exporter's rolling update one node at a time.
 */
final class StackRollouts {

    private final long seed;
    private final Ids ids;
    private final StackInstants when;
    private final List<SimNode> nodes;
    private final SimNode wholeCard;
    private final String policyUid;
    private final Map<StackComponent, String> daemonSetUids = new EnumMap<>(StackComponent.class);
    /** Each component's pods of the moment, by node name. */
    private final Map<StackComponent, Map<String, StackPod>> live = new EnumMap<>(StackComponent.class);

    StackRollouts(long seed, Ids ids, StackInstants when, List<SimNode> nodes, SimNode wholeCard) {
        this.seed = seed;
        this.ids = ids;
        this.when = when;
        this.nodes = List.copyOf(nodes);
        this.wholeCard = wholeCard;
        this.policyUid = ids.uid();
        for (StackComponent c : StackComponent.values()) {
            daemonSetUids.put(c, ids.uid());
        }
    }

    /** Every DaemonSet, then its pods on every node it selects, ready from the start. */
    void install(Timeline timeline) {
        Instant start = when.start();
        for (StackComponent c : StackComponent.values()) {
            timeline.add(start, EventType.ADDED, daemonSet(c, 1, c.image(), counts(c, 0, 0)));
        }
        for (StackComponent c : StackComponent.values()) {
            for (SimNode node : selected(c)) {
                StackPod pod = newPod(c, node, c.image(), 1, start);
                timeline.add(start, EventType.ADDED, pod(pod, View.of(Stage.READY, start.plusSeconds(3))));
            }
        }
    }

    /** The stack's pods at the end of the history. */
    List<StackPlan.LivePod> livePods() {
        List<StackPlan.LivePod> pods = new ArrayList<>();
        live.forEach((c, byNode) -> byNode.values().forEach(p -> pods.add(new StackPlan.LivePod(c.namespace(), p.name(),
                c.daemonSet(), p.node().name(), p.image()))));
        return pods;
    }

    /**
     * The ClusterPolicy names the new driver (the DaemonSet's template changes, its pods stay: OnDelete); the upgraded
     * node's driver pod is deleted, its successor builds the modules and passes its startup probe, and feature
     * discovery relabels the node (see {@link StackHistory#nodeChanges}).
     */
    void upgradeDriver(Timeline timeline) {
        StackComponent c = StackComponent.DRIVER;
        int desired = selected(c).size();
        timeline.add(when.rolloutAt(), EventType.MODIFIED, daemonSet(c, 2, StackComponent.NEXT_DRIVER_IMAGE,
                new Counts(desired, desired, 0)));
        Instant deleted = when.driverPodDeletedAt();
        stop(timeline, c, wholeCard, deleted, 20);
        timeline.add(deleted.plusSeconds(21), EventType.MODIFIED, daemonSet(c, 2,
                StackComponent.NEXT_DRIVER_IMAGE, new Counts(desired, desired - 1, 0)));
        StackPod next = newPod(c, wholeCard, StackComponent.NEXT_DRIVER_IMAGE, 2, deleted.plusSeconds(22));
        timeline.add(next.createdAt(), EventType.ADDED, pod(next, View.of(Stage.CREATING, next.createdAt())));
        Instant started = next.createdAt().plusSeconds(20);
        timeline.add(started, EventType.MODIFIED, pod(next, View.of(Stage.STARTING, started)));
        Instant ready = when.driverReadyAt();
        timeline.add(ready, EventType.MODIFIED, pod(next, View.of(Stage.READY, ready)));
        timeline.add(ready, EventType.MODIFIED, daemonSet(c, 2, StackComponent.NEXT_DRIVER_IMAGE,
                new Counts(desired, desired, 1)));
    }

    /**
     * The device plugin of the whole-card node fails every time it starts, and the kubelet backs off 10 s, 20 s, …
     * up to 300 s between restarts; at {@link StackInstants#crashTo} it starts and stays up. Returns the pod's name.
     */
    String crashLoop(Timeline timeline) {
        StackComponent c = StackComponent.DEVICE_PLUGIN;
        StackPod pod = live.get(c).get(wholeCard.name());
        int desired = selected(c).size();
        timeline.add(when.crashFrom(), EventType.MODIFIED, daemonSet(c, 1, c.image(),
                new Counts(desired, desired - 1, desired)));
        Instant runStart = when.start().plusSeconds(3);
        List<Instant> failures = when.failures();
        for (int k = 0; k < failures.size(); k++) {
            Instant failure = failures.get(k);
            timeline.add(failure, EventType.MODIFIED, pod(pod, new View(Stage.CRASH_LOOP, when.crashFrom(), k,
                    runStart, failure, StackInstants.backOff(k), null, null)));
            if (k < failures.size() - 1) {
                runStart = failure.plusSeconds(StackInstants.backOff(k));
            }
        }
        Instant lastFailure = failures.get(failures.size() - 1);
        Instant up = when.crashTo();
        timeline.add(up, EventType.MODIFIED, pod(pod, new View(Stage.READY, up, failures.size(),
                runStart, lastFailure, 0, null, null)));
        timeline.add(up, EventType.MODIFIED, daemonSet(c, 1, c.image(),
                new Counts(desired, desired, desired)));
        return pod.name();
    }

    /** The dcgm-exporter DaemonSet's new image, rolled node by node, one unavailable at a time. */
    void rollDcgmExporter(Timeline timeline) {
        StackComponent c = StackComponent.DCGM_EXPORTER;
        String image = StackComponent.NEXT_DCGM_EXPORTER_IMAGE;
        List<SimNode> order = selected(c);
        int desired = order.size();
        Instant at = when.dcgmUpdateAt();
        timeline.add(at, EventType.MODIFIED, daemonSet(c, 2, image, new Counts(desired, desired, 0)));
        at = at.plusSeconds(2);
        int updated = 0;
        for (SimNode node : order) {
            stop(timeline, c, node, at, 2);
            timeline.add(at.plusSeconds(3), EventType.MODIFIED, daemonSet(c, 2, image,
                    new Counts(desired, desired - 1, updated)));
            StackPod next = newPod(c, node, image, 2, at.plusSeconds(4));
            timeline.add(next.createdAt(), EventType.ADDED, pod(next, View.of(Stage.CREATING, next.createdAt())));
            Instant ready = next.createdAt().plusSeconds(20);
            timeline.add(ready, EventType.MODIFIED, pod(next, View.of(Stage.READY, ready)));
            updated++;
            timeline.add(ready, EventType.MODIFIED, daemonSet(c, 2, image, new Counts(desired, desired, updated)));
            at = ready.plusSeconds(1);
        }
    }

    /**
     * Deletes a component's pod on a node the way a graceful delete goes: marked at {@code at} with 30 s of grace,
     * its containers stopped {@code stopSeconds} later, then gone.
     */
    private void stop(Timeline timeline, StackComponent c, SimNode node, Instant at, long stopSeconds) {
        StackPod old = live.get(c).remove(node.name());
        Instant deadline = at.plusSeconds(30);
        View running = View.of(Stage.READY, old.createdAt().plusSeconds(3));
        timeline.add(at, EventType.MODIFIED, pod(old, running.deleting(deadline, 30)));
        Instant stopped = at.plusSeconds(stopSeconds);
        View done = View.of(Stage.STOPPED, stopped);
        timeline.add(stopped, EventType.MODIFIED, pod(old, done.deleting(deadline, 30)));
        timeline.add(stopped.plusSeconds(1), EventType.DELETED, pod(old, done.deleting(at, 0)));
    }

    private List<SimNode> selected(StackComponent c) {
        return nodes.stream().filter(n -> c.runsOn(n.pool())).sorted(Comparator.comparing(SimNode::name)).toList();
    }

    private Counts counts(StackComponent c, int notReady, int updatedLess) {
        int desired = selected(c).size();
        return new Counts(desired, desired - notReady, desired - updatedLess);
    }

    private StackPod newPod(StackComponent c, SimNode node, String image, long generation, Instant created) {
        List<String> containerIds = new ArrayList<>();
        c.containers().forEach(name -> containerIds.add(ids.containerId()));
        String podIp = NodeObjects.podCidr(node).replace(".0/24", "." + (200 + c.ordinal() * 4 + (int) generation));
        StackPod pod = new StackPod(c, node, c.daemonSet() + "-" + ids.suffix(5), ids.uid(), image, generation,
                Ids.templateHash(seed, c.namespace() + "/" + c.daemonSet(), (int) generation), created, podIp,
                containerIds);
        live.computeIfAbsent(c, k -> new LinkedHashMap<>()).put(node.name(), pod);
        return pod;
    }

    private Pod pod(StackPod pod, View view) {
        return StackPodObjects.pod(pod, daemonSetUids.get(pod.component()), view);
    }

    private DaemonSet daemonSet(StackComponent c, long generation, String image, Counts counts) {
        return StackObjects.daemonSet(c, daemonSetUids.get(c), policyUid, when.start(), generation, image, counts);
    }
}
