package io.gpumeter.collector.usage;

import io.gpumeter.common.fact.DriverSightingFact;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver version the data paths name: dcgm-exporter's DCGM_FI_DRIVER_VERSION label on every series of a card,
 * nvidia-smi's driver_version column; once per node, card and version of a body, however many samples carry it.
 */
class DriverSightingsTest {

    static final Instant RECEIVED = Instant.parse("2026-07-03T22:22:30Z");

    @Test
    void anExporterScrapeNamesEachCardsVersionOnceNotOncePerSeries() {
        UsageMapping mapping = DcgmSeries.map(new PrometheusTextParser().parse(
                Fixtures.read("dcgm-exporter-scrape-l40s-k8s-pod-labels.prom")), RECEIVED, "gpu-node-07");
        assertEquals(List.of(
                new DriverSightingFact("gpu-node-07", "GPU-5f0c2a81-9b3e-4d7a-8e21-3c6b9d0f1a42", "580.95.05", "dcgm-exporter", RECEIVED),
                new DriverSightingFact("gpu-node-07", "GPU-a1e47b90-2c5d-4f18-b6a3-7d2e8f9c0b13", "580.95.05", "dcgm-exporter", RECEIVED)),
                mapping.driverSightings());
        assertTrue(mapping.observations().size() > 2, "and every usage series as before");
    }

    @Test
    void withoutTheNodeGivenTheExportersHostnameNamesIt() {
        UsageMapping mapping = DcgmSeries.map(new PrometheusTextParser().parse(
                Fixtures.read("dcgm-exporter-scrape-l40s-k8s-pod-labels.prom")), RECEIVED, null);
        assertTrue(mapping.driverSightings().stream().allMatch(s -> s.node().equals("gpu-node-07")));
    }

    @Test
    void anExporterWithoutTheLabelNamesNone() {
        UsageMapping mapping = DcgmSeries.map(new PrometheusTextParser().parse(
                Fixtures.read("dcgm-exporter-scrape-a100-mig-1g5gb.prom")), RECEIVED, "a100-node");
        assertTrue(mapping.driverSightings().isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"latest", "580.95.05-beta", "r580", "5.8.0.9.5", "",
            "5555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555555"})
    void aLabelThatIsNoVersionIsAProblemAndTheSamplesAreKept(String version) {
        String body = """
                DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-1",DCGM_FI_DRIVER_VERSION="%s"} 42
                DCGM_FI_DEV_FB_USED{gpu="0",UUID="GPU-1",DCGM_FI_DRIVER_VERSION="%s"} 1024
                DCGM_FI_DEV_GPU_UTIL{gpu="1",UUID="GPU-2",DCGM_FI_DRIVER_VERSION="550.54.15"} 7
                """.formatted(version, version);
        UsageMapping mapping = DcgmSeries.map(new PrometheusTextParser().parse(body), RECEIVED, "n1");
        assertEquals(3, mapping.observations().size(), "nothing of the usage is lost");
        assertEquals(List.of(new DriverSightingFact("n1", "GPU-2", "550.54.15", "dcgm-exporter", RECEIVED)),
                mapping.driverSightings());
        if (version.isEmpty()) {
            assertTrue(mapping.problems().isEmpty(), "an empty label is no version named: " + mapping.problems());
        } else {
            assertEquals(1, mapping.problems().size(), "one problem for the card, not one per series: " + mapping.problems());
            assertTrue(mapping.problems().get(0).startsWith("DCGM_FI_DRIVER_VERSION of GPU-1: driver version \""),
                    mapping.problems().get(0));
            assertTrue(mapping.problems().get(0).endsWith("is not numbers joined by dots, not kept as the card's driver version"));
            assertTrue(mapping.problems().get(0).length() < 200, "a long value is shown cut");
        }
        assertEquals(0, mapping.invalidSamples());
    }

    @Test
    void nvidiaSmisQueryGpuNamesTheDriverOfItsCard() {
        UsageMapping mapping = NvidiaSmiGpuQuery.read(Fixtures.h200("idle :: query-gpu (csv, what the exporter parses)"),
                ZoneOffset.UTC, "h200-node");
        assertEquals(List.of(new DriverSightingFact("h200-node", "GPU-00000000-0000-0000-0000-000000000000", "590.48.01",
                "nvidia-smi", Instant.parse("2026-07-03T22:22:01.444Z"))), mapping.driverSightings());
        assertEquals(NvidiaSmiGpuQuery.parse(Fixtures.h200("idle :: query-gpu (csv, what the exporter parses)"),
                ZoneOffset.UTC, "h200-node"), mapping.observations());
    }

    @Test
    void aQueryOfManyRowsNamesEachCardOnceAndSkipsWhatIsNotAVersion() {
        String csv = """
                timestamp, uuid, driver_version, utilization.gpu [%]
                2026/05/01 10:00:00.000, GPU-1, 550.54.15, 10 %
                2026/05/01 10:00:01.000, GPU-1, 550.54.15, 11 %
                2026/05/01 10:00:00.000, GPU-2, [N/A], 12 %
                2026/05/01 10:00:00.000, GPU-3, unknown, 13 %
                """;
        UsageMapping mapping = NvidiaSmiGpuQuery.read(csv, ZoneOffset.UTC, "n1");
        assertEquals(List.of(new DriverSightingFact("n1", "GPU-1", "550.54.15", "nvidia-smi",
                Instant.parse("2026-05-01T10:00:00Z"))), mapping.driverSightings());
        assertEquals(List.of("line 5, driver_version of GPU-3: driver version \"unknown\" is not numbers joined by dots, "
                + "not kept as the card's driver version"), mapping.problems());
        assertEquals(4, mapping.observations().size());
    }
}
