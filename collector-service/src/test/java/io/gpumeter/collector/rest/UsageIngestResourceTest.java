package io.gpumeter.collector.rest;

import com.fasterxml.jackson.databind.JsonNode;
import io.gpumeter.collector.testing.LedgerStandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@QuarkusTest
@WithTestResource(LedgerStandIn.class)
class UsageIngestResourceTest {

    @BeforeEach
    void reset() {
        LedgerStandIn.reset();
    }

    static String fixture(String name) throws IOException {
        try (InputStream in = UsageIngestResourceTest.class.getResourceAsStream("/fixtures/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    static List<JsonNode> samples() {
        return LedgerStandIn.usage().stream().flatMap(b -> b.path("samples").valueStream()).toList();
    }

    @Test
    void aMigScrapeSeparatesTheCardFromItsInstance() throws IOException {
        given().contentType("text/plain").body(fixture("dcgm-exporter-scrape-a100-mig-1g5gb.prom"))
                .queryParam("node", "a100-1").queryParam("cluster", "lab").post("/api/v1/ingest/dcgm").then()
                .statusCode(200).body("cluster", equalTo("lab")).body("node", equalTo("a100-1"));
        List<JsonNode> samples = samples();
        JsonNode device = samples.stream().filter(s -> s.path("field").asText().equals("GR_ENGINE_ACTIVE")
                && s.path("scope").asText().equals("DEVICE")).findFirst().orElseThrow();
        assertEquals("GPU-34319582-d595-d1c7-d1d2-179bcfa61660", device.path("gpuUuid").asText());
        assertEquals(0.99563, device.path("value").asDouble(), 1e-9);
        JsonNode instance = samples.stream().filter(s -> s.path("field").asText().equals("GR_ENGINE_ACTIVE")
                && s.path("scope").asText().equals("MIG_INSTANCE")).findFirst().orElseThrow();
        assertEquals("13", instance.path("scopeKey").asText());
        assertEquals("1g.5gb", instance.path("migProfile").asText());
        assertEquals("a100-1", instance.path("node").asText());
        assertTrue(samples.stream().allMatch(s -> s.path("at").isTextual()));
    }

    @Test
    void powerAndHeatReachTheLedgerDecodedAndAsTheCardsSeries() throws IOException {
        given().contentType("text/plain").body(fixture("dcgm-exporter-scrape-a30-mig-power-heat.prom"))
                .queryParam("node", "gpu-a30-03").post("/api/v1/ingest/dcgm").then().statusCode(200)
                .body("samples", equalTo(42)).body("skipped", equalTo(1));
        List<JsonNode> samples = samples();
        String capped = "GPU-7c1e9d42-0a5b-4f3c-9e26-5d8b1a4c7f30";
        // the card's two MIG copies of its bitmask yield one series per reason on the card, power capped
        List<JsonNode> cap = samples.stream().filter(s -> s.path("gpuUuid").asText().equals(capped)
                && s.path("field").asText().equals("CLOCKS_EVENT_SW_POWER_CAP")).toList();
        assertEquals(2, cap.size());
        assertTrue(cap.stream().allMatch(s -> s.path("value").asDouble() == 1.0 && s.path("scope").asText().equals("DEVICE")));
        assertTrue(samples.stream().anyMatch(s -> s.path("gpuUuid").asText().equals(capped)
                && s.path("field").asText().equals("CLOCKS_EVENT_HW_THERMAL_SLOWDOWN") && s.path("value").asDouble() == 0.0));
        assertTrue(samples.stream().anyMatch(s -> s.path("field").asText().equals("TOTAL_ENERGY_MJ")
                && s.path("scope").asText().equals("DEVICE") && s.path("value").asDouble() == 93817264051.0));
        assertTrue(samples.stream().anyMatch(s -> s.path("field").asText().equals("THERMAL_VIOLATION_NS")
                && s.path("value").asDouble() == 7.031e9));
    }

    @Test
    void memoryHealthSeriesAreTheWholeCardsEvenOnAMigInstance() {
        String card = "UUID=\"GPU-H\",gpu=\"0\",Hostname=\"a100-2\"";
        String body = "DCGM_FI_DEV_ROW_REMAP_FAILURE{" + card + ",namespace=\"ml\",pod=\"p\",container=\"c\"} 1\n"
                + "DCGM_FI_DEV_ROW_REMAP_FAILED{" + card + ",GPU_I_PROFILE=\"1g.5gb\",GPU_I_ID=\"13\",namespace=\"ml\",pod=\"q\"} 1\n"
                + "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL{" + card + "} 2\n"
                + "DCGM_FI_DEV_PAGE_RETIRED_PENDING{" + card + "} 0\n";
        given().contentType("text/plain").body(body).queryParam("node", "a100-2").post("/api/v1/ingest/dcgm").then()
                .statusCode(200).body("samples", equalTo(4));
        List<JsonNode> samples = samples();
        assertEquals(List.of("ROW_REMAP_FAILURE", "ROW_REMAP_FAILURE", "ECC_DBE_VOLATILE", "RETIRED_PAGES_PENDING"),
                samples.stream().map(s -> s.path("field").asText()).toList());
        assertTrue(samples.stream().allMatch(s -> s.path("scope").asText().equals("DEVICE") && s.path("scopeKey").asText().isEmpty()));
        assertEquals("p", samples.get(0).path("pod").asText(), "the card's own series names the pod on it, as any device series does");
        assertNull(samples.get(1).path("pod").textValue(), "the MIG instance's pod does not hold the whole card");
        assertNull(samples.get(1).path("migProfile").textValue());
        assertEquals(2.0, samples.get(2).path("value").asDouble());
    }

    @Test
    void sampleTimestampsAreHonoured() {
        LedgerStandIn.usageReceipt(1);
        String body = "DCGM_FI_PROF_SM_ACTIVE{gpu=\"0\",UUID=\"GPU-T\",pod=\"p\",namespace=\"ml\",container=\"c\"} 0.25 1782900000000\n";
        given().contentType("text/plain").body(body).queryParam("node", "n1").post("/api/v1/ingest/dcgm").then()
                .statusCode(200).body("samples", equalTo(1)).body("accepted", equalTo(1));
        assertEquals(1, samples().size());
        JsonNode sample = samples().get(0);
        assertEquals("2026-07-01T10:00:00Z", sample.path("at").asText());
        assertEquals("DEVICE", sample.path("scope").asText(), "pod labels on a device series name the pod, not a new scope");
        assertEquals("p", sample.path("pod").asText());
    }

    @Test
    void nvidiaSmiCsvInAnyColumnOrderIsReadInTheGivenZone() {
        String csv = "utilization.gpu [%], uuid, timestamp, memory.used [MiB]\n"
                + "37 %, GPU-N1, 2026/07/03 22:22:01.444, 1024 MiB\n";
        given().contentType("text/csv").body(csv).queryParam("node", "n1").queryParam("tz", "Europe/Berlin")
                .post("/api/v1/ingest/nvidia-smi").then().statusCode(200).body("samples", equalTo(2));
        JsonNode util = samples().stream().filter(s -> s.path("field").asText().equals("GPU_UTIL")).findFirst().orElseThrow();
        assertEquals(0.37, util.path("value").asDouble(), 1e-9);
        assertEquals("2026-07-03T20:22:01.444Z", util.path("at").asText());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no node | /api/v1/ingest/dcgm | text/plain | | DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-1\"} 5 | node",
            "bad escape | /api/v1/ingest/dcgm?node=n | text/plain | | DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-\\q\"} 5 | line 1",
            "duplicate series | /api/v1/ingest/dcgm?node=n | text/plain | | 'DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-1\"} 5\nDCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-1\"} 6' | line 2",
            "bad zone | /api/v1/ingest/nvidia-smi?node=n&tz=Mars/Base | text/csv | | 'uuid, timestamp, utilization.gpu [%]\nGPU-1, 2026/07/03 22:22:01.444, 5 %' | tz",
            "no uuid column | /api/v1/ingest/nvidia-smi?node=n | text/csv | | 'timestamp, utilization.gpu [%]\n2026/07/03 22:22:01.444, 5 %' | line 1",
            "bad cluster | /api/v1/ingest/dcgm?node=n&cluster=Lab | text/plain | | DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-1\"} 5 | cluster",
    })
    void badBodiesAreRefusedWholeNamingTheField(String name, String url, String type, String ignored, String body, String field) {
        given().urlEncodingEnabled(false).contentType(type).body(body.replace("\\n", "\n")).post(url).then()
                .statusCode(400).contentType("application/problem+json").body("field", equalTo(field));
        assertTrue(LedgerStandIn.usage().isEmpty());
    }

    @Test
    void anUnavailableLedgerIsA503AndOneFailingOnTheBatchA500() {
        LedgerStandIn.refuse(503);
        given().contentType("text/plain").body("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-1\"} 5\n").queryParam("node", "n")
                .post("/api/v1/ingest/dcgm").then().statusCode(503).body("detail", containsString("send it again"));
        LedgerStandIn.answerAgain();
        LedgerStandIn.refuse(500);
        given().contentType("text/plain").body("DCGM_FI_DEV_GPU_UTIL{UUID=\"GPU-1\"} 5\n").queryParam("node", "n")
                .post("/api/v1/ingest/dcgm").then().statusCode(500).contentType("application/problem+json")
                .body("detail", containsString("the ledger failed on this batch"));
    }
}
