package io.gpumeter.launcher.kube;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.gpumeter.launcher.simulator.EventType;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.SimEvent;
import io.gpumeter.launcher.simulator.StackPlan;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SimulatedApiServerTest {

    private record Seen(Watcher.Action action, Pod pod) {
    }

    @Test
    void aWatcherSeesTheHistoryWithItsOwnUidsTimesAndTerminatingStates() throws Exception {
        FleetSimulator simulator = new FleetSimulator(42, Instant.parse("2026-11-30T04:43:00Z"));
        Plan plan = simulator.plan();
        List<Seen> seen = new CopyOnWriteArrayList<>();
        try (SimulatedApiServer server = SimulatedApiServer.start();
             Watch watch = server.client().pods().inAnyNamespace().watch(new Watcher<>() {
                 @Override
                 public void eventReceived(Action action, Pod pod) {
                     seen.add(new Seen(action, pod));
                 }

                 @Override
                 public void onClose(WatcherException cause) {
                 }
             })) {
            assertTrue(server.awaitWatches(List.of("pods"), Duration.ofSeconds(10)));
            simulator.applyTo(server.client());

            List<SimEvent> podEvents = plan.eventsOfKind("Pod").toList();
            long deletes = podEvents.stream().filter(e -> e.type() == EventType.DELETED).count();
            await("every deletion to be watched").atMost(Duration.ofSeconds(30))
                    .until(() -> seen.stream().filter(s -> s.action() == Watcher.Action.DELETED).count() >= deletes);
            Map<String, Pod> lastSeen = new HashMap<>();
            List<Seen> copy = List.copyOf(seen);
            copy.forEach(s -> lastSeen.put(s.pod().getMetadata().getUid() + "/" + s.action(), s.pod()));
            assertEquals(podEvents.stream().filter(e -> e.type() == EventType.ADDED).count(),
                    copy.stream().filter(s -> s.action() == Watcher.Action.ADDED).count());
            assertEquals(deletes, copy.stream().filter(s -> s.action() == Watcher.Action.DELETED).count());
            for (SimEvent e : podEvents) {
                Pod sent = (Pod) e.object();
                if (e.type() == EventType.DELETED) {
                    Pod received = lastSeen.get(sent.getMetadata().getUid() + "/DELETED");
                    assertNotNull(received, sent.getMetadata().getName());
                    assertEquals(sent.getMetadata().getCreationTimestamp(), received.getMetadata().getCreationTimestamp());
                    assertEquals(sent.getMetadata().getDeletionTimestamp(), received.getMetadata().getDeletionTimestamp());
                    assertEquals(sent.getStatus(), received.getStatus());
                    assertTrue(received.getMetadata().getFinalizers().isEmpty());
                }
            }
            assertTrue(copy.stream().anyMatch(s -> s.action() == Watcher.Action.MODIFIED
                    && s.pod().getMetadata().getDeletionGracePeriodSeconds() != null
                    && s.pod().getMetadata().getDeletionGracePeriodSeconds() == 30L
                    && "Running".equals(s.pod().getStatus().getPhase())), "a terminating pod was seen as such");
            // the GPU pods alive at the end, and the GPU stack's
            assertEquals(plan.pods().stream().filter(p -> p.deletedAt() == null).count() + plan.stack().pods().size(),
                    server.client().pods().inAnyNamespace().list().getItems().size());
        }
    }

    @Test
    void theGpuStacksDaemonSetsAndPodsReachAWatcherAndStayAsTheHistoryLeftThem() throws Exception {
        FleetSimulator simulator = new FleetSimulator(42, Instant.parse("2026-11-30T04:43:00Z"));
        Plan plan = simulator.plan();
        List<DaemonSet> daemonSets = new CopyOnWriteArrayList<>();
        List<Pod> stackPods = new CopyOnWriteArrayList<>();
        try (SimulatedApiServer server = SimulatedApiServer.start();
             Watch sets = server.client().apps().daemonSets().inNamespace("gpu-operator").watch(collect(daemonSets));
             Watch pods = server.client().pods().inNamespace("gpu-operator").watch(collect(stackPods))) {
            assertTrue(server.awaitWatches(List.of("daemonsets", "pods"), Duration.ofSeconds(10)));
            simulator.applyTo(server.client());
            long expected = plan.events().stream().filter(e -> e.kind().equals("DaemonSet")
                    && e.object().getMetadata().getNamespace().equals("gpu-operator")).count();
            await("every version of the operator's DaemonSets").atMost(Duration.ofSeconds(30))
                    .until(() -> daemonSets.size() >= expected);
            assertEquals(expected, daemonSets.size(), "every version of the operator's DaemonSets");
            StackPlan.ImageUpdate update = plan.stack().dcgmExporter();
            assertTrue(daemonSets.stream().anyMatch(d -> d.getMetadata().getName().equals(update.daemonSet())
                    && d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage().equals(update.imageAfter())));
            StackPlan.CrashLoop loop = plan.stack().crashLoop();
            assertTrue(stackPods.stream().anyMatch(p -> p.getMetadata().getName().equals(loop.pod())
                    && "CrashLoopBackOff".equals(p.getStatus().getContainerStatuses().get(0).getState().getWaiting() == null
                    ? null : p.getStatus().getContainerStatuses().get(0).getState().getWaiting().getReason())));
            DaemonSet driver = server.client().apps().daemonSets().inNamespace("gpu-operator")
                    .withName("nvidia-driver-daemonset").get();
            assertEquals(plan.stack().upgrade().imageAfter(),
                    driver.getSpec().getTemplate().getSpec().getContainers().get(0).getImage());
        }
    }

    private static <T> Watcher<T> collect(List<T> into) {
        return new Watcher<>() {
            @Override
            public void eventReceived(Action action, T object) {
                into.add(object);
            }

            @Override
            public void onClose(WatcherException cause) {
            }
        };
    }
}
