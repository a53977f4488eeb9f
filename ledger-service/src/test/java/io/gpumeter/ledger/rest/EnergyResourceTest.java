package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.Contract;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Energy through the ledger's intakes (facts, then usage as the collector delivers it), on yesterday's [10:00, 11:00)
 * — the counters are kept within the minute retention — every figure worked out by hand:
 * <pre>
 * node h100: GPU-E; pods a (tenant ta, HAMi 30 % cores: 0.3 card) and b (tb, 20 %: 0.2 card) 10:00-10:10
 *   GPU-E's energy counter (mJ) every 15 s from 09:59:45 to 10:10:00, +6,000,000 each (400 W), delivered as
 *   per-minute partials; the driver reloads at 10:04:50: the 10:05:00 reading is 6,000,000 again, counted whole
 *   every minute 10:00-10:09: 24,000 J; a: 0.3 x 240,000 = 72,000 J; b: 48,000 J; idle: 120,000 J
 * node l4: GPU-F; pod c (tenant tc, 100 % cores: a whole card) 10:00-10:04; no counter, POWER_W 300 every 15 s
 *   10:00:00-10:09:45: 18,000 J a minute; c: 72,000 J; idle: 6 x 18,000 = 108,000 J
 * node spare: GPU-G, never allocated; POWER_W 100 every 15 s 10:00:00-10:09:45: idle 60,000 J = 0.0166666667 kWh
 * cluster: units 192,000 J = 0.0533333333 kWh, idle 288,000 J = 0.08 kWh
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class EnergyResourceTest {

    private static boolean loaded;
    private static final Instant BASE = Instant.now().truncatedTo(ChronoUnit.DAYS).minus(1, ChronoUnit.DAYS)
            .plus(10, ChronoUnit.HOURS);

    static String at(int seconds) {
        return BASE.plusSeconds(seconds).toString();
    }

    static String node(String name, String gpu) {
        return "{\"name\":\"" + name + "\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"" + at(-3600)
                + "\",\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\"},\"gpus\":[{\"uuid\":\"" + gpu
                + "\",\"model\":\"NVIDIA-H100-80GB-HBM3\",\"memoryMib\":81920,\"cores\":100,\"splitCount\":10}]}";
    }

    static String hamiPod(String uid, String node, String gpu, int cores, int endSeconds) {
        return UsedHoursOwnSeriesResourceTest.pod(uid, uid.startsWith("a") ? "ta" : uid.startsWith("b") ? "tb" : "tc", node,
                at(0), at(endSeconds), "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":1024,\"nvidia.com/gpucores\":" + cores + "}",
                "[{\"container\":0,\"uuid\":\"" + gpu + "\",\"type\":\"NVIDIA\",\"memoryMib\":1024,\"cores\":" + cores + "}]");
    }

    static String sample(String gpu, String field, double value, int seconds) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field + "\",\"value\":"
                + value + ",\"at\":\"" + at(seconds) + "\"}";
    }

    /** The counter's readings of one minute as the buffered collector sends them: one partial per series and minute. */
    static String partial(String gpu, String field, int minuteSeconds, List<Integer> millis, List<Double> values) {
        return "{\"gpuUuid\":\"" + gpu + "\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + field + "\",\"minute\":\""
                + at(minuteSeconds) + "\",\"millis\":" + millis + ",\"values\":" + values + "}";
    }

    /** GPU-E's energy counter, 09:59:45 to 10:10:00, with the reload before 10:05:00. */
    static String counterPartials() {
        List<String> partials = new ArrayList<>();
        double value = 7_000_000_000.0;
        for (int minute = -60; minute <= 600; minute += 60) {
            List<Integer> millis = new ArrayList<>();
            List<Double> values = new ArrayList<>();
            for (int s = 0; s < 60; s += 15) {
                int t = minute + s;
                if (t < -15 || t > 600) {
                    continue;
                }
                value = t == 300 ? 6_000_000 : t == -15 ? value : value + 6_000_000;
                millis.add(s * 1000);
                values.add(value);
            }
            if (!millis.isEmpty()) {
                partials.add(partial("GPU-E", "TOTAL_ENERGY_MJ", minute, millis, values));
            }
        }
        return String.join(",", partials);
    }

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        String facts = "{\"cluster\":\"energy\",\"nodes\":[" + node("h100", "GPU-E") + "," + node("l4", "GPU-F") + ","
                + node("spare", "GPU-G") + "],\"pods\":["
                + hamiPod("a-1", "h100", "GPU-E", 30, 600) + "," + hamiPod("b-1", "h100", "GPU-E", 20, 600) + ","
                + hamiPod("c-1", "l4", "GPU-F", 100, 240) + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        List<String> power = new ArrayList<>();
        for (int s = 0; s < 600; s += 15) {
            power.add(sample("GPU-F", "POWER_W", 300, s));
            power.add(sample("GPU-G", "POWER_W", 100, s));
        }
        String usage = "{\"cluster\":\"energy\",\"samples\":[" + String.join(",", power) + "],\"partials\":["
                + counterPartials() + "]}";
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200);
        // the same delivery again counts nothing twice
        given().contentType(ContentType.JSON).body(usage).post("/api/v1/usage").then().statusCode(200)
                .body("accepted", equalTo(0));
    }

    static JsonPath hours(String groupBy) {
        return given().queryParam("from", at(0)).queryParam("to", at(3600)).queryParam("groupBy", groupBy)
                .get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static void assertKWh(String expected, Object actual) {
        BigDecimal value = new BigDecimal(String.valueOf(actual));
        assertTrue(new BigDecimal(expected).subtract(value).abs().compareTo(new BigDecimal("1e-8")) < 0,
                "expected " + expected + " kWh, got " + value);
    }

    /** Billing prices energy from this read, grouped by tenant and model: its answer is the example billing reads. */
    @Test
    void eachTenantsEnergyByModelIsTheExampleItsCallersRead() {
        String body = given().queryParam("from", at(0)).queryParam("to", at(3600)).queryParam("groupBy", "tenant,model")
                .get("/api/v1/gpu-hours").then().statusCode(200).extract().asString();
        Contract.record("ledger", "gpu-hours", body);
        JsonPath json = new JsonPath(body);
        // other tests' tenants may share the hour: this test's three, each on its H100
        assertEquals(List.of("ta/NVIDIA-H100-80GB-HBM3", "tb/NVIDIA-H100-80GB-HBM3", "tc/NVIDIA-H100-80GB-HBM3"),
                json.getList("findAll { it.group.tenant in ['ta', 'tb', 'tc'] }.key"));
        assertKWh("0.02", json.get("find { it.group.tenant == 'ta' }.energyKWh"));
        assertNull(json.get("find { it.group.tenant == 'ta' }.idleEnergyKWh"), "a tenant's row holds no idle energy");
    }

    @Test
    void aCardsMinuteEnergyIsSplitByAllocatedFractionAndTheRestIsIdle() {
        JsonPath json = hours("tenant");
        assertKWh("0.02", json.get("find { it.key == 'ta' }.energyKWh"));
        assertKWh("0.0133333333", json.get("find { it.key == 'tb' }.energyKWh"));
        assertKWh("0.02", json.get("find { it.key == 'tc' }.energyKWh"));
        assertEquals("ENERGY_COUNTER", json.getString("find { it.key == 'ta' }.energySource"));
        assertEquals("POWER_INTEGRAL", json.getString("find { it.key == 'tc' }.energySource"));
        assertKWh("1", json.get("find { it.key == 'ta' }.energyCoverage"));
        // no activity was measured: no used hours, but the energy is the units' all the same
        assertEquals("NONE", json.getString("find { it.key == 'ta' }.usageConfidence"));
        // a tenant's rows carry no idle energy: what no unit held is no tenant's
        assertNull(json.get("find { it.key == 'ta' }.idleEnergyKWh"));
    }

    @Test
    void theIdleEnergyStandsBesideTheUnitsEnergyPerNodeAndCluster() {
        JsonPath nodes = hours("cluster,node");
        assertKWh("0.0333333333", nodes.get("find { it.key == 'energy/h100' }.energyKWh"));
        assertKWh("0.0333333333", nodes.get("find { it.key == 'energy/h100' }.idleEnergyKWh"));
        assertKWh("0.02", nodes.get("find { it.key == 'energy/l4' }.energyKWh"));
        assertKWh("0.03", nodes.get("find { it.key == 'energy/l4' }.idleEnergyKWh"));
        // a node that held nothing still drew energy: a row of its own, allocated 0
        assertKWh("0", nodes.get("find { it.key == 'energy/spare' }.allocatedGpuHours"));
        assertKWh("0", nodes.get("find { it.key == 'energy/spare' }.energyKWh"));
        assertKWh("0.0166666667", nodes.get("find { it.key == 'energy/spare' }.idleEnergyKWh"));
        JsonPath cluster = hours("cluster");
        assertKWh("0.0533333333", cluster.get("find { it.key == 'energy' }.energyKWh"));
        assertKWh("0.08", cluster.get("find { it.key == 'energy' }.idleEnergyKWh"));
        assertEquals("ENERGY_COUNTER,POWER_INTEGRAL", cluster.getString("find { it.key == 'energy' }.energySource"));
    }

    @Test
    void theIdleSplitReportsTheUnitsEnergyAndTheIdleEnergyBesideIt() {
        JsonPath nodes = given().queryParam("from", at(0)).queryParam("to", at(3600)).queryParam("groupBy", "node")
                .queryParam("cluster", "energy").get("/api/v1/idle").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        assertKWh("0.0333333333", nodes.get("rows.find { it.key == 'energy/h100' }.energyKWh"));
        assertKWh("0.0333333333", nodes.get("rows.find { it.key == 'energy/h100' }.idleEnergyKWh"));
        assertKWh("0.02", nodes.get("rows.find { it.key == 'energy/l4' }.energyKWh"));
        assertKWh("0.03", nodes.get("rows.find { it.key == 'energy/l4' }.idleEnergyKWh"));
        JsonPath tenants = given().queryParam("from", at(0)).queryParam("to", at(3600)).queryParam("groupBy", "tenant")
                .queryParam("cluster", "energy").get("/api/v1/idle").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        assertKWh("0.02", tenants.get("rows.find { it.key == 'ta' }.energyKWh"));
        assertKWh("0", tenants.get("rows.find { it.key == 'ta' }.idleEnergyKWh"));
        assertKWh("0.0133333333", tenants.get("rows.find { it.key == 'tb' }.energyKWh"));
        // GPU-E's idle half, GPU-F's six minutes and GPU-G's ten: all in (unallocated)
        assertKWh("0.08", tenants.get("rows.find { it.key == '(unallocated)' }.idleEnergyKWh"));
        assertKWh("0", tenants.get("rows.find { it.key == '(unallocated)' }.energyKWh"));
    }

    @Test
    void bucketsSplitTheEnergyAsTheyAddUpToTheWindow() {
        JsonPath days = hours("cluster,day");
        List<Map<String, Object>> rows = days.getList("findAll { it.group.cluster == 'energy' }");
        assertEquals(1, rows.size(), "one day");
        assertKWh("0.0533333333", rows.get(0).get("energyKWh"));
        assertKWh("0.08", rows.get(0).get("idleEnergyKWh"));
    }

    @Test
    void theDerivedMinutesReadAsTheCardsPower() {
        // minute 10:05 holds the reload: 4 stretches of 6,000 J still, 24,000 J over 60 s = 400 W
        JsonPath json = given().queryParam("from", at(300)).queryParam("to", at(360)).queryParam("field", "ENERGY_J")
                .get("/api/v1/gpus/GPU-E/usage").then().statusCode(200).extract().jsonPath();
        assertEquals(1, json.getList("$").size());
        assertEquals(400.0, json.getDouble("[0].mean"), 1e-9);
        assertEquals(60, json.getInt("[0].samples"));
    }

    @Test
    void aDeliveryNamingADerivedFieldIsRefused() {
        given().contentType(ContentType.JSON)
                .body("{\"cluster\":\"energy\",\"samples\":[" + sample("GPU-E", "ENERGY_J", 5, 30) + "]}")
                .post("/api/v1/usage").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("samples[0].field"))
                .body("detail", containsString("TOTAL_ENERGY_MJ"));
    }
}
