package io.gpumeter.launcher.simulator;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The GPU stack's history in the watch stream: what a collector watching the simulated cluster is shown. */
class StackHistoryTest {

    static final Instant END = Instant.parse("2026-12-02T00:15:00Z");

    static Plan plan;

    @BeforeAll
    static void simulate() {
        plan = new FleetSimulator(42, END).plan();
    }

    private static List<SimEvent> versions(String kind, String name) {
        return plan.eventsOfKind(kind).filter(e -> e.object().getMetadata().getName().equals(name)).toList();
    }

    private static Map<String, String> labels(SimEvent e) {
        return e.object().getMetadata().getLabels();
    }

    private static String driver(SimEvent nodeVersion) {
        return labels(nodeVersion).get("nvidia.com/cuda.driver.major") + "." + labels(nodeVersion).get("nvidia.com/cuda.driver.minor")
                + "." + labels(nodeVersion).get("nvidia.com/cuda.driver.rev");
    }

    private static String cuda(SimEvent nodeVersion) {
        return labels(nodeVersion).get("nvidia.com/cuda.runtime.major") + "." + labels(nodeVersion).get("nvidia.com/cuda.runtime.minor");
    }

    private static String allocatable(SimEvent nodeVersion, String resource) {
        var q = ((Node) nodeVersion.object()).getStatus().getAllocatable().get(resource);
        return q == null ? null : q.toString();
    }

    private static String capacity(SimEvent nodeVersion, String resource) {
        var q = ((Node) nodeVersion.object()).getStatus().getCapacity().get(resource);
        return q == null ? null : q.toString();
    }

    private static String image(SimEvent daemonSetVersion) {
        return ((DaemonSet) daemonSetVersion.object()).getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
    }

    private static Pod pod(SimEvent e) {
        return (Pod) e.object();
    }

    /** The GPU stack's pod events, in order: pods owned by a DaemonSet. */
    private static List<SimEvent> stackPodEvents(String daemonSet, String node) {
        return plan.eventsOfKind("Pod").filter(e -> {
            Pod p = pod(e);
            return p.getMetadata().getOwnerReferences().stream().anyMatch(o -> o.getKind().equals("DaemonSet")
                    && o.getName().equals(daemonSet)) && node.equals(p.getSpec().getNodeName());
        }).toList();
    }

    private static boolean ready(Pod p) {
        return p.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Ready") && c.getStatus().equals("True"));
    }

    @Test
    void everyNodeFeatureDiscoveryRunsOnCarriesItsDriverAndCudaLabels() {
        for (SimNode node : plan.nodes()) {
            SimEvent first = versions("Node", node.name()).get(0);
            assertEquals(EventType.ADDED, first.type());
            assertEquals(plan.start(), first.at());
            if (node.pool() == GpuPool.DRA) {
                // no feature discovery there: the DRA driver publishes the cards, its kubelet plugin runs instead
                assertNull(labels(first).get("nvidia.com/cuda.driver.major"), node.name());
                assertEquals("false", labels(first).get("nvidia.com/gpu.deploy.gpu-feature-discovery"));
                assertEquals("false", labels(first).get("nvidia.com/gpu.deploy.device-plugin"));
                assertEquals("true", labels(first).get(StackComponent.DRA_NODE_LABEL));
                continue;
            }
            assertEquals("550.54.15", driver(first), node.name());
            assertEquals("12.4", cuda(first), node.name());
            // GFD v0.15 writes the same versions under the cuda.*-version names too
            assertEquals("550.54.15", labels(first).get("nvidia.com/cuda.driver-version.full"));
            assertEquals("15", labels(first).get("nvidia.com/cuda.driver-version.revision"));
            assertEquals("12.4", labels(first).get("nvidia.com/cuda.runtime-version.full"));
            assertEquals(Long.toString(plan.start().getEpochSecond()), labels(first).get("nvidia.com/gfd.timestamp"));
        }
    }

    @Test
    void oneNodesDriverIsUpgradedTwoDaysBeforeTheEndAsAModifiedNodeVersion() {
        StackPlan.DriverUpgrade upgrade = plan.stack().upgrade();
        assertEquals(END.minus(Duration.ofDays(2)), upgrade.at());
        assertEquals("gpu-a100-01", upgrade.node());
        List<SimEvent> changes = new ArrayList<>();
        for (SimNode node : plan.nodes()) {
            SimEvent before = null;
            for (SimEvent v : versions("Node", node.name())) {
                if (before != null && (!driver(before).equals(driver(v)) || !cuda(before).equals(cuda(v)))) {
                    changes.add(v);
                    assertEquals("550.54.15", driver(before));
                    assertEquals("12.4", cuda(before));
                }
                before = v;
            }
        }
        assertEquals(1, changes.size(), "one node upgraded, once");
        SimEvent upgraded = changes.get(0);
        assertEquals(EventType.MODIFIED, upgraded.type());
        assertEquals(upgrade.node(), upgraded.object().getMetadata().getName());
        assertEquals(upgrade.at(), upgraded.at());
        assertEquals("560.35.03", driver(upgraded));
        assertEquals("560.35.03", labels(upgraded).get("nvidia.com/cuda.driver-version.full"));
        assertEquals("12.6", cuda(upgraded));
        assertEquals("12.6", labels(upgraded).get("nvidia.com/cuda.runtime-version.full"));
        assertEquals(Long.toString(upgrade.at().getEpochSecond()), labels(upgraded).get("nvidia.com/gfd.timestamp"));

        // the operator's driver DaemonSet was given the new driver first, and only this node's pod was replaced
        List<SimEvent> driverSet = versions("DaemonSet", "nvidia-driver-daemonset");
        SimEvent rollout = driverSet.stream().filter(e -> image(e).equals(upgrade.imageAfter())).findFirst().orElseThrow();
        assertTrue(rollout.at().isBefore(upgrade.at()));
        assertEquals("OnDelete", ((DaemonSet) rollout.object()).getSpec().getUpdateStrategy().getType());
        assertEquals("nvcr.io/nvidia/driver:550.54.15-ubuntu22.04", image(driverSet.get(0)));
        List<SimEvent> onNode = stackPodEvents("nvidia-driver-daemonset", upgrade.node());
        SimEvent gone = onNode.stream().filter(e -> e.type() == EventType.DELETED).findFirst().orElseThrow();
        assertEquals(upgrade.imageBefore(), pod(gone).getSpec().getContainers().get(0).getImage());
        SimEvent readyAgain = onNode.stream().filter(e -> e.at().isAfter(gone.at()) && ready(pod(e))).findFirst().orElseThrow();
        assertEquals(upgrade.imageAfter(), pod(readyAgain).getSpec().getContainers().get(0).getImage());
        assertTrue(readyAgain.at().isBefore(upgrade.at()), "the new driver ran before feature discovery relabelled");
        for (StackPlan.LivePod p : plan.stack().pods()) {
            if (p.daemonSet().equals("nvidia-driver-daemonset")) {
                assertEquals(p.node().equals(upgrade.node()) ? upgrade.imageAfter() : upgrade.imageBefore(), p.image());
            }
        }
    }

    @Test
    void theMigNodeIsCutIntoItsLayoutPendingFirstThenSuccessMinutesLater() {
        StackPlan.MigReconfiguration mig = plan.stack().mig();
        List<SimEvent> v = versions("Node", mig.node());
        assertEquals(3, v.size(), "added, pending, success");
        assertEquals("all-disabled", labels(v.get(0)).get("nvidia.com/mig.config"));
        assertEquals("success", labels(v.get(0)).get("nvidia.com/mig.config.state"));
        assertEquals("8", capacity(v.get(0), "nvidia.com/gpu"), "MIG off: whole cards");
        assertNull(labels(v.get(0)).get("nvidia.com/mig-1g.10gb.count"));

        assertEquals(mig.pendingAt(), v.get(1).at());
        assertEquals("all-balanced", labels(v.get(1)).get("nvidia.com/mig.config"));
        assertEquals("pending", labels(v.get(1)).get("nvidia.com/mig.config.state"));

        assertEquals(mig.appliedAt(), v.get(2).at());
        assertEquals(Duration.ofMinutes(5), Duration.between(mig.pendingAt(), mig.appliedAt()));
        assertEquals("all-balanced", labels(v.get(2)).get("nvidia.com/mig.config"));
        assertEquals("success", labels(v.get(2)).get("nvidia.com/mig.config.state"));
        assertEquals("16", labels(v.get(2)).get("nvidia.com/mig-1g.10gb.count"));
        assertEquals("16", allocatable(v.get(2), "nvidia.com/mig-1g.10gb"));
        assertEquals("8", allocatable(v.get(2), "nvidia.com/mig-3g.40gb"));
        assertEquals("0", capacity(v.get(2), "nvidia.com/gpu"));
        // no MIG work is bound before the layout is there
        assertTrue(plan.pods().stream().filter(p -> p.pool() == GpuPool.MIG && p.scheduledAt() != null)
                .allMatch(p -> !p.scheduledAt().isBefore(mig.appliedAt())));
    }

    @Test
    void theDevicePluginCrashLoopsTwentyMinutesWhileItsNodeOffersNoGpusAndAJobWaits() {
        StackPlan.CrashLoop loop = plan.stack().crashLoop();
        assertEquals(END.minus(Duration.ofHours(20)), loop.from());
        assertEquals("gpu-a100-01", loop.node());
        Duration length = Duration.between(loop.from(), loop.to());
        assertTrue(length.compareTo(Duration.ofMinutes(20)) >= 0 && length.compareTo(Duration.ofMinutes(26)) < 0,
                "about twenty minutes: " + length);

        // the pod: waiting in CrashLoopBackOff, its restarts climbing, then running and ready
        List<SimEvent> pluginEvents = stackPodEvents("nvidia-device-plugin-daemonset", loop.node());
        List<SimEvent> crashing = pluginEvents.stream().filter(e -> mainStatus(e).getState().getWaiting() != null
                && "CrashLoopBackOff".equals(mainStatus(e).getState().getWaiting().getReason())).toList();
        assertTrue(crashing.size() >= 5, "restarts: " + crashing.size());
        assertEquals(loop.from(), crashing.get(0).at());
        int restarts = -1;
        for (SimEvent e : crashing) {
            assertEquals(loop.pod(), e.object().getMetadata().getName());
            assertTrue(!e.at().isBefore(loop.from()) && e.at().isBefore(loop.to()), e.at().toString());
            assertTrue(mainStatus(e).getRestartCount() > restarts, "restarts climb");
            restarts = mainStatus(e).getRestartCount();
            assertFalse(ready(pod(e)));
            assertEquals("Error", mainStatus(e).getLastState().getTerminated().getReason());
        }
        SimEvent back = pluginEvents.stream().filter(e -> e.at().equals(loop.to())).findFirst().orElseThrow();
        assertTrue(ready(pod(back)));
        assertTrue(mainStatus(back).getRestartCount() > restarts);
        assertNotNull(mainStatus(back).getState().getRunning());

        // the node: allocatable nvidia.com/gpu 0 while the plugin is down, its capacity kept
        List<SimEvent> node = versions("Node", loop.node());
        SimEvent down = node.stream().filter(e -> "0".equals(allocatable(e, "nvidia.com/gpu"))).findFirst().orElseThrow();
        assertEquals(loop.allocatableDownAt(), down.at());
        assertTrue(Duration.between(loop.from(), down.at()).toSeconds() <= 10);
        assertEquals("8", capacity(down, "nvidia.com/gpu"));
        SimEvent up = node.get(node.indexOf(down) + 1);
        assertEquals(loop.allocatableUpAt(), up.at());
        assertTrue(Duration.between(loop.to(), up.at()).toSeconds() <= 10);
        assertEquals("8", allocatable(up, "nvidia.com/gpu"));
        assertTrue(node.stream().filter(e -> "0".equals(allocatable(e, "nvidia.com/gpu"))).count() == 1);
        // no pod is bound to the node meanwhile
        assertTrue(plan.pods().stream().filter(p -> loop.node().equals(p.nodeName())).noneMatch(p ->
                !p.scheduledAt().isBefore(loop.allocatableDownAt()) && p.scheduledAt().isBefore(loop.allocatableUpAt())));

        // the job: refused for want of nvidia.com/gpu while the node offers none, bound once it offers them again
        SimPod job = plan.pod(loop.waitingPod()).orElseThrow();
        assertTrue(job.createdAt().isAfter(loop.allocatableDownAt()) && job.createdAt().isBefore(loop.to()));
        assertEquals(loop.node(), job.nodeName());
        assertTrue(!job.scheduledAt().isBefore(loop.allocatableUpAt())
                && job.scheduledAt().isBefore(loop.allocatableUpAt().plusSeconds(10)), job.scheduledAt().toString());
        List<SimEvent> jobEvents = plan.eventsOfKind("Pod").filter(e -> e.object().getMetadata().getUid().equals(job.uid())).toList();
        PodCondition refused = jobEvents.stream().filter(e -> e.at().isBefore(job.scheduledAt()))
                .flatMap(e -> pod(e).getStatus().getConditions().stream())
                .filter(c -> c.getType().equals("PodScheduled") && c.getStatus().equals("False")).findFirst().orElseThrow();
        assertEquals("Unschedulable", refused.getReason());
        assertTrue(refused.getMessage().matches("0/5 nodes are available: .*Insufficient nvidia\\.com/gpu.*"),
                refused.getMessage());
        assertEquals("Job", job.owner().kind());
        assertEquals("NVIDIA-A100-SXM4-80GB", pod(jobEvents.get(0)).getSpec().getNodeSelector().get("nvidia.com/gpu.product"));
        List<Event> failed = plan.eventsOfKind("Event").map(e -> (Event) e.object())
                .filter(e -> e.getInvolvedObject().getUid().equals(job.uid())).toList();
        assertTrue(failed.size() >= 2, "the scheduler tried again: " + failed.size());
        int count = 0;
        for (Event e : failed) {
            assertEquals("FailedScheduling", e.getReason());
            assertEquals("Warning", e.getType());
            assertEquals(refused.getMessage(), e.getMessage());
            int now = e.getSeries() == null ? 1 : e.getSeries().getCount();
            assertTrue(now > count);
            count = now;
            Instant last = e.getSeries() == null ? Instant.parse(e.getEventTime().getTime())
                    : Instant.parse(e.getSeries().getLastObservedTime().getTime());
            assertTrue(last.isBefore(job.scheduledAt()));
        }
    }

    private static ContainerStatus mainStatus(SimEvent e) {
        return pod(e).getStatus().getContainerStatuses().get(0);
    }

    @Test
    void theDcgmExporterImageIsUpdatedSixHoursBeforeTheEndAndRolledOneNodeAtATime() {
        StackPlan.ImageUpdate update = plan.stack().dcgmExporter();
        assertEquals(END.minus(Duration.ofHours(6)), update.at());
        assertEquals("nvcr.io/nvidia/k8s/dcgm-exporter:3.3.5-3.4.1-ubuntu22.04", update.imageBefore());
        assertEquals("nvcr.io/nvidia/k8s/dcgm-exporter:3.3.7-3.5.0-ubuntu22.04", update.imageAfter());
        List<SimEvent> set = versions("DaemonSet", update.daemonSet());
        List<SimEvent> imageChanges = new ArrayList<>();
        for (int i = 1; i < set.size(); i++) {
            if (!image(set.get(i - 1)).equals(image(set.get(i)))) {
                imageChanges.add(set.get(i));
            }
        }
        assertEquals(1, imageChanges.size());
        SimEvent changed = imageChanges.get(0);
        assertEquals(EventType.MODIFIED, changed.type());
        assertEquals(update.at(), changed.at());
        assertEquals(update.imageAfter(), image(changed));
        assertEquals(2L, changed.object().getMetadata().getGeneration());

        // every node's pod replaced with the new image, never more than one node without a ready one
        Map<String, Boolean> readyByNode = new HashMap<>();
        Set<String> renewed = new TreeSet<>();
        for (SimEvent e : plan.eventsOfKind("Pod").filter(e -> e.object().getMetadata().getName()
                .startsWith(update.daemonSet() + "-")).toList()) {
            Pod p = pod(e);
            boolean isReady = e.type() != EventType.DELETED && p.getMetadata().getDeletionTimestamp() == null && ready(p);
            readyByNode.put(p.getMetadata().getUid(), isReady);
            if (isReady && p.getSpec().getContainers().get(0).getImage().equals(update.imageAfter())) {
                assertTrue(e.at().isAfter(update.at()));
                renewed.add(p.getSpec().getNodeName());
            }
            if (e.at().isAfter(update.at())) {
                long readyNow = readyByNode.values().stream().filter(b -> b).count();
                assertTrue(readyNow >= 4, "at most one unavailable: " + readyNow + " at " + e.at());
            }
        }
        assertEquals(5, renewed.size(), "every node's dcgm-exporter: " + renewed);
        assertTrue(plan.stack().pods().stream().filter(p -> p.daemonSet().equals(update.daemonSet()))
                .allMatch(p -> p.image().equals(update.imageAfter())));
    }

    @Test
    void theStacksPodsRunReadyOnEveryNodeTheirDaemonSetSelectsAndAskForNoGpu() {
        Map<String, Set<String>> byNode = new HashMap<>();
        Set<String> daemonSetUids = new HashSet<>();
        plan.eventsOfKind("DaemonSet").forEach(e -> daemonSetUids.add(e.object().getMetadata().getUid()));
        for (SimEvent e : plan.eventsOfKind("Pod").filter(e -> e.at().equals(plan.start())).toList()) {
            Pod p = pod(e);
            assertTrue(ready(p), p.getMetadata().getName());
            assertTrue(daemonSetUids.contains(p.getMetadata().getOwnerReferences().get(0).getUid()));
            p.getSpec().getContainers().forEach(c -> assertTrue(c.getResources() == null
                    || c.getResources().getLimits() == null || c.getResources().getLimits().isEmpty()));
            byNode.computeIfAbsent(p.getSpec().getNodeName(), n -> new TreeSet<>())
                    .add(p.getMetadata().getOwnerReferences().get(0).getName());
        }
        Set<String> operator = Set.of("nvidia-driver-daemonset", "nvidia-container-toolkit-daemonset",
                "nvidia-dcgm-exporter");
        for (SimNode node : plan.nodes()) {
            Set<String> sets = byNode.get(node.name());
            assertTrue(sets.containsAll(operator), node.name() + ": " + sets);
            switch (node.pool()) {
                case WHOLE_CARD, MIG -> assertTrue(sets.containsAll(Set.of("nvidia-device-plugin-daemonset",
                        "nvidia-mig-manager", "gpu-feature-discovery")), sets.toString());
                case HAMI -> {
                    assertTrue(sets.containsAll(Set.of("hami-device-plugin", "gpu-feature-discovery")), sets.toString());
                    assertFalse(sets.contains("nvidia-device-plugin-daemonset"), "HAMi's device plugin instead");
                }
                case DRA -> assertEquals(new TreeSet<>(Set.of("nvidia-driver-daemonset", "nvidia-container-toolkit-daemonset",
                        "nvidia-dcgm-exporter", "nvidia-dra-driver-gpu-kubelet-plugin")), sets);
            }
        }
        // the operator's images are NVIDIA's, each with its version
        plan.eventsOfKind("DaemonSet").filter(e -> e.object().getMetadata().getNamespace().equals("gpu-operator"))
                .forEach(e -> assertTrue(image(e).matches("nvcr\\.io/nvidia/[a-z0-9/-]+:v?\\d+\\.\\d+\\.\\d+.*"), image(e)));
    }
}
