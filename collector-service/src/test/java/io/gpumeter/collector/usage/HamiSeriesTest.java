package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.UsageField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class HamiSeriesTest {

    private static final Instant RECEIVED = Instant.parse("2026-07-03T22:30:00Z");
    private static final String U = "GPU-7c3e9a10-4b2f-4e6d-9a81-0f5d2c7b6e34";
    private static final String NEW = "container=\"server\",device_uuid=\"" + U + "\",namespace=\"team-a\",pod=\"infer-0\","
            + "vdevice_index=\"0\",zone=\"vGPU\"";
    private static final String LEGACY = "ctrname=\"server\",deviceuuid=\"" + U + "\",podname=\"infer-0\","
            + "podnamespace=\"team-a\",vdeviceid=\"0\",zone=\"vGPU\"";
    private static final String HOST_NEW = "device_index=\"0\",device_type=\"NVIDIA-NVIDIA A10\",device_uuid=\"" + U + "\"";
    private static final String HOST_LEGACY = "deviceidx=\"0\",deviceuuid=\"" + U + "\",zone=\"vGPU\"";

    private final PrometheusTextParser parser = new PrometheusTextParser();

    private UsageMapping map(String body, String node) {
        return HamiSeries.map(parser.parse(body), RECEIVED, node);
    }

    private static UsageObservation container(UsageField field, double value) {
        return new UsageObservation(U, "node-a", null, null, null, "team-a", "infer-0", "server", field, value, RECEIVED);
    }

    private static UsageObservation card(UsageField field, double value) {
        return new UsageObservation(U, "node-a", null, null, null, null, null, null, field, value, RECEIVED);
    }

    static Stream<Arguments> metrics() {
        return Stream.of(
                arguments("vGPU memory used, 2026 name", "hami_vgpu_memory_used_bytes{" + NEW + "} 6.442450944e+09",
                        container(UsageField.VGPU_MEMORY_USED_MIB, 6144)),
                arguments("vGPU memory used, legacy name", "vGPU_device_memory_usage_in_bytes{" + LEGACY + "} 2.109867008e+09",
                        container(UsageField.VGPU_MEMORY_USED_MIB, 2012.1259765625)),
                arguments("vGPU memory limit, 2026 name", "hami_vgpu_memory_limit_bytes{" + NEW + "} 1.2884901888e+10",
                        container(UsageField.VGPU_MEMORY_LIMIT_MIB, 12288)),
                arguments("vGPU memory limit, legacy name", "vGPU_device_memory_limit_in_bytes{" + LEGACY + "} 3.145728e+09",
                        container(UsageField.VGPU_MEMORY_LIMIT_MIB, 3000)),
                arguments("container utilization is a percentage despite _ratio", "hami_container_device_utilization_ratio{" + NEW + "} 63",
                        container(UsageField.VGPU_CORE_UTIL, 0.63)),
                arguments("container utilization, legacy name", "Device_utilization_desc_of_container{" + LEGACY + "} 99",
                        container(UsageField.VGPU_CORE_UTIL, 0.99)),
                arguments("card utilization, 2026 name", "hami_host_gpu_utilization_ratio{" + HOST_NEW + "} 71",
                        card(UsageField.GPU_UTIL, 0.71)),
                arguments("card utilization, legacy name", "HostCoreUtilization{" + HOST_LEGACY + "} 100",
                        card(UsageField.GPU_UTIL, 1.0)),
                arguments("card memory, 2026 name", "hami_host_gpu_memory_used_bytes{" + HOST_NEW + "} 8.05306368e+09",
                        card(UsageField.FB_USED_MIB, 7680)),
                arguments("card memory, legacy name", "HostGPUMemoryUsage{" + HOST_LEGACY + "} 1048576",
                        card(UsageField.FB_USED_MIB, 1)),
                arguments("a container without a container label", "hami_vgpu_memory_used_bytes{device_uuid=\"" + U
                                + "\",namespace=\"team-a\",pod=\"infer-0\"} 0",
                        new UsageObservation(U, "node-a", null, null, null, "team-a", "infer-0", null,
                                UsageField.VGPU_MEMORY_USED_MIB, 0, RECEIVED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("metrics")
    void mapsEachMetric(String name, String line, UsageObservation expected) {
        UsageMapping mapping = map(line + "\n", "node-a");
        assertEquals(List.of(expected), mapping.observations());
        assertEquals(0, mapping.unknownSamples() + mapping.invalidSamples());
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                arguments("no device uuid", "hami_vgpu_memory_used_bytes{namespace=\"a\",pod=\"b\"} 1", "no device_uuid label"),
                arguments("container series without a pod", "hami_vgpu_memory_used_bytes{device_uuid=\"" + U + "\",namespace=\"a\"} 1",
                        "no namespace and pod labels"),
                arguments("container series without a namespace", "vGPU_device_memory_usage_in_bytes{deviceuuid=\"" + U + "\",podname=\"b\"} 1",
                        "no namespace and pod labels"),
                arguments("utilization above 100", "hami_container_device_utilization_ratio{" + NEW + "} 140", "is not a percentage 0..100"),
                arguments("negative bytes", "hami_vgpu_memory_used_bytes{" + NEW + "} -1", "is not a non-negative byte count"),
                arguments("NaN", "HostCoreUtilization{" + HOST_LEGACY + "} NaN", "is not a percentage 0..100"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void skipsAndCountsUnusableSamples(String name, String line, String reason) {
        UsageMapping mapping = map(line + "\n", "node-a");
        assertEquals(List.of(), mapping.observations());
        assertEquals(1, mapping.invalidSamples());
        assertTrue(mapping.problems().get(0).contains(reason), mapping.problems().get(0));
    }

    @Test
    void usesANodeLabelWhenNoNodeIsGiven() {
        UsageMapping mapping = map("hami_host_gpu_utilization_ratio{" + HOST_NEW + ",node=\"node-z\"} 5\n", null);
        assertEquals("node-z", mapping.observations().get(0).node());
    }

    @Test
    void mapsTheLegacyMonitorScrape() {
        UsageMapping mapping = map(Fixtures.read("hami-vgpu-monitor-9394-legacy-scrape.prom"), "node-a");
        assertEquals(7, mapping.observations().size());
        assertEquals(2, mapping.unknownSamples());
        assertEquals(0, mapping.invalidSamples());
        UsageObservation util = mapping.observations().stream()
                .filter(o -> o.field() == UsageField.VGPU_CORE_UTIL).findFirst().orElseThrow();
        assertEquals(new UsageObservation("GPU-xxxx", "node-a", null, null, null, "default", "hami-device",
                "cuda-container", UsageField.VGPU_CORE_UTIL, 0.99, RECEIVED), util);
        assertEquals(List.of(0.0, 1.0), mapping.observations().stream()
                .filter(o -> o.field() == UsageField.GPU_UTIL).map(UsageObservation::value).toList());
    }

    @Test
    void mapsThe2026MonitorScrape() {
        UsageMapping mapping = map(Fixtures.read("hami-vgpu-monitor-9394-scrape.prom"), "node-a");
        assertEquals(10, mapping.observations().size());
        // hami_container_device_memory_bytes repeats the used bytes; last-kernel age is not usage
        assertEquals(3, mapping.unknownSamples());
        double used = mapping.observations().stream()
                .filter(o -> o.field() == UsageField.VGPU_MEMORY_USED_MIB && o.gpuUuid().equals(U))
                .mapToDouble(UsageObservation::value).sum();
        double card = mapping.observations().stream()
                .filter(o -> o.field() == UsageField.FB_USED_MIB && o.gpuUuid().equals(U))
                .mapToDouble(UsageObservation::value).sum();
        assertEquals(7168, used);
        assertEquals(7680, card);
    }
}
