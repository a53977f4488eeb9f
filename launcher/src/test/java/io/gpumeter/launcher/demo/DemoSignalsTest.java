package io.gpumeter.launcher.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Pod;
import io.gpumeter.launcher.simulator.FleetSimulator;
import io.gpumeter.launcher.simulator.Plan;
import io.gpumeter.launcher.simulator.Rfc3339;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DemoSignalsTest {

    private static final Instant END = Instant.parse("2026-12-02T00:15:00Z");
    private static final ObjectMapper JSON = new ObjectMapper();

    private static DemoSignals signals(long seed) {
        return new DemoSignals(new FleetSimulator(seed, END).plan());
    }

    @Test
    void theSameSeedGivesTheSameBodies() {
        DemoSignals a = signals(42);
        DemoSignals b = signals(42);
        assertEquals(a.usagePushes(), b.usagePushes());
        assertEquals(a.latencyPushes(), b.latencyPushes());
        assertEquals(a.governanceNdjson(), b.governanceNdjson());
        assertEquals(a.kernelLogPushes(), b.kernelLogPushes());
    }

    @Test
    void everyScrapeIsOneSampleASeriesWithinTheSpanAndQuickToMake() {
        for (long seed : new long[] {1, 7, 42}) {
            long t0 = System.nanoTime();
            DemoSignals s = signals(seed);
            List<DemoSignals.Push> pushes = s.usagePushes();
            assertTrue(Duration.ofNanos(System.nanoTime() - t0).toSeconds() < 10);
            // 150 minutes of 5 nodes' dcgm-exporter (the DRA node's too), and the HAMi monitor of the two HAMi nodes
            // when they hold vGPUs
            assertTrue(pushes.stream().filter(p -> p.path().startsWith("/api/v1/ingest/dcgm")).count() == 150 * 5);
            assertTrue(pushes.stream().anyMatch(p -> p.path().startsWith("/api/v1/ingest/hami-monitor")));
            for (DemoSignals.Push push : pushes) {
                Set<String> series = new HashSet<>();
                for (String line : push.body().split("\n")) {
                    if (line.startsWith("#") || line.isEmpty()) {
                        continue;
                    }
                    String key = line.substring(0, line.indexOf('}') + 1);
                    assertTrue(series.add(key), "series twice in one scrape: " + key);
                    long ts = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
                    assertFalse(Instant.ofEpochMilli(ts).isBefore(s.usageFrom()));
                    assertTrue(Instant.ofEpochMilli(ts).isBefore(s.usageTo()));
                }
            }
        }
    }

    @Test
    void someCardsAreIdleSomeBusyAndTheSharedCardIsMemoryBound() {
        DemoSignals s = signals(42);
        Plan plan = s.plan();
        Instant last = s.usageTo().minus(Duration.ofMinutes(5));
        List<Double> sm = new ArrayList<>();
        plan.gpus().forEach(g -> sm.add(s.card(g, last).sm()));
        assertTrue(sm.stream().anyMatch(v -> v == 0), "an empty card: " + sm);
        assertTrue(sm.stream().anyMatch(v -> v > 0.5), "a busy card: " + sm);
        var shared = plan.gpus().filter(g -> g.uuid().equals(s.sharedCard())).findFirst().orElseThrow();
        assertTrue(s.card(shared, last).dram() > 0.85, "the neighbour saturates the card's DRAM");
        assertTrue(s.card(shared, s.neighbourAt().minus(Duration.ofMinutes(5))).dram() < 0.85);
    }

    @Test
    void theEmbeddingJobRunsOutOfCardMemoryWhileUnderItsGrantBecauseTheCardIsFull() {
        for (long seed : new long[] {1, 7, 42}) {
            DemoSignals s = signals(seed);
            DemoOom oom = s.oom();
            var shared = s.plan().gpus().filter(g -> g.uuid().equals(s.sharedCard())).findFirst().orElseThrow();
            Instant lastMinute = oom.oomAt().truncatedTo(java.time.temporal.ChronoUnit.MINUTES).minus(Duration.ofMinutes(1));
            CardMinute full = s.card(shared, lastMinute);
            assertTrue(full.fbUsedMib() >= 0.95 * shared.memoryMib(), "seed " + seed + ": the card is full before the OOM: "
                    + full.fbUsedMib() + " of " + shared.memoryMib());
            long own = oom.usedMib(lastMinute);
            assertTrue(own < 0.95 * oom.grantMib() && own > 0.5 * oom.grantMib(), "seed " + seed
                    + ": its own use stays under its grant: " + own + " of " + oom.grantMib());
            assertTrue(oom.createdAt().isAfter(s.jitterEnd()), "no suspect of the jitter episode");
            assertTrue(oom.oomAt().isBefore(s.usageTo()));
            // the scrape of that minute shows the card full and the job's share under its limit
            String hami = s.usagePushes().stream().filter(p -> p.path().equals("/api/v1/ingest/hami-monitor?node=" + s.sharedNode()))
                    .map(DemoSignals.Push::body).filter(b -> b.contains(String.valueOf(lastMinute.plusSeconds(30).toEpochMilli())))
                    .findFirst().orElseThrow();
            assertTrue(hami.contains("hami_vgpu_memory_used_bytes{" + oom.hamiLabels() + "} " + own * 1024 * 1024));
            assertTrue(hami.contains("hami_vgpu_memory_limit_bytes{" + oom.hamiLabels() + "} " + oom.grantMib() * 1024 * 1024));
            String log = s.containerLogPushes().get(0).body();
            assertTrue(log.contains(Rfc3339.format(oom.oomAt()) + " torch.OutOfMemoryError: CUDA out of memory"), log);
            Pod pod = s.oomPod();
            assertEquals(String.valueOf(oom.grantMib()), pod.getSpec().getContainers().get(0).getResources().getLimits()
                    .get("nvidia.com/gpumem").getAmount());
            assertEquals(s.sharedNode(), pod.getSpec().getNodeName());
        }
    }

    @Test
    void theHostsTellTheirThreeStoriesAndEveryCounterOnlyGrows() {
        DemoSignals s = signals(42);
        DemoHost host = s.host();
        assertNotNull(host.cpuPod(), "the history has a second service");
        assertNotNull(host.ioPod(), "a whole-card job runs through the I/O stall");
        Instant inCpu = host.cpuFrom().plus(Duration.ofMinutes(5));
        Instant beforeCpu = host.cpuFrom().minus(Duration.ofMinutes(5));
        DemoCards cards = s.cards();
        assertEquals(DemoCards.IDLE, cards.activity(host.cpuPod(), inCpu), 0.01, "its card idles while it waits on CPU");
        assertTrue(cards.activity(host.cpuPod(), beforeCpu) > DemoCards.IDLE * 1.5);
        assertEquals(DemoCards.IDLE, cards.activity(host.ioPod(), host.ioFrom().plus(Duration.ofMinutes(3))), 0.01);
        assertNotNull(host.idleCpuPod(), "a MIG inference pod runs through the throttled stretch");
        assertEquals(DemoCards.IDLE, cards.activity(host.idleCpuPod(), inCpu), 0.01, "its instance idles while it waits");
        DemoSignals.InferenceService second = s.services().get(1);
        DemoInference inference = new DemoInference(s);
        assertTrue(inference.ttftMs(second, inCpu, 0) > 2 * second.thresholdMs(), "slow enough for the jitter rule");
        assertTrue(inference.ttftMs(second, host.capFrom().plus(Duration.ofMinutes(2)), 0) > 2 * second.thresholdMs());
        assertTrue(inference.ttftMs(second, beforeCpu, 0) < second.thresholdMs());

        // counters only grow, page after page of each node; the throttled pod's CFS ratio is high only in its stretch
        Map<String, Double> last = new HashMap<>();
        double throttledIn = 0;
        double periodsIn = 0;
        String podLabel = "pod=\"" + host.cpuPod().name() + "\"";
        for (DemoSignals.Push p : s.hostPushes()) {
            for (String line : p.body().split("\n")) {
                int space = line.lastIndexOf(' ');
                int value = line.lastIndexOf(' ', space - 1);
                String series = p.path() + " " + line.substring(0, value);
                double v = Double.parseDouble(line.substring(value + 1, space));
                Double before = last.put(series, v);
                if (line.contains("_total") && before != null) {
                    assertTrue(v >= before, "a counter went back: " + series);
                }
                long ts = Long.parseLong(line.substring(space + 1));
                boolean inside = ts == inCpu.plusSeconds(30).toEpochMilli();
                if (inside && line.contains(podLabel) && line.contains("container=\"\"") && before != null) {
                    if (line.startsWith("container_cpu_cfs_throttled_periods_total")) {
                        throttledIn = v - before;
                    } else if (line.startsWith("container_cpu_cfs_periods_total")) {
                        periodsIn = v - before;
                    }
                }
            }
        }
        assertTrue(periodsIn > 0 && throttledIn / periodsIn > 0.5, throttledIn + " of " + periodsIn);
        // the capped card reports SW power cap (0x4) in dcgm-exporter's clocks-event reasons during its ten minutes
        Instant capped = host.capFrom().plus(Duration.ofMinutes(4));
        String scrape = s.usagePushes().stream().filter(p -> p.path().startsWith("/api/v1/ingest/dcgm")
                        && p.body().contains(host.cappedCard()) && p.body().contains(" " + capped.plusSeconds(30).toEpochMilli()))
                .map(DemoSignals.Push::body).findFirst().orElseThrow();
        assertTrue(scrape.lines().anyMatch(l -> l.startsWith("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS{") && l.contains(host.cappedCard())
                && l.contains("} 4 ")), scrape);
    }

    @Test
    void theChatServiceIsSlowOnlyWhileItsNeighbourIsThereAndSlowEnoughForTheJitterRule() throws Exception {
        DemoSignals s = signals(42);
        DemoSignals.InferenceService chat = s.services().get(0);
        assertEquals(2, s.services().size());
        Pod neighbour = s.neighbour();
        assertEquals(s.sharedCard(), chat.pod().grants().get(0).gpuUuid());
        assertEquals(chat.pod().nodeName(), neighbour.getSpec().getNodeName());
        assertTrue(neighbour.getMetadata().getAnnotations().get("hami.io/vgpu-devices-allocated").startsWith(s.sharedCard() + ","));
        for (String line : s.latencyPushes().get(0).body().split("\n")) {
            JsonNode r = JSON.readTree(line);
            Instant ts = Instant.parse(r.get("ts").asText());
            boolean inEpisode = !ts.isBefore(s.jitterStart()) && ts.isBefore(s.jitterEnd());
            double ttft = r.get("ttftMs").asDouble();
            if (inEpisode) {
                assertTrue(ttft > 2 * DemoSignals.CHAT_THRESHOLD_MS, line);
                assertFalse(ts.isBefore(s.neighbourAt()));
            } else {
                assertTrue(ttft < DemoSignals.CHAT_THRESHOLD_MS, line);
            }
            assertEquals(chat.pod().name(), r.get("pod").asText());
        }
        for (int i = 0; i < s.sloPushes().size(); i++) {
            JsonNode slo = JSON.readTree(s.sloPushes().get(i).body());
            assertNotNull(slo.get("objective"));
            // a service is known by its namespace and its name: each SLO names its service's namespace
            DemoSignals.InferenceService service = s.services().get(i);
            assertEquals(service.name(), slo.path("selector").path("service").asText());
            assertEquals(service.pod().namespace(), slo.path("selector").path("namespace").asText());
        }
    }

    @Test
    void governanceIsWatchEventsOfKueueVolcanoAndAnOomEvent() throws Exception {
        DemoSignals s = signals(42);
        Set<String> kinds = new HashSet<>();
        int heldBack = 0;
        for (String line : (s.governanceNdjson() + s.oomEventNdjson()).split("\n")) {
            JsonNode event = JSON.readTree(line);
            JsonNode object = event.get("object");
            kinds.add(object.get("kind").asText());
            if (object.path("metadata").path("name").asText().equals("job-train-xl")) {
                heldBack++;
            }
        }
        assertEquals(Set.of("ResourceFlavor", "ClusterQueue", "LocalQueue", "Workload", "Queue", "PodGroup", "Event"), kinds);
        assertEquals(2, heldBack);
    }

    @Test
    void theKernelLogsNameTheirCardsAndXids() {
        DemoSignals s = signals(42);
        List<DemoSignals.Push> logs = s.kernelLogPushes();
        assertEquals(2, logs.size());
        String all = logs.get(0).body() + logs.get(1).body();
        assertTrue(all.contains("): 79, pid=0"), all);
        assertTrue(all.contains("): 48, pid=0"), all);
        assertTrue(all.matches("(?s)\\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\\d \\d\\d:\\d\\d:\\d\\d \\d{4}\\] NVRM: .*"), all);
        assertEquals(Rfc3339.format(END.minus(Duration.ofMinutes(15))),
                Rfc3339.format(new DemoNodeLogs(s.plan(), s.usageTo()).xid48At()));
    }

    @Test
    void twoXid79LandOnTheNodeWhoseDriverWasUpgradedAfterItsUpgrade() {
        for (long seed : new long[] {42, 7}) {
            DemoSignals s = signals(seed);
            var upgrade = s.plan().stack().upgrade();
            DemoSignals.Push log = s.kernelLogPushes().stream()
                    .filter(p -> p.path().equals("/api/v1/ingest/kmsg?node=" + upgrade.node())).findFirst().orElseThrow();
            java.time.format.DateTimeFormatter kmsg = java.time.format.DateTimeFormatter
                    .ofPattern("EEE MMM ppd HH:mm:ss yyyy", java.util.Locale.ROOT).withZone(java.time.ZoneOffset.UTC);
            List<Instant> xid79 = new ArrayList<>();
            Set<String> buses = new HashSet<>();
            for (String line : log.body().split("\n")) {
                Instant at = java.time.ZonedDateTime.parse(line.substring(1, line.indexOf(']')), kmsg).toInstant();
                assertTrue(at.isBefore(END), line);
                if (line.contains("): 79, pid=0, GPU has fallen off the bus.")) {
                    xid79.add(at);
                    buses.add(line.substring(line.indexOf("(PCI:") + 5, line.indexOf(')')));
                } else {
                    // each card is found again: the driver prints its bus and UUID
                    assertTrue(line.contains("] NVRM: GPU at PCI:"), line);
                }
            }
            assertEquals(2, xid79.size(), log.body());
            assertEquals(2, buses.size(), "two cards fell off the bus");
            assertEquals(new DemoNodeLogs(s.plan(), s.usageTo()).xid79s(), xid79);
            for (Instant at : xid79) {
                assertTrue(at.isAfter(upgrade.at()), at + " after the upgrade at " + upgrade.at());
            }
            // the one of the last day is still the one the failures page shows: 95 minutes before the end
            assertEquals(END.minus(Duration.ofMinutes(95)), xid79.get(1));
            assertTrue(xid79.get(0).isBefore(END.minus(Duration.ofDays(1))));
        }
    }
}
