package io.gpumeter.launcher.simulator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.StringWriter;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FleetSimulatorTest {

    static final Instant END = Instant.parse("2026-11-30T04:43:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern RFC3339_UTC = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

    static Plan plan;
    static String ndjson;

    @BeforeAll
    static void simulate() throws IOException {
        FleetSimulator simulator = new FleetSimulator(42, END);
        plan = simulator.plan();
        ndjson = ndjson(simulator);
    }

    private static String ndjson(FleetSimulator simulator) throws IOException {
        StringWriter out = new StringWriter();
        simulator.toNdjson(out);
        return out.toString();
    }

    @Test
    void sameSeedGivesTheSameBytesAndAnotherSeedDoesNot() throws IOException {
        assertEquals(ndjson, ndjson(new FleetSimulator(42, END)));
        assertNotEquals(ndjson, ndjson(new FleetSimulator(43, END)));
    }

    @Test
    void everyLineIsAWatchEventWithIncreasingResourceVersionsAndUtcTimestamps() throws IOException {
        long previous = -1;
        int lines = 0;
        for (String line : ndjson.split("\n")) {
            JsonNode event = JSON.readTree(line);
            assertTrue(Set.of("ADDED", "MODIFIED", "DELETED").contains(event.get("type").asText()), line);
            JsonNode object = event.get("object");
            String kind = object.get("kind").asText();
            // the GPU stack's DaemonSets and the scheduler's events besides the fleet's objects
            assertTrue(Set.of("Namespace", "Node", "Pod", "Event", "DaemonSet", "DeviceClass", "ResourceSlice",
                    "ResourceClaim").contains(kind), kind);
            String apiVersion = Set.of("Namespace", "Node", "Pod", "Event").contains(kind) ? "v1"
                    : kind.equals("DaemonSet") ? "apps/v1" : "resource.k8s.io/v1";
            assertEquals(apiVersion, object.get("apiVersion").asText());
            long version = Long.parseLong(object.get("metadata").get("resourceVersion").asText());
            assertTrue(version > previous, "resourceVersion must increase: " + version + " after " + previous);
            previous = version;
            assertTrue(RFC3339_UTC.matcher(object.get("metadata").get("creationTimestamp").asText()).matches());
            lines++;
        }
        assertEquals(plan.events().size(), lines);
        Instant last = Instant.MIN;
        for (SimEvent e : plan.events()) {
            assertFalse(e.at().isBefore(last), "events are in time order");
            assertTrue(plan.window().contains(e.at()), "event inside the window: " + e.at());
            last = e.at();
        }
    }

    @Test
    void hamiCardsNeverHoldMoreThanTheirRegisteredMemoryCoresOrShares() throws IOException {
        for (long seed : new long[] {42, 7, 2024}) {
            Plan p = seed == 42 ? plan : new FleetSimulator(seed, END).plan();
            Map<String, JsonNode> registered = new HashMap<>();
            for (SimEvent e : p.eventsOfKind("Node").toList()) {
                String register = e.object().getMetadata().getAnnotations().get("hami.io/node-nvidia-register");
                if (register != null) {
                    JSON.readTree(register).forEach(d -> registered.put(d.get("id").asText(), d));
                }
            }
            assertEquals(16, registered.size());
            Map<String, List<long[]>> holds = new HashMap<>();
            List<PodHistory> hami = PodHistory.of(p).values().stream().filter(h -> !h.hamiDevices().isEmpty()).toList();
            assertFalse(hami.isEmpty());
            for (PodHistory h : hami) {
                for (String[] d : h.hamiDevices()) {
                    assertTrue(registered.containsKey(d[0]), "allocated card is registered: " + d[0]);
                    long end = h.releasedAt() == null ? Long.MAX_VALUE : h.releasedAt().getEpochSecond();
                    holds.computeIfAbsent(d[0], k -> new ArrayList<>()).add(new long[] {
                            h.boundAt().getEpochSecond(), end, Long.parseLong(d[2]), Long.parseLong(d[3])});
                }
            }
            holds.forEach((uuid, list) -> {
                JsonNode card = registered.get(uuid);
                int maxShared = 0;
                for (long[] probe : list) {
                    long memory = 0;
                    long cores = 0;
                    int shares = 0;
                    for (long[] h : list) {
                        if (h[0] <= probe[0] && probe[0] < h[1]) {
                            memory += h[2];
                            cores += h[3];
                            shares++;
                        }
                    }
                    assertTrue(memory <= card.get("devmem").asLong(), uuid + " memory " + memory);
                    assertTrue(cores <= card.get("devcore").asLong(), uuid + " cores " + cores);
                    assertTrue(shares <= card.get("count").asInt(), uuid + " shares " + shares);
                    maxShared = Math.max(maxShared, shares);
                }
            });
            assertTrue(holds.values().stream().anyMatch(l -> l.size() > 1), "some card is shared");
        }
    }

    @Test
    void wholeCardAndMigPodsNeverAskForMoreThanTheirNodeAllocates() {
        Map<String, Map<String, Long>> allocatable = new HashMap<>();
        plan.eventsOfKind("Node").forEach(e -> {
            Map<String, Long> r = new HashMap<>();
            ((Node) e.object()).getStatus().getAllocatable().forEach((k, v) -> r.put(k, v.getNumericalAmount().longValue()));
            allocatable.put(e.object().getMetadata().getName(), r);
        });
        List<PodHistory> bound = PodHistory.of(plan).values().stream()
                .filter(h -> h.boundAt() != null && h.hamiDevices().isEmpty()).toList();
        assertFalse(bound.isEmpty());
        for (PodHistory probe : bound) {
            Map<String, Long> used = new HashMap<>();
            for (PodHistory h : bound) {
                if (h.node().equals(probe.node()) && h.holdsAt(probe.boundAt())) {
                    h.gpuResources().forEach((k, v) -> used.merge(k, v, Long::sum));
                }
            }
            used.forEach((resource, amount) -> assertTrue(amount <= allocatable.get(probe.node()).get(resource),
                    probe.node() + " " + resource + " " + amount + " at " + probe.boundAt()));
        }
        // and per physical unit, from the simulator's own grants: a whole card or MIG instance has one holder
        for (SimPod a : plan.pods()) {
            for (SimPod b : plan.pods()) {
                // HAMi shares cards by design, and the DRA pool shares one card through a claim reserved for two pods
                if (a != b && a.pool() != GpuPool.HAMI && a.pool() != GpuPool.DRA && a.pool() == b.pool() && b.scheduledAt() != null
                        && a.holdsAt(b.scheduledAt())) {
                    for (Grant ga : a.grants()) {
                        for (Grant gb : b.grants()) {
                            assertFalse(ga.gpuUuid().equals(gb.gpuUuid()) && String.valueOf(ga.migUuid())
                                    .equals(String.valueOf(gb.migUuid())), "unit held twice: " + ga);
                        }
                    }
                }
            }
        }
    }

    @Test
    void theHistoryHasTheCasesEveryConsumerMustHandle() {
        Instant boundary = plan.window().monthBoundary();
        assertTrue(plan.start().isBefore(boundary) && boundary.isBefore(plan.end()));
        assertTrue(plan.pods().stream().anyMatch(p -> p.scheduledAt() != null && p.scheduledAt().isBefore(boundary)
                && (p.releasedAt() == null || p.releasedAt().isAfter(boundary))), "a pod across the month boundary");
        assertTrue(plan.pods().stream().anyMatch(p -> p.finishedAt() != null
                && Duration.between(p.startedAt(), p.finishedAt()).toSeconds() < 60), "a pod shorter than a minute");
        assertTrue(plan.pods().stream().anyMatch(p -> p.ending() == PodEnding.GRACEFUL_DELETE));
        assertTrue(plan.pods().stream().anyMatch(p -> p.ending() == PodEnding.FORCED_DELETE));
        assertTrue(plan.pods().stream().anyMatch(p -> p.ending() == PodEnding.RUNNING_AT_END));
        assertTrue(plan.pods().stream().anyMatch(p -> p.releasedAt() != null
                && Duration.between(p.scheduledAt(), p.releasedAt()).toDays() >= 2), "a pod of days");
        for (GpuPool pool : GpuPool.values()) {
            assertTrue(plan.pods().stream().anyMatch(p -> p.pool() == pool && p.scheduledAt() != null), pool.name());
        }
        Set<String> owners = new java.util.HashSet<>();
        plan.pods().forEach(p -> owners.add(p.owner() == null ? "bare" : p.owner().kind()));
        assertEquals(Set.of("bare", "Job", "ReplicaSet"), owners);
        assertTrue(plan.pods().stream().anyMatch(p -> p.scheduledAt() != null
                && p.scheduledAt().isAfter(p.createdAt().plusSeconds(60))), "some pod queued for capacity");
    }

    @Test
    void theRelabelledNamespaceChangesTenantWithTheChangeTimeInManagedFields() {
        List<SimEvent> relabels = plan.eventsOfKind("Namespace").filter(e -> e.type() == EventType.MODIFIED).toList();
        assertEquals(1, relabels.size());
        Namespace after = (Namespace) relabels.get(0).object();
        assertEquals(plan.relabelAt(), relabels.get(0).at());
        assertEquals(Tenancy.RELABELLED, after.getMetadata().getName());
        assertEquals("globex", after.getMetadata().getLabels().get("gpumeter.io/tenant"));
        ManagedFieldsEntry owner = after.getMetadata().getManagedFields().stream()
                .filter(m -> fieldsName(m).contains("f:gpumeter.io/tenant")).findFirst().orElseThrow();
        assertEquals("Update", owner.getOperation());
        assertEquals("FieldsV1", owner.getFieldsType());
        assertEquals(plan.relabelAt(), Instant.parse(owner.getTime()));
        Namespace before = (Namespace) plan.eventsOfKind("Namespace")
                .filter(e -> e.object().getMetadata().getName().equals(Tenancy.RELABELLED)).findFirst().orElseThrow().object();
        assertEquals("initech", before.getMetadata().getLabels().get("gpumeter.io/tenant"));
        SimNamespace truth = plan.namespace(Tenancy.RELABELLED).orElseThrow();
        assertEquals("initech", truth.tenantAt(plan.relabelAt().minusSeconds(1)));
        assertEquals("globex", truth.tenantAt(plan.relabelAt()));
        assertTrue(plan.pods().stream().anyMatch(p -> p.namespace().equals(Tenancy.RELABELLED)
                && p.holdsAt(plan.relabelAt())), "work runs across the relabel");
    }

    private static String fieldsName(ManagedFieldsEntry entry) {
        return String.valueOf(entry.getFieldsV1().getAdditionalProperties());
    }

    @Test
    void gracefulAndForcedDeletesLookAsKubernetesShowsThem() {
        Map<String, PodHistory> histories = PodHistory.of(plan);
        SimPod graceful = plan.pods().stream().filter(p -> p.ending() == PodEnding.GRACEFUL_DELETE).findFirst().orElseThrow();
        List<SimEvent> events = histories.get(graceful.uid()).events();
        Pod requested = (Pod) events.stream().filter(e -> ((Pod) e.object()).getMetadata().getDeletionTimestamp() != null)
                .findFirst().orElseThrow().object();
        assertEquals(graceful.deletionRequestedAt().plusSeconds(30),
                Instant.parse(requested.getMetadata().getDeletionTimestamp()));
        assertEquals(30L, requested.getMetadata().getDeletionGracePeriodSeconds());
        assertEquals("Running", requested.getStatus().getPhase());
        SimEvent last = events.get(events.size() - 1);
        assertEquals(EventType.DELETED, last.type());
        Pod gone = (Pod) last.object();
        assertNotNull(gone.getStatus().getContainerStatuses().get(0).getState().getTerminated());
        Instant finished = Instant.parse(gone.getStatus().getContainerStatuses().get(0).getState().getTerminated().getFinishedAt());
        assertFalse(finished.isAfter(graceful.deletionRequestedAt().plusSeconds(30)));
        assertEquals(graceful.finishedAt(), finished);

        SimPod forced = plan.pods().stream().filter(p -> p.ending() == PodEnding.FORCED_DELETE).findFirst().orElseThrow();
        List<SimEvent> forcedEvents = histories.get(forced.uid()).events();
        SimEvent deleted = forcedEvents.get(forcedEvents.size() - 1);
        assertEquals(EventType.DELETED, deleted.type());
        Pod lastState = (Pod) deleted.object();
        assertEquals(forced.deletedAt(), Instant.parse(lastState.getMetadata().getDeletionTimestamp()));
        assertEquals(0L, lastState.getMetadata().getDeletionGracePeriodSeconds());
        assertNotNull(lastState.getStatus().getContainerStatuses().get(0).getState().getRunning());
        assertTrue(forcedEvents.stream().noneMatch(e -> e.type() == EventType.MODIFIED
                && ((Pod) e.object()).getMetadata().getDeletionTimestamp() != null));
    }

    @Test
    void truthsAgreeWithWhatTheEventsShow() {
        Map<String, PodHistory> histories = PodHistory.of(plan);
        assertEquals(plan.pods().size(), histories.size());
        for (SimPod pod : plan.pods()) {
            PodHistory h = histories.get(pod.uid());
            assertEquals(pod.scheduledAt(), h.boundAt(), pod.name());
            assertEquals(pod.releasedAt(), h.releasedAt(), pod.name());
            assertEquals(pod.deletedAt() != null, h.events().get(h.events().size() - 1).type() == EventType.DELETED);
            if (pod.pool() == GpuPool.HAMI && pod.scheduledAt() != null) {
                assertEquals(pod.grants().get(0).gpuUuid(), h.hamiDevices().get(0)[0]);
            }
        }
    }

    @Test
    void applyToTheStockCrudMockLeavesTheFinalStateOfTheHistory() {
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                new KubernetesCrudDispatcher(List.of()), false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        try (KubernetesClient client = server.createClient()) {
            new FleetSimulator(42, END).applyTo(client);

            Map<String, Pod> live = new HashMap<>();
            client.pods().inAnyNamespace().list().getItems().forEach(p -> live.put(p.getMetadata().getName(), p));
            List<SimPod> expected = plan.pods().stream().filter(p -> p.deletedAt() == null).toList();
            // the GPU pods, and the GPU stack's pods alive at the end
            assertEquals(expected.size() + plan.stack().pods().size(), live.size());
            for (StackPlan.LivePod stackPod : plan.stack().pods()) {
                Pod stored = live.get(stackPod.name());
                assertNotNull(stored, stackPod.name());
                assertEquals(stackPod.node(), stored.getSpec().getNodeName());
                assertEquals(stackPod.image(), stored.getSpec().getContainers().get(0).getImage());
            }
            assertEquals(StackComponent.NEXT_DCGM_EXPORTER_IMAGE, client.apps().daemonSets().inNamespace("gpu-operator")
                    .withName("nvidia-dcgm-exporter").get().getSpec().getTemplate().getSpec().getContainers().get(0)
                    .getImage());
            Map<String, PodHistory> histories = PodHistory.of(plan);
            for (SimPod pod : expected) {
                List<SimEvent> events = histories.get(pod.uid()).events();
                Pod last = (Pod) events.get(events.size() - 1).object();
                Pod stored = live.get(pod.name());
                assertNotNull(stored, pod.name());
                assertEquals(last.getStatus().getPhase(), stored.getStatus().getPhase(), pod.name());
                assertEquals(last.getSpec().getNodeName(), stored.getSpec().getNodeName(), pod.name());
            }
            assertEquals(5, client.nodes().list().getItems().size());
            assertEquals("globex", client.namespaces().withName(Tenancy.RELABELLED).get().getMetadata().getLabels()
                    .get("gpumeter.io/tenant"));
        } finally {
            server.destroy();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"2026-11-30T04:43:00Z", "2026-12-01T00:00:00Z", "2026-12-01T12:00:00Z",
            "2026-12-02T00:00:00Z", "2026-12-09T23:59:00Z", "2026-12-31T23:59:00Z", "2027-03-01T06:00:00Z"})
    void theWindowAlwaysCrossesAMonthBoundaryWithDaysOnBothSides(String end) {
        SimulationWindow w = SimulationWindow.endingAt(Instant.parse(end));
        assertEquals(Instant.parse(end), w.end());
        assertTrue(w.span().toDays() >= 10, "at least ten days: " + w);
        assertTrue(Duration.between(w.start(), w.monthBoundary()).toDays() >= 5, "five days before the boundary: " + w);
        assertTrue(Duration.between(w.monthBoundary(), w.end()).toHours() >= 24, "a day after the boundary: " + w);
        assertEquals(1, w.monthBoundary().atZone(java.time.ZoneOffset.UTC).getDayOfMonth());
        assertTrue(w.span().toDays() <= 37, "not longer than needed: " + w);
    }
}
