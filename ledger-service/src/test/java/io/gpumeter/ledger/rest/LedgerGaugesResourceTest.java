package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Management;
import io.gpumeter.ledger.service.LedgerGauges;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The fleet gauges on /q/metrics for cluster "gauge", worked out by hand:
 * <pre>
 * held now: a 0.5-card vGPU (40 GiB, 50 cores) on G1, a whole-card vGPU (80 GiB, 100 cores) on G2 -> VGPU 1.5;
 *   a device-plugin card on gn2 -> WHOLE 1
 * used in the last complete minute: G1 SM_ACTIVE 0.25 + G2 GR_ENGINE_ACTIVE 0.5 = 0.75
 * fragmentation: only G1 has free memory, 40 GiB, and takes more: 30 GiB strands 10 -> 0.25, 10 and 20 strand
 *   nothing; overall 10/(3x40) = 0.083333; no MIG card -> NaN
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class LedgerGaugesResourceTest {

    @Inject
    LedgerGauges gauges;

    /** Held from ten minutes ago, so no fixed report window of another test sees these units. */
    static String pod(String uid, String node, String resources, String vgpus) {
        String since = Instant.now().minus(10, ChronoUnit.MINUTES).toString();
        return "{\"uid\":\"" + uid + "\",\"namespace\":\"gq\",\"name\":\"" + uid + "\",\"resourceVersion\":\"2\",\"type\":\"MODIFIED\","
                + "\"observedAt\":\"" + since + "\",\"scheduledAt\":\"" + since + "\",\"nodeName\":\"" + node + "\","
                + "\"gpuResources\":" + resources + ",\"vgpus\":" + vgpus
                + ("[]".equals(vgpus) ? "" : ",\"hamiBindPhase\":\"success\",\"hamiNode\":\"" + node + "\"") + "}";
    }

    /** One vGPU as HAMi grants it to a pod that asks for this memory and these cores. */
    static String hamiPod(String uid, String node, String card, long memory, int cores) {
        return pod(uid, node, "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":" + memory + ",\"nvidia.com/gpucores\":" + cores + "}",
                "[{\"container\":0,\"uuid\":\"" + card + "\",\"type\":\"NVIDIA\",\"memoryMib\":" + memory + ",\"cores\":" + cores + "}]");
    }

    static String gpu(String uuid) {
        return "{\"uuid\":\"" + uuid + "\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":4}";
    }

    @Test
    void gaugesShowWhatIsHeldUsedAndStrandedNow() {
        String seen = Instant.now().minus(1, ChronoUnit.HOURS).toString();
        String facts = "{\"cluster\":\"gauge\",\"nodes\":["
                + "{\"name\":\"gn1\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"" + seen + "\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},\"gpus\":[" + gpu("GPU-G1") + "," + gpu("GPU-G2") + "]},"
                + "{\"name\":\"gn2\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"" + seen + "\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-L40S\",\"nvidia.com/gpu.count\":\"1\",\"nvidia.com/gpu.memory\":\"46068\"}}],"
                + "\"pods\":[" + hamiPod("g1", "gn1", "GPU-G1", 40960, 50) + ","
                + hamiPod("g2", "gn1", "GPU-G2", 81920, 100) + ","
                + pod("g3", "gn2", "{\"nvidia.com/gpu\":1}", "[]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        // Every one of the last five minutes is measured, so whichever is the last complete one reads the same.
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        List<String> samples = new ArrayList<>();
        for (int k = 1; k <= 5; k++) {
            String at = minute.minus(k, ChronoUnit.MINUTES).plusSeconds(10).toString();
            samples.add("{\"gpuUuid\":\"GPU-G1\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"SM_ACTIVE\",\"value\":0.25,\"at\":\"" + at + "\"}");
            samples.add("{\"gpuUuid\":\"GPU-G2\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"GR_ENGINE_ACTIVE\",\"value\":0.5,\"at\":\"" + at + "\"}");
        }
        given().contentType(ContentType.JSON).body("{\"cluster\":\"gauge\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);

        gauges.refresh().await().indefinitely();

        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertEquals(1.5, gauge(metrics, "gpumeter_ledger_gpus_allocated", "cluster=\"gauge\",kind=\"VGPU\""));
        assertEquals(1.0, gauge(metrics, "gpumeter_ledger_gpus_allocated", "cluster=\"gauge\",kind=\"WHOLE\""));
        assertEquals(0.75, gauge(metrics, "gpumeter_ledger_gpus_used", "cluster=\"gauge\""));
        assertEquals(0.0, gauge(metrics, "gpumeter_ledger_fragmentation_ratio", "cluster=\"gauge\",shape=\"10GiB\""));
        assertEquals(0.25, gauge(metrics, "gpumeter_ledger_fragmentation_ratio", "cluster=\"gauge\",shape=\"30GiB\""));
        assertEquals(0.083333, gauge(metrics, "gpumeter_ledger_fragmentation_ratio", "cluster=\"gauge\",shape=\"overall\""));
        assertTrue(Double.isNaN(gauge(metrics, "gpumeter_ledger_fragmentation_mig_ratio", "cluster=\"gauge\"")));
    }

    @Test
    void aViolationStillRunningIsCountedOpen() {
        // A container computes on a card where its pod holds nothing, in each of the last five minutes: one open bypass.
        Instant minute = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        List<String> samples = new ArrayList<>();
        for (int k = 1; k <= 5; k++) {
            samples.add("{\"gpuUuid\":\"GPU-V9\",\"scope\":\"CONTAINER\",\"scopeKey\":\"ml/ghost/main\","
                    + "\"field\":\"VGPU_CORE_UTIL\",\"value\":0.3,\"at\":\"" + minute.minus(k, ChronoUnit.MINUTES).plusSeconds(10) + "\"}");
        }
        given().contentType(ContentType.JSON).body("{\"cluster\":\"gauge-v\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);

        gauges.refresh().await().indefinitely();

        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertEquals(1.0, gauge(metrics, "gpumeter_ledger_violations_open", "cluster=\"gauge-v\",kind=\"BYPASS\""));
    }

    private static double gauge(String metrics, String name, String tags) {
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(name + "{" + tags) + ",?\\} (\\S+)$").matcher(metrics);
        assertTrue(m.find(), name + "{" + tags + "} is not exposed");
        return Double.parseDouble(m.group(1));
    }
}
