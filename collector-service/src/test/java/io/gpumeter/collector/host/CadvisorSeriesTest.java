package io.gpumeter.collector.host;

import io.gpumeter.collector.usage.PrometheusTextParser;
import io.gpumeter.collector.usage.Sample;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.Set;
import java.util.function.BiPredicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CadvisorSeriesTest {

    private static final String CONTAINERD = "kubelet-1.35-containerd-metrics-cadvisor.prom";
    private static final String DOCKER = "kubelet-1.15-docker-metrics-cadvisor.prom";

    private static BiPredicate<String, String> only(String namespace, String pod) {
        return (ns, p) -> ns.equals(namespace) && p.equals(pod);
    }

    private static double sum(List<HostReading> readings, String container, HostSlot slot) {
        return readings.stream().filter(r -> r.container().equals(container) && r.slot() == slot)
                .mapToDouble(HostReading::value).sum();
    }

    @Test
    void aContainerdKubeletGivesAContainerItsCpuLimitAndDiskAndThePodItsSandboxNetwork() {
        HostMapping m = CadvisorSeries.map(HostFixtures.samples(CONTAINERD), 0, only("scraper", "e2e-daemonset-kb65b"));
        List<HostReading> r = m.readings();
        assertEquals(Set.of("", "compute-pi-digits"), r.stream().map(HostReading::container).collect(java.util.stream.Collectors.toSet()));
        assertEquals(4096, sum(r, "compute-pi-digits", HostSlot.FS_WRITE_BYTES));
        assertTrue(sum(r, "compute-pi-digits", HostSlot.CPU_SECONDS) > 0);
        assertEquals(8000, sum(r, "", HostSlot.CPU_QUOTA), "the pod cgroup's quota, as the capture has it");
        assertEquals(446, sum(r, "", HostSlot.NET_RECEIVE_BYTES), "eth0 of the pause sandbox; the other interfaces read 0");
        assertTrue(r.stream().noneMatch(x -> x.container().isEmpty() && x.slot() == HostSlot.CPU_SECONDS
                        && x.series().contains("/" + "a5fbda005ab8")),
                "the sandbox's own CPU is the pod cgroup's already");
        long podCpu = r.stream().filter(x -> x.container().isEmpty() && x.slot() == HostSlot.CPU_SECONDS).count();
        assertEquals(1, podCpu, "one CPU series for the pod: its cgroup, not its sandbox");
        assertTrue(r.stream().allMatch(x -> x.atMs() > 1_700_000_000_000L || x.slot() == HostSlot.CPU_QUOTA
                || x.slot() == HostSlot.CPU_PERIOD), "counters carry the kubelet's own timestamps");
        assertTrue(m.other() > 500, "system cgroups and the other pods are left out: " + m.other());
        assertTrue(m.unknown() > 1000, "memory, blkio, load and the rest are not read: " + m.unknown());
    }

    @Test
    void aDockerKubeletOfBefore116IsReadByItsOldLabelsAndThePodContainersNetwork() {
        List<Sample> samples = HostFixtures.samples(DOCKER);
        HostMapping m = CadvisorSeries.map(samples, 1_000, only("kube-system", "storage-provisioner"));
        List<HostReading> r = m.readings();
        assertTrue(sum(r, "", HostSlot.NET_RECEIVE_BYTES) > 0, "the POD container's interfaces are the pod's network");
        assertTrue(r.stream().noneMatch(x -> x.container().equals("POD")), "POD is never a container row");
        List<HostReading> cpu = r.stream().filter(x -> x.container().equals("storage-provisioner")
                && x.slot() == HostSlot.CPU_SECONDS).toList();
        assertTrue(cpu.size() > 1, "no total before 1.16: one series per CPU, added up");
        assertEquals(cpu.size(), cpu.stream().map(HostReading::series).distinct().count(), "each CPU its own series");
        assertTrue(r.stream().allMatch(x -> x.atMs() == 1_000), "no timestamps in this capture: the arrival time");
    }

    @Test
    void noGpuPodKnownKeepsNothing() {
        HostMapping m = CadvisorSeries.map(HostFixtures.samples(CONTAINERD), 0, (ns, p) -> false);
        assertTrue(m.readings().isEmpty());
    }

    @Test
    void onlyTheTotalOfAPerCpuBreakdownIsReadWhereThereIsOne() {
        String body = """
                container_cpu_usage_seconds_total{container="c",cpu="total",id="/k/p/1",namespace="ns",pod="p"} 10
                container_cpu_usage_seconds_total{container="c",cpu="cpu00",id="/k/p/1",namespace="ns",pod="p"} 4
                container_cpu_usage_seconds_total{container="c",cpu="cpu01",id="/k/p/1",namespace="ns",pod="p"} 6
                """;
        HostMapping m = CadvisorSeries.map(new PrometheusTextParser().parse(body), 0, (ns, p) -> true);
        assertEquals(1, m.readings().size());
        assertEquals(10, m.readings().get(0).value());
        assertEquals(2, m.other());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "negative counter | container_cpu_usage_seconds_total{container=\"c\",namespace=\"ns\",pod=\"p\"} -1 | container_cpu_usage_seconds_total",
            "NaN counter | container_network_receive_bytes_total{container=\"\",namespace=\"ns\",pod=\"p\"} NaN | container_network_receive_bytes_total",
            "infinite gauge | container_spec_cpu_quota{container=\"c\",namespace=\"ns\",pod=\"p\"} +Inf | container_spec_cpu_quota",
    })
    void aValueNoSeriesCanHaveRefusesTheBodyNamingTheMetric(String name, String line, String field) {
        List<Sample> samples = new PrometheusTextParser().parse(line);
        HostInputException e = assertThrows(HostInputException.class, () -> CadvisorSeries.map(samples, 0, (ns, p) -> true));
        assertEquals(field, e.field());
        assertTrue(e.getMessage().contains("Nothing of this body is stored"), e.getMessage());
    }
}
