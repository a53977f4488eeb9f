package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

/**
 * Open incidents whatever their start, for cluster "fopen" (no other test writes there). T is the current minute;
 * the history, worked out by hand:
 * <pre>
 * gpu-9    registers GPU-9a, 9b, 9c, 9d at T-31d; at T-25d GPU-9d is missing: gpu-lost since T-25d, open.
 * gpu-8    registers GPU-8a at T-29d, nothing at T-28d (gpu-lost since T-28d), deleted at T-27d: ended, not open.
 * GPU-9a   ECC_DBE_VOLATILE 0 at T-30d-1m, 2 at T-30d, still 2 at T-1h (never reset): gpu-health since T-30d, open.
 * GPU-9b   ROW_REMAP_FAILURE 1 at T-20d, 0 at T-19d: gpu-health T-20d -> T-19d, recovered after 86400 s.
 * GPU-9c   ROW_REMAP_PENDING 0 at T-2h, 1 at T-1h: gpu-health since T-1h, open.
 * open           9a (T-30d), 9d (T-25d), 9c (T-1h), by start; of cause gpu-health 9a and 9c.
 * started in the last 7 days: 9c alone — the window misses 9a and 9d, which are still open.
 * started in [T-31d, T): 9a, 8a, 9d, 9b, 9c.
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class OpenIncidentsResourceTest {

    static final Instant T = Instant.now().truncatedTo(ChronoUnit.MINUTES);

    static Instant ago(Duration d) {
        return T.minus(d);
    }

    static Instant daysAgo(int days) {
        return ago(Duration.ofDays(days));
    }

    static String node(String name, String rv, String type, Instant at, String... uuids) {
        String gpus = Stream.of(uuids).map(u -> "{\"uuid\":\"" + u + "\",\"model\":\"NVIDIA-A100-SXM4-80GB\",\"memoryMib\":81920,"
                + "\"cores\":100,\"splitCount\":10}").collect(Collectors.joining(","));
        return "{\"name\":\"" + name + "\",\"uid\":\"u-" + name + "\",\"resourceVersion\":\"" + rv + "\",\"type\":\"" + type
                + "\",\"observedAt\":\"" + at + "\",\"labels\":{},\"gpus\":[" + gpus + "]}";
    }

    static String read(String card, String field, long value, Instant at) {
        return "{\"gpuUuid\":\"" + card + "\",\"node\":\"gpu-9\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field
                + "\",\"value\":" + value + ",\"at\":\"" + at + "\"}";
    }

    static final String FACTS = "{\"cluster\":\"fopen\",\"nodes\":["
            + node("gpu-9", "10", "ADDED", daysAgo(31), "GPU-9a", "GPU-9b", "GPU-9c", "GPU-9d") + ","
            + node("gpu-9", "20", "MODIFIED", daysAgo(25), "GPU-9a", "GPU-9b", "GPU-9c") + ","
            + node("gpu-8", "11", "ADDED", daysAgo(29), "GPU-8a") + ","
            + node("gpu-8", "21", "MODIFIED", daysAgo(28)) + ","
            + node("gpu-8", "31", "DELETED", daysAgo(27)) + "]}";

    static final String USAGE = "{\"cluster\":\"fopen\",\"samples\":["
            + String.join(",",
            read("GPU-9a", "ECC_DBE_VOLATILE", 0, daysAgo(30).minus(Duration.ofMinutes(1))),
            read("GPU-9a", "ECC_DBE_VOLATILE", 2, daysAgo(30)),
            read("GPU-9a", "ECC_DBE_VOLATILE", 2, ago(Duration.ofHours(1))),
            read("GPU-9b", "ROW_REMAP_FAILURE", 1, daysAgo(20)),
            read("GPU-9b", "ROW_REMAP_FAILURE", 0, daysAgo(19)),
            read("GPU-9c", "ROW_REMAP_PENDING", 0, ago(Duration.ofHours(2))),
            read("GPU-9c", "ROW_REMAP_PENDING", 1, ago(Duration.ofHours(1)))) + "]}";

    private static boolean loaded;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        given().contentType(ContentType.JSON).body(FACTS).post("/api/v1/facts").then().statusCode(200);
        given().contentType(ContentType.JSON).body(USAGE).post("/api/v1/usage").then().statusCode(200);
    }

    static ValidatableResponse incidents(String... params) {
        Map<String, String> query = new HashMap<>();
        for (int i = 0; i < params.length; i += 2) {
            query.put(params[i], params[i + 1]);
        }
        return given().queryParams(query).get("/api/v1/failures/incidents").then();
    }

    static List<String> times(Instant... instants) {
        return Arrays.stream(instants).map(i -> i == null ? null : i.toString()).toList();
    }

    @Test
    void everyIncidentNotRecoveredOrEndedWhateverItsStart() {
        incidents("open", "true", "cluster", "fopen").statusCode(200)
                .body("gpuUuid", equalTo(List.of("GPU-9a", "GPU-9d", "GPU-9c")))
                .body("cause", equalTo(List.of("gpu-health", "gpu-lost", "gpu-health")))
                .body("startedAt", equalTo(times(daysAgo(30), daysAgo(25), ago(Duration.ofHours(1)))))
                .body("open", equalTo(List.of(true, true, true)))
                .body("recoveredAt", equalTo(Arrays.asList(null, null, null)))
                .body("endedAt", equalTo(Arrays.asList(null, null, null)));
        incidents("open", "TRUE", "cluster", "fopen", "cause", "gpu-health").statusCode(200)
                .body("gpuUuid", equalTo(List.of("GPU-9a", "GPU-9c")))
                .body("[0].evidence", equalTo("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL changed from 0 to 2 (double-bit ECC errors "
                        + "since the driver loaded)"));
    }

    @Test
    void theWindowOfTheLastWeekMissesTheOldOpenOnes() {
        incidents("from", daysAgo(7).toString(), "to", T.toString(), "cluster", "fopen").statusCode(200)
                .body("gpuUuid", equalTo(List.of("GPU-9c")));
        incidents("from", daysAgo(31).toString(), "to", T.toString(), "cluster", "fopen", "open", "false").statusCode(200)
                .body("gpuUuid", equalTo(List.of("GPU-9a", "GPU-8a", "GPU-9d", "GPU-9b", "GPU-9c")))
                .body("open", equalTo(List.of(true, false, true, false, true)))
                .body("endedAt", equalTo(times(null, daysAgo(27), null, null, null)))
                .body("recoveredAt", equalTo(times(null, null, null, daysAgo(19), null)))
                .body("repairSeconds", equalTo(Arrays.asList(null, null, null, 86400, null)));
    }

    @Test
    void fromAndToStillBoundTheStartOfOpenIncidents() {
        incidents("open", "true", "cluster", "fopen", "from", daysAgo(7).toString(), "to", T.toString()).statusCode(200)
                .body("gpuUuid", equalTo(List.of("GPU-9c")));
        incidents("open", "true", "cluster", "fopen", "from", daysAgo(26).toString()).statusCode(200)
                .body("gpuUuid", equalTo(List.of("GPU-9d", "GPU-9c")));
        // [.., T-25d) leaves out the incident that started at T-25d exactly.
        incidents("open", "true", "cluster", "fopen", "to", daysAgo(25).toString()).statusCode(200)
                .body("gpuUuid", equalTo(List.of("GPU-9a")));
    }

    @Test
    void badInputIsAProblemNamingTheField() {
        incidents("open", "yes", "cluster", "fopen").statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("open"));
        incidents("open", "true", "from", "last week").statusCode(400).body("field", equalTo("from"));
        incidents("open", "true", "from", T.toString(), "to", daysAgo(1).toString()).statusCode(400)
                .body("field", equalTo("to"));
        // Without open=true the window is required, as before.
        incidents("open", "false", "to", T.toString()).statusCode(400).body("field", equalTo("from"));
        incidents("cluster", "fopen").statusCode(400).body("field", equalTo("from"));
    }
}
