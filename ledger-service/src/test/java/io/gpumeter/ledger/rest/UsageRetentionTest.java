package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.service.RetentionSweep;
import io.gpumeter.ledger.service.UsageRetention;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.json.config.JsonPathConfig;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Usage retention against the real PostgreSQL, every expected figure worked out here from the samples sent:
 * <pre>
 * GPU-R, held whole by pod rt-1 (tenant rt) 2026-01-10 10:00-12:00; SM_ACTIVE in each minute m = 0..119 but those
 *   with m % 13 == 0: ((7m) % 10) / 10 at second 5, and for even m also 1 - that / 2 at second 35;
 *   GPU_UTIL ((3m) % 10) / 10 at second 5 of every third minute
 * GPU-C (no pod) 2026-01-20 and 2026-01-21: SM_ACTIVE 0.5 at second 0 of minutes 00:00-00:09 of each day
 * GPU-R 2026-02-28 12:00: SM_ACTIVE 0.75 at second 0 of one minute (recent at the first run: stays a minute)
 * </pre>
 * Runs as of 2026-03-01 (minutes kept 35 days: January's days fold into hours) and as of 2027-04-01 (hours kept 400
 * days: January's hours are dropped, the allocation books stay).
 */
@QuarkusTest
@TestProfile(UsageRetentionTest.OwnDatabase.class)
@WithTestResource(EmbeddedPostgresResource.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class UsageRetentionTest {

    /** A profile of its own: a fresh database, and the retentions named here whatever the defaults become. */
    public static class OwnDatabase implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.ledger.retention.minutes", "P35D", "gpumeter.ledger.retention.hours", "P400D");
        }
    }

    private static final Instant FIRST_RUN = Instant.parse("2026-03-01T00:00:00Z");
    private static final Instant YEAR_LATER = Instant.parse("2027-04-01T00:00:00Z");
    private static final Instant R_START = Instant.parse("2026-01-10T10:00:00Z");

    @Inject
    UsageRetention retention;
    @Inject
    Pool pool;

    /** One sample as sent: card, field, value, instant. */
    record Sent(String gpu, String field, double value, Instant at) {
    }

    static final List<Sent> SENT = new ArrayList<>();

    static {
        for (int m = 0; m < 120; m++) {
            if (m % 13 == 0) {
                continue;
            }
            Instant minute = R_START.plusSeconds(60L * m);
            double a = ((7 * m) % 10) / 10.0;
            SENT.add(new Sent("GPU-R", "SM_ACTIVE", a, minute.plusSeconds(5)));
            if (m % 2 == 0) {
                SENT.add(new Sent("GPU-R", "SM_ACTIVE", 1 - a / 2, minute.plusSeconds(35)));
            }
            if (m % 3 == 0) {
                SENT.add(new Sent("GPU-R", "GPU_UTIL", ((3 * m) % 10) / 10.0, minute.plusSeconds(5)));
            }
        }
        for (String day : List.of("2026-01-20", "2026-01-21")) {
            for (int m = 0; m < 10; m++) {
                SENT.add(new Sent("GPU-C", "SM_ACTIVE", 0.5, Instant.parse(day + "T00:00:00Z").plusSeconds(60L * m)));
            }
        }
        SENT.add(new Sent("GPU-R", "SM_ACTIVE", 0.75, Instant.parse("2026-02-28T12:00:00Z")));
    }

    /** Per (card, field, hour): sum, max, samples, minutes with a sample, and the sum of those minutes' means. */
    static Map<String, double[]> expectedHours(List<Sent> sent, Instant before) {
        Map<String, List<Double>> minutes = new TreeMap<>();
        for (Sent s : sent) {
            if (s.at().isBefore(before)) {
                long minute = s.at().getEpochSecond() / 60 * 60;
                minutes.computeIfAbsent(s.gpu() + "|" + s.field() + "|" + minute, k -> new ArrayList<>()).add(s.value());
            }
        }
        Map<String, double[]> hours = new TreeMap<>();
        minutes.forEach((key, values) -> {
            String[] k = key.split("\\|");
            long hour = Long.parseLong(k[2]) / 3600 * 3600;
            double[] h = hours.computeIfAbsent(k[0] + "|" + k[1] + "|" + Instant.ofEpochSecond(hour), x -> new double[5]);
            double sum = values.stream().mapToDouble(Double::doubleValue).sum();
            h[0] += sum;
            h[1] = Math.max(h[1], values.stream().mapToDouble(Double::doubleValue).max().orElseThrow());
            h[2] += values.size();
            h[3] += 1;
            h[4] += sum / values.size();
        });
        return hours;
    }

    /** GPU-R's SM_ACTIVE minute means over [from, to), each times the 60 s of its minute, in hours. */
    static double usedHoursOfR(Instant from, Instant to) {
        return expectedHours(SENT.stream().filter(s -> s.gpu().equals("GPU-R") && s.field().equals("SM_ACTIVE")
                && !s.at().isBefore(from) && s.at().isBefore(to)).toList(), Instant.MAX)
                .values().stream().mapToDouble(h -> h[4] * 60).sum() / 3600;
    }

    static String sample(Sent s) {
        String pod = s.gpu().equals("GPU-R") ? ",\"namespace\":\"rt\",\"pod\":\"rt-1\"" : "";
        return "{\"gpuUuid\":\"" + s.gpu() + "\",\"scope\":\"DEVICE\",\"scopeKey\":\"\",\"field\":\"" + s.field()
                + "\",\"value\":" + s.value() + ",\"at\":\"" + s.at() + "\"" + pod + "}";
    }

    static void send(List<Sent> samples) {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"keep\",\"samples\":["
                        + String.join(",", samples.stream().map(UsageRetentionTest::sample).toList()) + "]}")
                .post("/api/v1/usage").then().statusCode(200);
    }

    static JsonPath hours(String from, String to) {
        return given().queryParam("from", from).queryParam("to", to).queryParam("groupBy", "tenant")
                .get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
    }

    static double rt(JsonPath json, String field) {
        return new BigDecimal(json.getString("find { it.key == 'rt' }." + field)).doubleValue();
    }

    List<String> rows(String sql) {
        List<String> out = new ArrayList<>();
        pool.query(sql).execute().await().indefinitely().forEach(r -> {
            List<String> cells = new ArrayList<>();
            for (int i = 0; i < r.size(); i++) {
                cells.add(String.valueOf(r.getValue(i)));
            }
            out.add(String.join("|", cells));
        });
        return out;
    }

    boolean exists(String table) {
        return rows("SELECT to_regclass('ledger." + table + "') IS NOT NULL").get(0).equals("true");
    }

    @Test
    @Order(1)
    void minutesAnswerBeforeRetention() {
        String facts = "{\"cluster\":\"keep\",\"namespaces\":[{\"name\":\"rt\",\"resourceVersion\":\"1\",\"type\":\"ADDED\","
                + "\"observedAt\":\"2026-01-01T00:00:00Z\",\"labels\":{\"gpumeter.io/tenant\":\"rt\"}}],"
                + "\"nodes\":[{\"name\":\"n1\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-01-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"nvidia.com/gpu.memory\":\"81920\"}}],"
                + "\"pods\":[" + UsedHoursResourceTest.pod("rt-1", "rt", "2026-01-10T10:00:00Z", "2026-01-10T12:00:00Z",
                "{\"nvidia.com/gpu\":1}", "[]") + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
        send(SENT);
        JsonPath day = hours("2026-01-10T00:00:00Z", "2026-01-11T00:00:00Z");
        assertEquals(2.0, rt(day, "allocatedGpuHours"), 1e-9);
        assertEquals(usedHoursOfR(R_START, R_START.plusSeconds(7200)), rt(day, "usedGpuHours"), 1e-9);
        assertTrue(exists("usage_minute_p20260110") && exists("usage_minute_p20260120") && exists("usage_minute_p20260228"));
    }

    @Test
    @Order(2)
    void minutesPastTheirRetentionBecomeHoursWithTheSameSumsOnceWhenTwoReplicasRunAtOnce() {
        List<RetentionSweep.Report> reports = Uni.combine().all().unis(retention.run(FIRST_RUN), retention.run(FIRST_RUN))
                .with(RetentionSweep.Report.class, List::copyOf).await().indefinitely();
        // The three January days fold once between the two runs; February 28 is within 35 days of March 1.
        assertEquals(3, reports.stream().mapToInt(RetentionSweep.Report::daysFolded).sum());
        Map<String, double[]> expected = expectedHours(SENT, Instant.parse("2026-01-25T00:00:00Z"));
        long minuteRows = expected.values().stream().mapToLong(h -> (long) h[3]).sum();
        assertEquals(minuteRows, reports.stream().mapToLong(RetentionSweep.Report::minuteRowsFolded).sum());
        assertEquals(expected.size(), reports.stream().mapToLong(RetentionSweep.Report::hourRowsWritten).sum());
        assertFalse(exists("usage_minute_p20260110") || exists("usage_minute_p20260120") || exists("usage_minute_p20260121"));
        assertTrue(exists("usage_minute_p20260228"));
        assertEquals(List.of("0"), rows("SELECT count(*) FROM ledger.usage_minute WHERE minute < '2026-02-01'"));
        List<String> stored = rows("SELECT gpu_uuid, field, hour, sum, max, samples, minutes, minute_mean_sum"
                + " FROM ledger.usage_hour ORDER BY gpu_uuid, field, hour");
        assertEquals(expected.size(), stored.size());
        for (String row : stored) {
            String[] c = row.split("\\|");
            double[] h = expected.get(c[0] + "|" + c[1] + "|" + java.time.OffsetDateTime.parse(c[2]).toInstant());
            assertEquals(h[0], Double.parseDouble(c[3]), 1e-9, row);
            assertEquals(h[1], Double.parseDouble(c[4]), 0, row);
            assertEquals((int) h[2], Integer.parseInt(c[5]), row);
            assertEquals((int) h[3], Integer.parseInt(c[6]), row);
            assertEquals(h[4], Double.parseDouble(c[7]), 1e-9, row);
        }
    }

    @Test
    @Order(3)
    void runningAgainChangesNothing() {
        String hoursBefore = String.join("\n", rows("SELECT * FROM ledger.usage_hour ORDER BY 1, 2, 3, 4, 5, 6"));
        String minutesBefore = String.join("\n", rows("SELECT * FROM ledger.usage_minute ORDER BY 1, 2, 3, 4, 5, 6"));
        RetentionSweep.Report again = retention.run(FIRST_RUN).await().indefinitely();
        assertEquals(new RetentionSweep.Report(0, 0, 0, 0), again);
        assertEquals(hoursBefore, String.join("\n", rows("SELECT * FROM ledger.usage_hour ORDER BY 1, 2, 3, 4, 5, 6")));
        assertEquals(minutesBefore, String.join("\n", rows("SELECT * FROM ledger.usage_minute ORDER BY 1, 2, 3, 4, 5, 6")));
    }

    @Test
    @Order(4)
    void aWindowOlderThanTheMinuteRetentionAnswersFromHours() {
        // Used GPU-hours over whole hours are the minutes' integral exactly.
        JsonPath day = hours("2026-01-10T00:00:00Z", "2026-01-11T00:00:00Z");
        assertEquals(usedHoursOfR(R_START, R_START.plusSeconds(7200)), rt(day, "usedGpuHours"), 1e-9);
        assertEquals(2.0, rt(day, "allocatedGpuHours"), 1e-9);
        // Half an hour counts half its hour's level: the sum of its minutes' means / 60, for 1,800 s.
        double hourTenLevel = usedHoursOfR(R_START, R_START.plusSeconds(3600)) * 3600 / 3600;
        JsonPath half = hours("2026-01-10T10:30:00Z", "2026-01-10T11:00:00Z");
        assertEquals(hourTenLevel * 0.5, rt(half, "usedGpuHours"), 1e-9);
        // Per day of Pacific/Chatham (UTC+13:45 in January) an hour is cut at the seam: its midnight at 10:15Z leaves
        // a quarter of the hour 10:00-11:00 on the 10th (local) and the rest, with the hour 11:00-12:00, on the 11th.
        JsonPath chatham = given().queryParam("from", "2026-01-10T00:00:00Z").queryParam("to", "2026-01-11T00:00:00Z")
                .queryParam("groupBy", "tenant,day").queryParam("timeZone", "Pacific/Chatham").get("/api/v1/gpu-hours")
                .then().statusCode(200).extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.BIG_DECIMAL));
        double hourEleven = usedHoursOfR(R_START.plusSeconds(3600), R_START.plusSeconds(7200));
        assertEquals(0.25, new BigDecimal(chatham.getString("find { it.key == 'rt/2026-01-10' }.allocatedGpuHours")).doubleValue(), 1e-9);
        assertEquals(1.75, new BigDecimal(chatham.getString("find { it.key == 'rt/2026-01-11' }.allocatedGpuHours")).doubleValue(), 1e-9);
        assertEquals(hourTenLevel * 0.25, new BigDecimal(chatham.getString("find { it.key == 'rt/2026-01-10' }.usedGpuHours")).doubleValue(), 1e-9);
        assertEquals(hourTenLevel * 0.75 + hourEleven,
                new BigDecimal(chatham.getString("find { it.key == 'rt/2026-01-11' }.usedGpuHours")).doubleValue(), 1e-9);
        // The curve has one point an hour: the mean, max and count of that hour's samples.
        Map<String, double[]> expected = expectedHours(SENT, Instant.parse("2026-01-25T00:00:00Z"));
        JsonPath curve = given().queryParam("from", "2026-01-10T00:00:00Z").queryParam("to", "2026-01-11T00:00:00Z")
                .queryParam("field", "SM_ACTIVE").get("/api/v1/gpus/GPU-R/usage").then().statusCode(200)
                .extract().jsonPath().using(new JsonPathConfig(JsonPathConfig.NumberReturnType.DOUBLE));
        assertEquals(List.of("2026-01-10T10:00:00Z", "2026-01-10T11:00:00Z"), curve.getList("minute"));
        assertEquals(List.of(3600, 3600), curve.getList("seconds"));
        for (int i = 0; i < 2; i++) {
            double[] h = expected.get("GPU-R|SM_ACTIVE|" + curve.getString("[" + i + "].minute"));
            assertEquals(h[0] / h[2], curve.getDouble("[" + i + "].mean"), 1e-9);
            assertEquals(h[1], curve.getDouble("[" + i + "].max"), 1e-9);
            assertEquals((int) h[2], curve.getInt("[" + i + "].samples"));
        }
        // A window within the minute retention still answers per minute.
        JsonPath recent = given().queryParam("from", "2026-02-28T00:00:00Z").queryParam("to", "2026-03-01T00:00:00Z")
                .get("/api/v1/gpus/GPU-R/usage").then().statusCode(200).extract().jsonPath();
        assertEquals(List.of(60), recent.getList("seconds"));
        assertEquals(0.75, recent.getDouble("[0].mean"), 0);
    }

    @Test
    @Order(5)
    void minutesOfAFoldedDayArrivingLateAreAddedToItsHour() {
        Sent late = new Sent("GPU-C", "SM_ACTIVE", 0.25, Instant.parse("2026-01-20T00:03:30Z"));
        send(List.of(late));
        RetentionSweep.Report report = retention.run(FIRST_RUN).await().indefinitely();
        assertEquals(new RetentionSweep.Report(1, 1, 1, 0), report);
        List<Sent> all = new ArrayList<>(SENT);
        all.add(late);
        double[] h = expectedHours(all, Instant.parse("2026-01-25T00:00:00Z")).get("GPU-C|SM_ACTIVE|2026-01-20T00:00:00Z");
        // Sum and samples stay exact: 10 x 0.5 + 0.25 over 11 samples. The late minute row (00:03, already folded
        // with its 0.5) is folded on its own, so the hour counts 10 + 1 minute rows.
        assertEquals(List.of(h[0] + "|" + (int) h[2] + "|" + ((int) h[3] + 1)), rows("SELECT sum, samples, minutes FROM ledger.usage_hour"
                + " WHERE gpu_uuid = 'GPU-C' AND hour = '2026-01-20T00:00:00Z'"));
        assertEquals(5.25, h[0], 0);
    }

    @Test
    @Order(6)
    void hoursPastTheirRetentionAreDroppedAndTheBooksStay() {
        String segments = rows("SELECT count(*) FROM ledger.allocation_segment").get(0);
        RetentionSweep.Report report = retention.run(YEAR_LATER).await().indefinitely();
        // 2027-04-01 less 400 days is 2026-02-25: January's month of hours goes; February's (28th folded now) stays.
        assertEquals(1, report.hourMonthsDropped());
        assertEquals(1, report.daysFolded());
        assertFalse(exists("usage_hour_p202601"));
        assertTrue(exists("usage_hour_p202602"));
        assertEquals(List.of("0"), rows("SELECT count(*) FROM ledger.usage_hour WHERE hour < '2026-02-01'"));
        assertEquals(List.of("GPU-R|SM_ACTIVE|0.75|1"), rows("SELECT gpu_uuid, field, sum, samples FROM ledger.usage_hour"));
        assertEquals(segments, rows("SELECT count(*) FROM ledger.allocation_segment").get(0));
        JsonPath day = hours("2026-01-10T00:00:00Z", "2026-01-11T00:00:00Z");
        assertEquals(2.0, rt(day, "allocatedGpuHours"), 1e-9);
        assertEquals(0.0, rt(day, "usedGpuHours"), 1e-9);
    }
}
