package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.UsageField;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class DcgmSeriesTest {

    private static final Instant RECEIVED = Instant.parse("2026-07-03T22:30:00Z");
    private static final String U = "GPU-34319582-d595-d1c7-d1d2-179bcfa61660";
    private static final String DEVICE = "UUID=\"" + U + "\",gpu=\"0\",modelName=\"NVIDIA A100-SXM4-40GB\",Hostname=\"node-a\"";

    private final PrometheusTextParser parser = new PrometheusTextParser();

    private UsageMapping map(String body, String node) {
        return DcgmSeries.map(parser.parse(body), RECEIVED, node);
    }

    private static UsageObservation device(UsageField field, double value) {
        return new UsageObservation(U, "node-a", "NVIDIA A100-SXM4-40GB", null, null, null, null, null, field, value,
                RECEIVED);
    }

    static Stream<Arguments> fields() {
        return Stream.of(
                arguments("GPU_UTIL percent becomes a ratio", "DCGM_FI_DEV_GPU_UTIL", "45", UsageField.GPU_UTIL, 0.45),
                arguments("DCGM 4.x name of field 203, still a percentage", "DCGM_FI_DEV_GPU_UTIL_RATIO", "45", UsageField.GPU_UTIL, 0.45),
                arguments("GPU_UTIL at 100", "DCGM_FI_DEV_GPU_UTIL", "100", UsageField.GPU_UTIL, 1.0),
                arguments("field 1001", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "0.995630", UsageField.GR_ENGINE_ACTIVE, 0.99563),
                arguments("field 1001, DCGM 4.x name", "DCGM_FI_PROF_GR_ENGINE_UTIL_RATIO", "0.5", UsageField.GR_ENGINE_ACTIVE, 0.5),
                arguments("field 1002", "DCGM_FI_PROF_SM_ACTIVE", "0.7", UsageField.SM_ACTIVE, 0.7),
                arguments("field 1002, DCGM 4.x name", "DCGM_FI_PROF_SM_UTIL_RATIO", "0.7", UsageField.SM_ACTIVE, 0.7),
                arguments("field 1003", "DCGM_FI_PROF_SM_OCCUPANCY", "0.25", UsageField.SM_OCCUPANCY, 0.25),
                arguments("field 1003, DCGM 4.x name", "DCGM_FI_PROF_SM_OCCUPANCY_RATIO", "0.25", UsageField.SM_OCCUPANCY, 0.25),
                arguments("field 1004", "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "0.929260", UsageField.TENSOR_ACTIVE, 0.92926),
                arguments("field 1004, DCGM 4.x name", "DCGM_FI_PROF_TENSOR_UTIL_RATIO", "0.1", UsageField.TENSOR_ACTIVE, 0.1),
                arguments("field 1005", "DCGM_FI_PROF_DRAM_ACTIVE", "0.690789", UsageField.DRAM_ACTIVE, 0.690789),
                arguments("field 1005, DCGM 4.x name", "DCGM_FI_PROF_DRAM_UTIL_RATIO", "0", UsageField.DRAM_ACTIVE, 0.0),
                arguments("ratio of exactly 1", "DCGM_FI_PROF_GR_ENGINE_ACTIVE", "1", UsageField.GR_ENGINE_ACTIVE, 1.0),
                arguments("framebuffer used", "DCGM_FI_DEV_FB_USED", "4845", UsageField.FB_USED_MIB, 4845),
                arguments("framebuffer free", "DCGM_FI_DEV_FB_FREE", "35690", UsageField.FB_FREE_MIB, 35690),
                arguments("framebuffer reserved", "DCGM_FI_DEV_FB_RESERVED", "457", UsageField.FB_RESERVED_MIB, 457),
                arguments("power", "DCGM_FI_DEV_POWER_USAGE", "409.692000", UsageField.POWER_W, 409.692),
                arguments("power, DCGM 4.x name", "DCGM_FI_DEV_BOARD_POWER_WATTS", "78.5", UsageField.POWER_W, 78.5),
                arguments("SM clock", "DCGM_FI_DEV_SM_CLOCK", "1215", UsageField.SM_CLOCK_MHZ, 1215),
                arguments("last Xid", "DCGM_FI_DEV_XID_ERRORS", "79", UsageField.XID, 79),
                arguments("last Xid, DCGM 4.x name", "DCGM_FI_DEV_XID_ERROR", "119", UsageField.XID, 119),
                arguments("no Xid yet", "DCGM_FI_DEV_XID_ERRORS", "0", UsageField.XID, 0),
                arguments("row remap failed", "DCGM_FI_DEV_ROW_REMAP_FAILURE", "1", UsageField.ROW_REMAP_FAILURE, 1),
                arguments("row remap failed, DCGM 4.x name", "DCGM_FI_DEV_ROW_REMAP_FAILED", "1", UsageField.ROW_REMAP_FAILURE, 1),
                arguments("row remap pending", "DCGM_FI_DEV_ROW_REMAP_PENDING", "1", UsageField.ROW_REMAP_PENDING, 1),
                arguments("rows remapped for uncorrectable errors", "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "3",
                        UsageField.UNCORRECTABLE_REMAPPED_ROWS, 3),
                arguments("rows remapped for uncorrectable errors, DCGM 4.x name", "DCGM_FI_DEV_ROW_REMAP_UNCORRECTABLE_TOTAL", "4",
                        UsageField.UNCORRECTABLE_REMAPPED_ROWS, 4),
                arguments("double-bit ECC errors since the driver loaded", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "2",
                        UsageField.ECC_DBE_VOLATILE, 2),
                arguments("pages pending retirement", "DCGM_FI_DEV_RETIRED_PENDING", "5", UsageField.RETIRED_PAGES_PENDING, 5),
                arguments("pages pending retirement, DCGM 4.x name", "DCGM_FI_DEV_PAGE_RETIRED_PENDING", "0",
                        UsageField.RETIRED_PAGES_PENDING, 0),
                arguments("energy since the driver loaded", "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "319159391",
                        UsageField.TOTAL_ENERGY_MJ, 319159391),
                arguments("time held back by the power limit", "DCGM_FI_DEV_POWER_VIOLATION", "1500000000",
                        UsageField.POWER_VIOLATION_NS, 1.5e9),
                arguments("time held back by heat", "DCGM_FI_DEV_THERMAL_VIOLATION", "0", UsageField.THERMAL_VIOLATION_NS, 0),
                arguments("negative zero is zero", "DCGM_FI_DEV_FB_USED", "-0", UsageField.FB_USED_MIB, 0.0));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fields")
    void mapsEachField(String name, String metric, String value, UsageField field, double expected) {
        UsageMapping mapping = map(metric + "{" + DEVICE + "} " + value + "\n", null);
        assertEquals(List.of(device(field, expected)), mapping.observations());
        assertEquals(0, mapping.unknownSamples());
        assertEquals(0, mapping.invalidSamples());
    }

    static Stream<Arguments> labels() {
        String base = "UUID=\"" + U + "\"";
        return Stream.of(
                arguments("pod labels of the exporter's Kubernetes mode",
                        base + ",namespace=\"team-a\",pod=\"trainer-0\",container=\"main\"", null,
                        new UsageObservation(U, null, null, null, null, "team-a", "trainer-0", "main", UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("legacy pod labels",
                        base + ",pod_namespace=\"team-a\",pod_name=\"trainer-0\",container_name=\"main\"", null,
                        new UsageObservation(U, null, null, null, null, "team-a", "trainer-0", "main", UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("current pod labels win over legacy ones",
                        base + ",namespace=\"new\",pod_namespace=\"old\",pod=\"p\",pod_name=\"q\",container=\"c\",container_name=\"d\"", null,
                        new UsageObservation(U, null, null, null, null, "new", "p", "c", UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("empty current labels fall back to legacy ones",
                        base + ",namespace=\"\",pod_namespace=\"old\",pod=\"\",pod_name=\"q\"", null,
                        new UsageObservation(U, null, null, null, null, "old", "q", null, UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("empty pod labels on a free GPU are no pod",
                        base + ",namespace=\"\",pod=\"\",container=\"\",pod_uid=\"\"", null,
                        new UsageObservation(U, null, null, null, null, null, null, null, UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("MIG instance",
                        base + ",GPU_I_PROFILE=\"1g.5gb\",GPU_I_ID=\"13\",Hostname=\"ub20-a100-k8s\"", null,
                        new UsageObservation(U, "ub20-a100-k8s", null, "1g.5gb", 13, null, null, null, UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("lower-case hostname label", base + ",hostname=\"node-b\"", null,
                        new UsageObservation(U, "node-b", null, null, null, null, null, null, UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("the given node wins over the Hostname label", base + ",Hostname=\"dcgm-exporter-7xk2p\"", "node-c",
                        new UsageObservation(U, "node-c", null, null, null, null, null, null, UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("a blank given node leaves the label", base + ",Hostname=\"node-d\"", "  ",
                        new UsageObservation(U, "node-d", null, null, null, null, null, null, UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("lower-case uuid label", "uuid=\"" + U + "\"", null,
                        new UsageObservation(U, null, null, null, null, null, null, null, UsageField.FB_USED_MIB, 1, RECEIVED)),
                arguments("model name", base + ",modelName=\"NVIDIA H200\"", null,
                        new UsageObservation(U, null, "NVIDIA H200", null, null, null, null, null, UsageField.FB_USED_MIB, 1, RECEIVED)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("labels")
    void readsLabels(String name, String labels, String node, UsageObservation expected) {
        assertEquals(List.of(expected), map("DCGM_FI_DEV_FB_USED{" + labels + "} 1\n", node).observations());
    }

    @Test
    void honoursSampleTimestamps() {
        UsageMapping mapping = map("DCGM_FI_DEV_FB_USED{" + DEVICE + "} 1 1783117321444\n"
                + "DCGM_FI_DEV_FB_FREE{" + DEVICE + "} 2\n", null);
        assertEquals(Instant.ofEpochMilli(1783117321444L), mapping.observations().get(0).at());
        assertEquals(RECEIVED, mapping.observations().get(1).at());
    }

    static Stream<Arguments> invalid() {
        return Stream.of(
                arguments("no UUID label", "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} 5", "no UUID label"),
                arguments("empty UUID label", "DCGM_FI_DEV_GPU_UTIL{UUID=\"\"} 5", "no UUID label"),
                arguments("percentage above 100", "DCGM_FI_DEV_GPU_UTIL{" + DEVICE + "} 101", "is not a percentage 0..100"),
                arguments("negative percentage", "DCGM_FI_DEV_GPU_UTIL{" + DEVICE + "} -1", "is not a percentage 0..100"),
                arguments("ratio above 1", "DCGM_FI_PROF_SM_ACTIVE{" + DEVICE + "} 1.2", "is not a ratio 0..1"),
                arguments("ratio given as a percentage", "DCGM_FI_PROF_DRAM_ACTIVE{" + DEVICE + "} 55", "is not a ratio 0..1"),
                arguments("NaN", "DCGM_FI_DEV_POWER_USAGE{" + DEVICE + "} NaN", "is not a non-negative quantity"),
                arguments("+Inf", "DCGM_FI_DEV_FB_USED{" + DEVICE + "} +Inf", "is not a non-negative quantity"),
                arguments("negative memory", "DCGM_FI_DEV_FB_FREE{" + DEVICE + "} -3", "is not a non-negative quantity"),
                arguments("fractional Xid", "DCGM_FI_DEV_XID_ERRORS{" + DEVICE + "} 13.5", "is not a non-negative integer code"),
                arguments("negative bitmask", "DCGM_FI_DEV_CLOCKS_EVENT_REASONS{" + DEVICE + "} -4", "is not a non-negative integer code"),
                arguments("negative remap flag", "DCGM_FI_DEV_ROW_REMAP_FAILURE{" + DEVICE + "} -1", "is not a non-negative integer code"),
                arguments("fractional ECC count", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL{" + DEVICE + "} 1.5", "is not a non-negative integer count"),
                arguments("NaN pending pages", "DCGM_FI_DEV_RETIRED_PENDING{" + DEVICE + "} NaN", "is not a non-negative integer count"),
                arguments("GPU instance id that is a word", "DCGM_FI_PROF_GR_ENGINE_ACTIVE{" + DEVICE + ",GPU_I_ID=\"x\"} 0.5", "is not a GPU instance id"),
                arguments("negative GPU instance id", "DCGM_FI_PROF_GR_ENGINE_ACTIVE{" + DEVICE + ",GPU_I_ID=\"-1\"} 0.5", "is not a GPU instance id"),
                arguments("GPU instance id beyond an int", "DCGM_FI_PROF_GR_ENGINE_ACTIVE{" + DEVICE + ",GPU_I_ID=\"4294967296\"} 0.5", "is not a GPU instance id"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalid")
    void skipsAndCountsUnusableSamples(String name, String line, String reason) {
        UsageMapping mapping = map(line + "\nDCGM_FI_DEV_SM_CLOCK{" + DEVICE + "} 1410\n", null);
        assertEquals(List.of(device(UsageField.SM_CLOCK_MHZ, 1410)), mapping.observations());
        assertEquals(1, mapping.invalidSamples());
        assertEquals(1, mapping.problems().size());
        assertTrue(mapping.problems().get(0).contains(reason), mapping.problems().get(0));
    }

    @Test
    void countsUnknownMetrics() {
        UsageMapping mapping = map("DCGM_FI_DEV_GPU_TEMP{" + DEVICE + "} 61\nDCGM_FI_DEV_MEM_COPY_UTIL{" + DEVICE + "} 3\n"
                + "up 1\n", null);
        assertEquals(List.of(), mapping.observations());
        assertEquals(3, mapping.unknownSamples());
        assertEquals(0, mapping.invalidSamples());
    }

    @Test
    void keepsOnlyTheFirstProblems() {
        StringBuilder body = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            body.append("DCGM_FI_DEV_GPU_UTIL{gpu=\"").append(i).append("\"} 1\n");
        }
        UsageMapping mapping = map(body.toString(), null);
        assertEquals(50, mapping.invalidSamples());
        assertEquals(UsageMapping.MAX_PROBLEMS, mapping.problems().size());
    }

    @Test
    void mapsTheA100MigScrape() {
        UsageMapping mapping = map(Fixtures.read("dcgm-exporter-scrape-a100-mig-1g5gb.prom"), null);
        assertEquals(13, mapping.observations().size());
        assertEquals(8, mapping.unknownSamples());
        assertEquals(0, mapping.invalidSamples());
        List<UsageObservation> mig = mapping.observations().stream().filter(o -> o.migInstanceId() != null).toList();
        assertEquals(List.of(
                new UsageObservation(U, "ub20-a100-k8s", null, "1g.5gb", 13, null, null, null, UsageField.XID, 0, RECEIVED),
                new UsageObservation(U, "ub20-a100-k8s", null, "1g.5gb", 13, null, null, null, UsageField.GR_ENGINE_ACTIVE, 0.995687, RECEIVED),
                new UsageObservation(U, "ub20-a100-k8s", null, "1g.5gb", 13, null, null, null, UsageField.TENSOR_ACTIVE, 0.930433, RECEIVED),
                new UsageObservation(U, "ub20-a100-k8s", null, "1g.5gb", 13, null, null, null, UsageField.DRAM_ACTIVE, 0.800339, RECEIVED)),
                mig);
        assertTrue(mapping.observations().contains(
                new UsageObservation(U, "ub20-a100-k8s", null, null, null, null, null, null, UsageField.POWER_W, 409.692, RECEIVED)));
        assertTrue(mapping.observations().contains(new UsageObservation(U, "ub20-a100-k8s", null, null, null, null, null,
                null, UsageField.TOTAL_ENERGY_MJ, 319159391, RECEIVED)));
    }

    @Test
    void mapsTheKubernetesScrape() {
        UsageMapping mapping = map(Fixtures.read("dcgm-exporter-scrape-l40s-k8s-pod-labels.prom"), "gpu-node-07");
        assertEquals(24, mapping.observations().size());
        assertEquals(8, mapping.unknownSamples());
        String held = "GPU-5f0c2a81-9b3e-4d7a-8e21-3c6b9d0f1a42";
        assertTrue(mapping.observations().contains(new UsageObservation(held, "gpu-node-07", "NVIDIA L40S", null, null,
                "team-a", "trainer-6c9f7d-x2kqp", "trainer", UsageField.SM_ACTIVE, 0.71255, RECEIVED)));
        assertTrue(mapping.observations().contains(new UsageObservation(held, "gpu-node-07", "NVIDIA L40S", null, null,
                "team-a", "trainer-6c9f7d-x2kqp", "trainer", UsageField.GPU_UTIL, 0.97, RECEIVED)));
        assertTrue(mapping.observations().stream()
                .filter(o -> o.gpuUuid().equals("GPU-a1e47b90-2c5d-4f18-b6a3-7d2e8f9c0b13"))
                .allMatch(o -> o.pod() == null && o.namespace() == null && o.container() == null));
    }

    /** The card's bitmask and its nine reasons, each 0 or 1, as one sample yields them. */
    private static List<UsageObservation> decoded(double mask) {
        List<UsageObservation> out = new java.util.ArrayList<>();
        out.add(device(UsageField.THROTTLE_REASONS, mask));
        for (io.gpumeter.common.fact.ClockEventReason reason : io.gpumeter.common.fact.ClockEventReason.values()) {
            out.add(device(reason.field(), reason.in((long) mask) ? 1 : 0));
        }
        return out;
    }

    @Test
    void decodesTheClocksEventBitmaskUnderBothNames() {
        UsageMapping old = map("DCGM_FI_DEV_CLOCK_THROTTLE_REASONS{" + DEVICE + "} 4\n", null);
        assertEquals(decoded(4), old.observations());
        UsageMapping current = map("DCGM_FI_DEV_CLOCKS_EVENT_REASONS{" + DEVICE + "} 257\n", null);
        assertEquals(decoded(257), current.observations());
        assertEquals(1.0, current.observations().stream()
                .filter(o -> o.field() == UsageField.CLOCKS_EVENT_DISPLAY_CLOCK_SETTING).findFirst().orElseThrow().value());
        assertEquals(List.of(), current.problems());
    }

    @Test
    void keepsTheKnownReasonsOfABitmaskWithUnknownBitsAndSaysSo() {
        UsageMapping mapping = map("DCGM_FI_DEV_CLOCKS_EVENT_REASONS{" + DEVICE + "} 1028\n", null);
        assertEquals(decoded(1028), mapping.observations());
        assertEquals(0, mapping.invalidSamples());
        assertEquals(1, mapping.problems().size());
        assertTrue(mapping.problems().get(0).contains("bits 0x400 of clocks-event bitmask 0x404"), mapping.problems().get(0));
    }

    static Stream<Arguments> blanks() {
        return Stream.of(
                arguments("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "9223372036854775792", "DCGM's blank"),
                arguments("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "4.5", "not a non-negative integer code"),
                arguments("DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", "9223372036854775794", "DCGM's blank"),
                arguments("DCGM_FI_DEV_POWER_VIOLATION", "-3", "not a non-negative integer count"),
                arguments("DCGM_FI_DEV_POWER_USAGE", "140737488355330", "DCGM's blank"));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("blanks")
    void skipsBlanksAndGarbageWithAReason(String metric, String value, String why) {
        UsageMapping mapping = map(metric + "{" + DEVICE + "} " + value + "\n", null);
        assertEquals(List.of(), mapping.observations(), "no raw bitmask and no reason series either");
        assertEquals(1, mapping.invalidSamples());
        assertTrue(mapping.problems().get(0).contains(why), mapping.problems().get(0));
    }

    @Test
    void foldsTheMigCopiesOfPowerAndHeatIntoTheCardsSeries() {
        UsageMapping mapping = map(Fixtures.read("dcgm-exporter-scrape-a30-mig-power-heat.prom"), null);
        // 2 cards: power per instance copy (3), energy (3), bitmask + 9 reasons per copy (30), violations (6);
        // the sync boost counter is not read
        assertEquals(42, mapping.observations().size());
        assertEquals(1, mapping.unknownSamples());
        assertEquals(0, mapping.invalidSamples());
        List<io.gpumeter.common.fact.UsageSample> samples = mapping.observations().stream().map(UsageSamples::of).toList();
        String capped = "GPU-7c1e9d42-0a5b-4f3c-9e26-5d8b1a4c7f30";
        String hot = "GPU-2e8f0b17-6d4a-4c91-b3e5-0f7a9c2d6e84";
        // card-wide series leave the MIG instance: the card's one series
        for (io.gpumeter.common.fact.UsageSample s : samples) {
            if (s.field() != UsageField.POWER_W && s.field() != UsageField.THROTTLE_REASONS) {
                assertEquals(io.gpumeter.common.fact.UsageScope.DEVICE, s.scope(), s.toString());
                assertEquals("", s.scopeKey());
            }
        }
        assertTrue(samples.stream().anyMatch(s -> s.gpuUuid().equals(capped)
                && s.field() == UsageField.CLOCKS_EVENT_SW_POWER_CAP && s.value() == 1));
        assertTrue(samples.stream().anyMatch(s -> s.gpuUuid().equals(capped)
                && s.field() == UsageField.TOTAL_ENERGY_MJ && s.value() == 93817264051.0));
        // 96 = 0x40 | 0x20: hardware and software thermal slowdown
        assertEquals(Set.of(UsageField.CLOCKS_EVENT_SW_THERMAL_SLOWDOWN, UsageField.CLOCKS_EVENT_HW_THERMAL_SLOWDOWN),
                samples.stream().filter(s -> s.gpuUuid().equals(hot) && s.value() == 1
                                && io.gpumeter.common.fact.ClockEventReason.of(s.field()) != null)
                        .map(io.gpumeter.common.fact.UsageSample::field).collect(Collectors.toSet()));
        assertTrue(samples.stream().anyMatch(s -> s.gpuUuid().equals(hot)
                && s.field() == UsageField.THERMAL_VIOLATION_NS && s.value() == 7.031e9));
    }

    private static final Pattern COUNTER_ROW = Pattern.compile("^(#\\s*)?(DCGM_[A-Z0-9_]+)\\s*,\\s*([a-z]+)\\s*,");

    /** The field of every counter row of a dcgm-exporter counters CSV, enabled rows only or all of them. */
    private static Set<UsageField> fieldsOf(String csv, boolean enabledOnly) {
        return csv.lines()
                .map(COUNTER_ROW::matcher)
                .filter(Matcher::find)
                .filter(m -> !enabledOnly || m.group(1) == null)
                .map(m -> DcgmSeries.fieldOf(m.group(2)))
                .flatMap(java.util.Optional::stream)
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(UsageField.class)));
    }

    @Test
    void readsEveryUsageCounterThatTheShippedCountersEnable() {
        EnumSet<UsageField> enabled = EnumSet.of(UsageField.GPU_UTIL, UsageField.GR_ENGINE_ACTIVE,
                UsageField.TENSOR_ACTIVE, UsageField.DRAM_ACTIVE, UsageField.FB_USED_MIB, UsageField.FB_FREE_MIB,
                UsageField.FB_RESERVED_MIB, UsageField.POWER_W, UsageField.SM_CLOCK_MHZ, UsageField.XID,
                UsageField.ROW_REMAP_FAILURE, UsageField.UNCORRECTABLE_REMAPPED_ROWS, UsageField.TOTAL_ENERGY_MJ);
        for (String csv : List.of("dcgm-exporter-default-counters.csv", "dcgm-exporter-dcp-metrics-included.csv")) {
            String text = Fixtures.read(csv);
            assertEquals(enabled, fieldsOf(text, true), csv);
            // SM_ACTIVE and SM_OCCUPANCY ship commented out, and so do the volatile double-bit ECC count, the
            // pages pending retirement and the power and thermal violation counters: a counters CSV of ours must
            // enable them (the clocks-event bitmask, field 112, is not in these files at all)
            EnumSet<UsageField> all = EnumSet.copyOf(enabled);
            all.addAll(List.of(UsageField.SM_ACTIVE, UsageField.SM_OCCUPANCY, UsageField.ECC_DBE_VOLATILE,
                    UsageField.RETIRED_PAGES_PENDING, UsageField.POWER_VIOLATION_NS, UsageField.THERMAL_VIOLATION_NS));
            assertEquals(all, fieldsOf(text, false), csv);
        }
    }

    @Test
    void mapsAScrapeOfEveryEnabledDefaultCounter() {
        StringBuilder body = new StringBuilder();
        int metrics = 0;
        for (String row : Fixtures.read("dcgm-exporter-default-counters.csv").lines().toList()) {
            Matcher m = COUNTER_ROW.matcher(row);
            if (m.find() && m.group(1) == null && !m.group(3).equals("label")) {
                body.append("# TYPE ").append(m.group(2)).append(' ').append(m.group(3)).append('\n')
                        .append(m.group(2)).append('{').append(DEVICE).append("} 0\n");
                metrics++;
            }
        }
        UsageMapping mapping = map(body.toString(), null);
        // 10 usage series, the energy counter, and of the row remapper's three the uncorrectable rows and the failure
        // flag.
        assertEquals(13, mapping.observations().size());
        assertEquals(metrics - 13, mapping.unknownSamples());
        assertEquals(0, mapping.invalidSamples());
    }

    @Test
    void namesBothSpellingsOfEveryField() {
        assertEquals(33, DcgmSeries.metricNames().size());
        EnumSet<UsageField> read = EnumSet.range(UsageField.GPU_UTIL, UsageField.XID);
        read.addAll(EnumSet.range(UsageField.ROW_REMAP_FAILURE, UsageField.RETIRED_PAGES_PENDING));
        read.addAll(EnumSet.range(UsageField.TOTAL_ENERGY_MJ, UsageField.THERMAL_VIOLATION_NS));
        assertEquals(read, DcgmSeries.metricNames().stream()
                .map(name -> DcgmSeries.fieldOf(name).orElseThrow())
                .collect(Collectors.toCollection(() -> EnumSet.noneOf(UsageField.class))));
    }
}
