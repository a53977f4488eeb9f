package io.gpumeter.ledger.rest;

import io.gpumeter.common.fact.ClockEventReason;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.rest.EnergyResourceTest.at;
import static io.gpumeter.ledger.rest.EnergyResourceTest.sample;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A card's throttling on yesterday's [10:00, 11:00), samples every 15 s from 10:00:00 to 10:09:45, worked out by hand:
 * <pre>
 * SW power cap active 10:02:00-10:04:45 (12 samples) and 10:07:00-10:07:15 (2 of the minute's 4): 3.5 minutes,
 *   episodes [10:02, 10:05) of 3 minutes and [10:07, 10:08) of 0.5
 * HW thermal slowdown at 10:08:00 only: 0.25 minutes, episode [10:08, 10:09)
 * GPU idle 10:00:00-10:01:45: 2 minutes, informational; the other reasons measured, never active
 * power violation counter (ns) every 15 s 09:59:45-10:10:00: +15 s per reading 10:02:15-10:05:00 (180 s) and
 *   10:07:15-10:07:30 (30 s): 210 s over 600 s covered; 180 s in the first episode, 30 s in the second
 * thermal violation counter not exported
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ThrottlingResourceTest {

    private static boolean loaded;

    private static boolean active(ClockEventReason reason, int t) {
        return switch (reason) {
            case SW_POWER_CAP -> t >= 120 && t < 300 || t >= 420 && t < 450;
            case HW_THERMAL_SLOWDOWN -> t == 480;
            case GPU_IDLE -> t < 120;
            default -> false;
        };
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        List<String> samples = new ArrayList<>();
        for (int t = 0; t < 600; t += 15) {
            for (ClockEventReason reason : ClockEventReason.values()) {
                samples.add(sample("GPU-T", reason.field().name(), active(reason, t) ? 1 : 0, t));
            }
        }
        double violation = 5e12;
        for (int t = -15; t <= 600; t += 15) {
            violation += t > 120 && t <= 300 || t > 420 && t <= 450 ? 15e9 : 0;
            samples.add(sample("GPU-T", "POWER_VIOLATION_NS", violation, t));
        }
        given().contentType(ContentType.JSON).body("{\"cluster\":\"heat\",\"samples\":[" + String.join(",", samples) + "]}")
                .post("/api/v1/usage").then().statusCode(200);
    }

    static JsonPath throttling(String gpu) {
        return given().queryParam("from", at(0)).queryParam("to", at(3600)).get("/api/v1/gpus/" + gpu + "/throttling")
                .then().statusCode(200).extract().jsonPath();
    }

    @Test
    void minutesAndEpisodesPerReason() {
        JsonPath json = throttling("GPU-T");
        assertEquals(ClockEventReason.values().length, json.getList("reasons").size(), "every measured reason");
        assertEquals(3.5, json.getDouble("reasons.find { it.reason == 'SW_POWER_CAP' }.minutes"), 1e-9);
        assertEquals("POWER", json.getString("reasons.find { it.reason == 'SW_POWER_CAP' }.kind"));
        List<Map<String, Object>> capped = json.getList("reasons.find { it.reason == 'SW_POWER_CAP' }.episodes");
        assertEquals(2, capped.size());
        assertEquals(at(120), capped.get(0).get("from"));
        assertEquals(at(300), capped.get(0).get("to"));
        assertEquals(3.0, ((Number) capped.get(0).get("minutes")).doubleValue(), 1e-9);
        assertEquals(180.0, ((Number) capped.get(0).get("powerViolationSeconds")).doubleValue(), 1e-6);
        assertNull(capped.get(0).get("thermalViolationSeconds"), "no thermal counter was exported");
        assertEquals(at(420), capped.get(1).get("from"));
        assertEquals(0.5, ((Number) capped.get(1).get("minutes")).doubleValue(), 1e-9);
        assertEquals(30.0, ((Number) capped.get(1).get("powerViolationSeconds")).doubleValue(), 1e-6);
        assertEquals(0.25, json.getDouble("reasons.find { it.reason == 'HW_THERMAL_SLOWDOWN' }.minutes"), 1e-9);
        assertEquals(at(480), json.getString("reasons.find { it.reason == 'HW_THERMAL_SLOWDOWN' }.episodes[0].from"));
        assertEquals(at(540), json.getString("reasons.find { it.reason == 'HW_THERMAL_SLOWDOWN' }.episodes[0].to"));
        assertEquals(0.0, json.getDouble("reasons.find { it.reason == 'SYNC_BOOST' }.minutes"), 1e-9);
        assertTrue(json.getList("reasons.find { it.reason == 'SYNC_BOOST' }.episodes").isEmpty());
    }

    @Test
    void idleClocksAreNamedButSlowNoWork() {
        JsonPath json = throttling("GPU-T");
        assertEquals(2.0, json.getDouble("reasons.find { it.reason == 'GPU_IDLE' }.minutes"), 1e-9);
        assertFalse(json.getBoolean("reasons.find { it.reason == 'GPU_IDLE' }.slowsWork"));
        assertTrue(json.getBoolean("reasons.find { it.reason == 'HW_THERMAL_SLOWDOWN' }.slowsWork"));
    }

    @Test
    void theViolationCountersOverTheWindow() {
        JsonPath json = throttling("GPU-T");
        assertEquals(210.0, json.getDouble("power.seconds"), 1e-6);
        assertEquals(600.0, json.getDouble("power.coveredSeconds"), 1e-6);
        assertNull(json.get("thermal"));
    }

    @Test
    void aCardWithNothingMeasuredHasNoReasons() {
        JsonPath json = throttling("GPU-NEVER-SEEN");
        assertTrue(json.getList("reasons").isEmpty());
        assertNull(json.get("power"));
    }

    @Test
    void badWindowsAreRefusedNamingTheField() {
        given().queryParam("to", at(3600)).get("/api/v1/gpus/GPU-T/throttling").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("from"));
        given().queryParam("from", "yesterday").queryParam("to", at(3600)).get("/api/v1/gpus/GPU-T/throttling")
                .then().statusCode(400).body("field", equalTo("from"));
        given().queryParam("from", at(3600)).queryParam("to", at(0)).get("/api/v1/gpus/GPU-T/throttling")
                .then().statusCode(400).body("field", equalTo("to"));
        given().queryParam("from", "2025-01-01T00:00:00Z").queryParam("to", "2026-12-31T00:00:00Z")
                .get("/api/v1/gpus/GPU-T/throttling").then().statusCode(400).body("field", equalTo("to"));
    }
}
