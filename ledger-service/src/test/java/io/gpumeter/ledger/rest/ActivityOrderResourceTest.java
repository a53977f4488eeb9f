package io.gpumeter.ledger.rest;

import io.gpumeter.common.fact.UsageField;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The ledger's SQL (ledger.card_activity, behind used and idle hours) reads a minute's activity by the same rule as
 * the model's Java ({@link UsageField#activity}, which alert-service's idle rule and the console's pages apply): a
 * table of minutes with SM_ACTIVE, GR_ENGINE_ACTIVE and GPU_UTIL in every combination, each judged by hand, by the
 * Java rule and by the ledger through GET /api/v1/gpu-hours over that one minute. Tenant act holds card GPU-ACT
 * alone, 10:00 to 10:08, so a minute's used GPU-hours are its activity times 60 s.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ActivityOrderResourceTest {

    /** A minute's means ('null' where the minute has none) and its activity, worked out by hand. */
    record Minute(String at, Double sm, Double gr, Double util, UsageField field, double activity) {
    }

    static final List<Minute> MINUTES = List.of(
            new Minute("2026-08-04T10:00:00Z", 0.30, 0.70, 0.90, UsageField.SM_ACTIVE, 0.30),       // SM, though GR is higher
            new Minute("2026-08-04T10:01:00Z", null, 0.60, 0.80, UsageField.GR_ENGINE_ACTIVE, 0.60), // no SM: GR
            new Minute("2026-08-04T10:02:00Z", null, null, 0.50, UsageField.GPU_UTIL, 0.50),         // GPU_UTIL alone
            new Minute("2026-08-04T10:03:00Z", 0.10, null, 0.95, UsageField.SM_ACTIVE, 0.10),       // SM beside GPU_UTIL
            new Minute("2026-08-04T10:04:00Z", 0.00, 0.40, 1.00, UsageField.SM_ACTIVE, 0.00),       // a measured idle SM
            new Minute("2026-08-04T10:05:00Z", null, 0.00, 0.70, UsageField.GR_ENGINE_ACTIVE, 0.00), // a measured idle GR
            new Minute("2026-08-04T10:06:00Z", 0.20, 0.20, null, UsageField.SM_ACTIVE, 0.20),       // SM and GR alike
            new Minute("2026-08-04T10:07:00Z", null, null, null, null, 0));                          // nothing measured

    private static boolean loaded;

    static String sample(String field, double value, String minute) {
        String at = Instant.parse(minute).plusSeconds(30).toString();
        return "{\"gpuUuid\":\"GPU-ACT\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field + "\",\"value\":" + value
                + ",\"at\":\"" + at + "\",\"namespace\":\"act\",\"pod\":\"act-1\"}";
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String facts = "{\"cluster\":\"activity\",\"namespaces\":[" + UsedHoursResourceTest.ns("act") + "],"
                + "\"nodes\":[{\"name\":\"n1\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"nvidia.com/gpu.memory\":\"81920\"},"
                + "\"gpus\":[" + UsedHoursResourceTest.gpu("GPU-ACT") + "]}],\"pods\":["
                + UsedHoursResourceTest.pod("act-1", "act", "2026-08-04T10:00:00Z", "2026-08-04T10:08:00Z",
                "{\"nvidia.com/gpu\":1}", "[]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        List<String> samples = new ArrayList<>();
        for (Minute m : MINUTES) {
            if (m.sm() != null) {
                samples.add(sample("SM_ACTIVE", m.sm(), m.at()));
            }
            if (m.gr() != null) {
                samples.add(sample("GR_ENGINE_ACTIVE", m.gr(), m.at()));
            }
            if (m.util() != null) {
                samples.add(sample("GPU_UTIL", m.util(), m.at()));
            }
            // memory in use names the pod on the card every minute, the unmeasured one too
            samples.add(sample("FB_USED_MIB", 1024, m.at()));
        }
        given().contentType(ContentType.JSON).body("{\"cluster\":\"activity\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);
    }

    static JsonPath hours(String from, String to) {
        return given().queryParam("from", from).queryParam("to", to).queryParam("groupBy", "tenant")
                .queryParam("tenant", "act").get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static BigDecimal value(JsonPath json, String field) {
        return new BigDecimal(json.getString("find { it.key == 'act' }." + field));
    }

    @Test
    void theJavaRuleAndTheLedgersSqlReadEveryMinuteAlike() {
        for (Minute m : MINUTES) {
            Map<UsageField, Double> measured = new EnumMap<>(UsageField.class);
            Optional.ofNullable(m.sm()).ifPresent(v -> measured.put(UsageField.SM_ACTIVE, v));
            Optional.ofNullable(m.gr()).ifPresent(v -> measured.put(UsageField.GR_ENGINE_ACTIVE, v));
            Optional.ofNullable(m.util()).ifPresent(v -> measured.put(UsageField.GPU_UTIL, v));
            Optional<UsageField.Reading> byJava = UsageField.activity(measured::get);
            assertEquals(m.field() == null ? Optional.empty() : Optional.of(new UsageField.Reading(m.field(), m.activity())),
                    byJava, m.at() + " by the Java rule");

            JsonPath sql = hours(m.at(), Instant.parse(m.at()).plusSeconds(60).toString());
            BigDecimal used = value(sql, "usedGpuHours");
            // the minute's activity times 60 s, in hours
            assertTrue(BigDecimal.valueOf(m.activity()).divide(BigDecimal.valueOf(60), 12, java.math.RoundingMode.HALF_EVEN)
                    .subtract(used).abs().compareTo(new BigDecimal("1e-9")) < 0, m.at() + " by the ledger: " + used);
            if (m.field() != null) {
                assertEquals(m.field().name(), sql.getString("find { it.key == 'act' }.activityMetric"), m.at() + " by the ledger");
                assertEquals(0, BigDecimal.ONE.compareTo(value(sql, "usageCoverage")), m.at());
            } else {
                assertEquals(0, BigDecimal.ZERO.compareTo(value(sql, "usageCoverage")), m.at() + ": unmeasured");
            }
        }
    }

    @Test
    void theWholeWindowAddsTheMinutesUp() {
        JsonPath sql = hours("2026-08-04T10:00:00Z", "2026-08-04T10:08:00Z");
        // (0.30 + 0.60 + 0.50 + 0.10 + 0 + 0 + 0.20) x 60 s = 102 s = 0.0283333… h of 8 min = 0.1333… h allocated
        BigDecimal used = value(sql, "usedGpuHours");
        assertTrue(new BigDecimal("0.028333333333").subtract(used).abs().compareTo(new BigDecimal("1e-9")) < 0, used.toString());
        assertEquals(0, new BigDecimal("0.875").compareTo(value(sql, "usageCoverage")), "7 of 8 minutes measured");
        assertEquals("GPU_UTIL,GR_ENGINE_ACTIVE,SM_ACTIVE", sql.getString("find { it.key == 'act' }.activityMetric"));
    }
}
