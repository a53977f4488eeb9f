package io.gpumeter.slo.service;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.slo.client.HostSeries;
import io.gpumeter.slo.client.UsagePoint;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The host's and the card's pressures from the ledger's answers, read from JSON in the ledger's own shapes
 * ({@code POST /api/v1/host/series}, {@code POST /api/v1/usage/series}).
 */
class PressureCurvesTest {

    private static final ObjectMapper JSON = new ObjectMapper().registerModule(new JavaTimeModule());
    private static final String M0 = "2026-12-14T10:00:00Z";
    private static final String M1 = "2026-12-14T10:01:00Z";

    /** A container span as the ledger answers it; null amounts are written null. */
    private static String container(String pod, String container, String at, double covered, Double periods,
                                    Double throttled, Double limit, Double rx, Double tx) {
        return "{\"cluster\":\"c1\",\"namespace\":\"ml\",\"pod\":\"" + pod + "\",\"container\":\"" + container
                + "\",\"node\":\"n1\",\"at\":\"" + at + "\",\"spanSeconds\":60,\"minutes\":1,\"coveredSeconds\":"
                + covered + ",\"samples\":2,\"cpuSeconds\":12.5,\"cfsPeriods\":" + periods + ",\"cfsThrottledPeriods\":"
                + throttled + ",\"cpuLimitCores\":" + limit + ",\"fsReadBytes\":null,\"fsWriteBytes\":null,"
                + "\"netReceiveBytes\":" + rx + ",\"netTransmitBytes\":" + tx + "}";
    }

    private static String node(String at, double covered, Double cpuPsi, Double ioPsi, Double rx, Double tx) {
        return "{\"cluster\":\"c1\",\"node\":\"n1\",\"at\":\"" + at + "\",\"spanSeconds\":60,\"minutes\":1,"
                + "\"coveredSeconds\":" + covered + ",\"samples\":2,\"cpus\":64,\"cpuIdleSeconds\":1000.0,"
                + "\"cpuIowaitSeconds\":3.0,\"cpuUserSeconds\":null,\"cpuSystemSeconds\":null,\"cpuOtherSeconds\":null,"
                + "\"cpuPressureWaitingSeconds\":" + cpuPsi + ",\"ioPressureStalledSeconds\":" + ioPsi
                + ",\"memoryPressureStalledSeconds\":0.0,\"netReceiveBytes\":" + rx + ",\"netTransmitBytes\":" + tx
                + ",\"netReceiveDrops\":0.0,\"netTransmitDrops\":0.0}";
    }

    private static HostSeries host(List<String> containers, List<String> nodes) throws Exception {
        return JSON.readValue("{\"containers\":[" + String.join(",", containers) + "],\"nodes\":["
                + String.join(",", nodes) + "]}", HostSeries.class);
    }

    private static List<UsagePoint> usage(String... points) throws Exception {
        return List.of(JSON.readValue("[" + String.join(",", points) + "]", UsagePoint[].class));
    }

    private static String point(String field, String minute, double mean, double max) {
        return "{\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field + "\",\"minute\":\"" + minute
                + "\",\"mean\":" + mean + ",\"max\":" + max + ",\"samples\":4}";
    }

    private static JitterEvidence.Pressure pressure(PressureCurves.Found f, String key) {
        return f.pressures().stream().filter(p -> p.key().equals(key)).findFirst().orElseThrow(() ->
                new AssertionError(key + " not in " + f.pressures()));
    }

    private static double mean(JitterEvidence.Pressure p, String field, int i) {
        return p.curves().get(field).points().get(i).mean();
    }

    @Test
    void eachPressureIsARatioPerMinuteOfWhatTheLedgerAnswered() throws Exception {
        HostSeries h = host(List.of(
                // two containers with limits: 30 + 10 throttled of 100 + 100 periods = 0.2, then 150 of 200 = 0.75
                container("chat-0", "server", M0, 60, 100d, 30d, 2d, null, null),
                container("chat-0", "sidecar", M0, 60, 100d, 10d, 0.5, null, null),
                container("chat-0", "server", M1, 30, 100d, 100d, 2d, null, null),
                container("chat-0", "sidecar", M1, 30, 100d, 50d, 0.5, null, null),
                // the pod itself: its sandbox's network, 6,000 bytes over 60 s = 100 B/s; then 3,000 over 30 s
                container("chat-0", "", M0, 60, null, null, null, 4000d, 2000d),
                container("chat-0", "", M1, 30, null, null, null, 3000d, null)),
                List.of(node(M0, 60, 6d, 1.2, 30000d, 30000d), node(M1, 60, 60d, 30d, 6000d, 0d)));
        Map<String, List<UsagePoint>> cards = Map.of("GPU-A", usage(
                point("CLOCKS_EVENT_SW_POWER_CAP", M0, 0, 0), point("CLOCKS_EVENT_SW_POWER_CAP", M1, 0.75, 1),
                point("CLOCKS_EVENT_SYNC_BOOST", M1, 1, 1), point("CLOCKS_EVENT_GPU_IDLE", M1, 1, 1),
                point("POWER_VIOLATION_S", M1, 0.5, 0.5), point("POWER_W", M1, 700, 710)));
        PressureCurves.Found f = PressureCurves.of(List.of(new PressureCurves.Placement("ml/chat-0", "c1", "n1",
                List.of("GPU-A"))), new PressureCurves.Read(h, null, cards, null));

        JitterEvidence.Pressure cpu = pressure(f, "cpu-throttling:ml/chat-0");
        assertEquals("cpu-saturated", cpu.cause());
        assertEquals("CONTAINER", cpu.curves().get("CFS_THROTTLED_RATIO").scope());
        assertEquals(0.2, mean(cpu, "CFS_THROTTLED_RATIO", 0), 1e-9);
        assertEquals(0.75, mean(cpu, "CFS_THROTTLED_RATIO", 1), 1e-9);
        assertEquals("n1", cpu.node());

        // 100 B/s of the node's 1,000, then 100 B/s of its 100: capped at all of it
        JitterEvidence.Pressure net = pressure(f, "network:ml/chat-0");
        assertEquals(0.1, mean(net, "NETWORK_SHARE", 0), 1e-9);
        assertEquals(1.0, mean(net, "NETWORK_SHARE", 1), 1e-9);

        // PSI stall seconds per second covered
        assertEquals(0.1, mean(pressure(f, "node-cpu-pressure:n1"), "CPU_PRESSURE", 0), 1e-9);
        assertEquals(1.0, mean(pressure(f, "node-cpu-pressure:n1"), "CPU_PRESSURE", 1), 1e-9);
        assertEquals(0.02, mean(pressure(f, "node-io-pressure:n1"), "IO_PRESSURE", 0), 1e-9);
        assertEquals(0.5, mean(pressure(f, "node-io-pressure:n1"), "IO_PRESSURE", 1), 1e-9);

        // the card: only reasons of power or heat and the violation counters, never sync boost, idle or power draw
        JitterEvidence.Pressure card = pressure(f, "card-clocks:GPU-A");
        assertEquals(List.of("CLOCKS_EVENT_SW_POWER_CAP", "POWER_VIOLATION_S"), List.copyOf(card.curves().keySet()));
        assertEquals("DEVICE", card.curves().get("CLOCKS_EVENT_SW_POWER_CAP").scope());
        assertEquals(0.75, mean(card, "CLOCKS_EVENT_SW_POWER_CAP", 1), 1e-9);
        assertEquals(1.0, card.curves().get("CLOCKS_EVENT_SW_POWER_CAP").points().get(1).max(), 1e-9);
        assertEquals(List.of(), f.unmeasured());

        // ranked as suspects: each by its own curve, no arrival
        var candidates = PressureCurves.candidates(f.pressures());
        assertEquals(5, candidates.size());
        assertTrue(candidates.stream().allMatch(c -> c.since() == null));
    }

    @Test
    void whatIsMissingIsSaidPerPodNodeAndCard() throws Exception {
        // a pod without a CPU limit (never throttled: nothing missing), nodes without PSI, a card with only the bitmask
        HostSeries h = host(List.of(container("free-0", "server", M0, 60, null, null, null, null, null)),
                List.of(node(M0, 60, null, null, null, null)));
        Map<String, List<UsagePoint>> cards = Map.of("GPU-B", usage(point("THROTTLE_REASONS", M0, 2, 4)));
        PressureCurves.Found f = PressureCurves.of(List.of(
                new PressureCurves.Placement("ml/free-0", "c1", "n1", List.of("GPU-B")),
                new PressureCurves.Placement("ml/lost-0", null, null, List.of())), new PressureCurves.Read(h, null, cards, null));
        assertEquals(List.of(), f.pressures());
        List<String> missing = f.unmeasured().stream().map(u -> u.kind() + " " + u.subject()).toList();
        assertEquals(List.of("network ml/free-0", "cpu-throttling ml/lost-0", "network ml/lost-0",
                "node-cpu-pressure the node of ml/lost-0", "node-io-pressure the node of ml/lost-0",
                "node-cpu-pressure n1", "node-io-pressure n1", "card-clocks GPU-B"), missing);
        JitterEvidence.Unmeasured card = f.unmeasured().get(missing.indexOf("card-clocks GPU-B"));
        assertEquals("power-or-thermal", card.cause());
        assertTrue(card.missing().contains("only the raw THROTTLE_REASONS bitmask"), card.missing());
        assertTrue(f.unmeasured().get(missing.indexOf("node-io-pressure n1")).missing()
                .contains("node_pressure_io_stalled_seconds_total"));

        // the host read failed: every host pressure says so; the card is read from its usage
        PressureCurves.Found failed = PressureCurves.of(List.of(new PressureCurves.Placement("ml/chat-0", "c1", "n1",
                List.of("GPU-A"))), new PressureCurves.Read(null, "500 Internal Server Error", Map.of("GPU-A",
                usage(point("THERMAL_VIOLATION_S", M0, 0.1, 0.1))), null));
        assertEquals(List.of("card-clocks:GPU-A"), failed.pressures().stream().map(JitterEvidence.Pressure::key).toList());
        assertEquals(4, failed.unmeasured().size());
        assertTrue(failed.unmeasured().stream().allMatch(u -> u.missing()
                .equals("the ledger's host series could not be read (500 Internal Server Error)")), failed.unmeasured().toString());
        PressureCurves.Found noUsage = PressureCurves.of(List.of(new PressureCurves.Placement("ml/chat-0", "c1", "n1",
                List.of("GPU-A"))), new PressureCurves.Read(HostSeries.EMPTY, null, null, "WebApplicationException"));
        assertTrue(noUsage.unmeasured().stream().anyMatch(u -> u.kind().equals("card-clocks")
                && u.missing().contains("could not be read (WebApplicationException)")));
        assertNull(noUsage.pressures().stream().filter(p -> p.kind().equals("card-clocks")).findFirst().orElse(null));
    }
}
