package io.gpumeter.collector.host;

import io.gpumeter.collector.usage.PrometheusTextParser;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class NodeExporterSeriesTest {

    static final Pattern EXCLUDED = Pattern.compile("lo|veth.*|cali.*|ifb.*");

    @Test
    void aLiveScrapeGivesCpuModesPressureAndTheNodesOwnDevices() {
        HostMapping m = NodeExporterSeries.map(HostFixtures.samples("node-exporter-1.5.0-debian12-scrape-1.prom"), 5, EXCLUDED);
        List<HostReading> r = m.readings();
        Set<String> devices = r.stream().filter(x -> x.slot() == HostSlot.NODE_NET_RECEIVE_BYTES).map(HostReading::series)
                .collect(Collectors.toSet());
        assertEquals(Set.of("eth0"), devices, "lo and the ifb devices are not the node's traffic");
        assertEquals(3.86445736e+08, r.stream().filter(x -> x.slot() == HostSlot.NODE_NET_RECEIVE_BYTES)
                .mapToDouble(HostReading::value).sum());
        assertEquals(19.643635, r.stream().filter(x -> x.slot() == HostSlot.NODE_IO_PRESSURE_STALLED).findFirst()
                .orElseThrow().value());
        HostReading cpus = r.stream().filter(x -> x.slot() == HostSlot.NODE_CPUS).findFirst().orElseThrow();
        long modesPerCpu = r.stream().filter(x -> x.slot().name().startsWith("NODE_CPU_") && x.series().startsWith("0|")).count();
        assertEquals(8, modesPerCpu, "idle, iowait, irq, nice, softirq, steal, system, user");
        assertEquals(r.stream().filter(x -> x.slot() == HostSlot.NODE_CPU_IDLE).count(), (long) cpus.value());
        assertTrue(r.stream().allMatch(x -> x.atMs() == 5), "node-exporter stamps no sample: the arrival time");
    }

    @Test
    void upstreamsEndToEndOutputParsesAndHasEveryPressureAndMode() {
        HostMapping m = NodeExporterSeries.map(HostFixtures.samples("node-exporter-e2e-output.prom"), 0, EXCLUDED);
        Set<HostSlot> slots = m.readings().stream().map(HostReading::slot).collect(Collectors.toSet());
        assertTrue(slots.containsAll(Set.of(HostSlot.NODE_CPU_IDLE, HostSlot.NODE_CPU_IOWAIT, HostSlot.NODE_CPU_OTHER,
                HostSlot.NODE_CPU_PRESSURE_WAITING, HostSlot.NODE_IO_PRESSURE_STALLED,
                HostSlot.NODE_MEMORY_PRESSURE_STALLED, HostSlot.NODE_CPUS)), slots.toString());
        assertTrue(m.readings().stream().noneMatch(x -> x.slot() == HostSlot.NODE_NET_RECEIVE_DROPS),
                "its only device is lo, which is excluded");
    }

    @Test
    void aNegativeCounterRefusesTheBody() {
        var samples = new PrometheusTextParser().parse("node_pressure_io_stalled_seconds_total -3\n");
        assertEquals("node_pressure_io_stalled_seconds_total",
                assertThrows(HostInputException.class, () -> NodeExporterSeries.map(samples, 0, EXCLUDED)).field());
    }
}
