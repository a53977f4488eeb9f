package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.rest.UsedHoursResourceTest.assertHours;
import static io.gpumeter.ledger.rest.UsedHoursResourceTest.gpu;
import static io.gpumeter.ledger.rest.UsedHoursResourceTest.ns;
import static io.gpumeter.ledger.rest.UsedHoursResourceTest.pod;
import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * A month's GPU-hours are added up from the day books of its days that are over, and a day is computed again once a
 * fact of it changes. Figures by hand, September 2026 (long over by the clock of these tests), tenant dbk:
 * <pre>
 * dbk-1: a whole card, 10 Sep 22:00Z to 12 Sep 02:00Z: 2 h on the 10th, 24 h on the 11th, 2 h on the 12th (28 h)
 * dbk-2, sent after the first report: 11 Sep 10:00Z to 13:00Z, 3 h more on the 11th (31 h)
 * dbk-3, sent last: 20 Sep 00:00Z to 01:30Z, 1.5 h on the 20th (32.5 h)
 * </pre>
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DayBooksResourceTest {

    private static final String SHAPE = "[[\"tenant\"],\"dbk\"]";
    private static final String WHOLE_VGPU = "{\"nvidia.com/gpu\":1,\"nvidia.com/gpumem\":81920,\"nvidia.com/gpucores\":100}";
    private static final String VGPU = "[{\"container\":0,\"uuid\":\"GPU-DBI\",\"type\":\"NVIDIA\",\"memoryMib\":81920,\"cores\":100}]";

    @Inject
    Pool pool;

    private static void send(String podJson) {
        send("dbk", podJson);
    }

    private static void send(String namespace, String podJson) {
        String facts = "{\"cluster\":\"daybooks\",\"namespaces\":[" + ns(namespace) + "],"
                + "\"nodes\":[{\"name\":\"n1\",\"resourceVersion\":\"1\",\"type\":\"ADDED\",\"observedAt\":\"2026-08-01T00:00:00Z\","
                + "\"labels\":{\"nvidia.com/gpu.product\":\"NVIDIA-H100-80GB-HBM3\",\"nvidia.com/gpu.memory\":\"81920\"},"
                + "\"gpus\":[" + gpu("GPU-DBI") + "]}],"
                + "\"pods\":[" + podJson + "]}";
        given().contentType(ContentType.JSON).body(facts).post("/api/v1/facts").then().statusCode(200);
    }

    private static BigDecimal september() {
        String hours = given().queryParam("from", "2026-09-01T00:00:00Z").queryParam("to", "2026-10-01T00:00:00Z")
                .queryParam("groupBy", "tenant").queryParam("tenant", "dbk")
                .get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .getString("find { it.key == 'dbk' }.allocatedGpuHours");
        return new BigDecimal(hours);
    }

    private List<String> snapshots(String... days) {
        List<String> out = new ArrayList<>();
        for (String day : days) {
            Row row = pool.preparedQuery("SELECT snapshot::text AS s FROM ledger.day_answer WHERE kind = 'gpu-hours' "
                    + "AND shape = $1 AND day_start = $2::timestamptz").execute(Tuple.of(SHAPE, OffsetDateTime.parse(day)))
                    .await().indefinitely().iterator().next();
            out.add(row.getString("s"));
        }
        return out;
    }

    @Test
    void aMonthIsAddedUpFromItsDaysAndADayIsComputedAgainWhenItsFactsChange() {
        send(pod("dbk-1", "dbk", "2026-09-10T22:00:00Z", "2026-09-12T02:00:00Z", "{\"nvidia.com/gpu\":1}", "[]"));
        assertHours("28", september());
        long stored = pool.preparedQuery("SELECT count(*) AS n FROM ledger.day_answer WHERE kind = 'gpu-hours' AND shape = $1")
                .execute(Tuple.of(SHAPE)).await().indefinitely().iterator().next().getLong("n");
        assertEquals(30, stored, "every day of September is over, and stored");
        List<String> first = snapshots("2026-09-11T00:00:00Z", "2026-09-25T00:00:00Z");

        // A stored day is what the report reads: a figure written into the 25th's book (no fact changed) shows.
        pool.preparedQuery("UPDATE ledger.day_answer SET rows = '[[[\"dbk\"],\"3600\"]]'::jsonb "
                + "WHERE kind = 'gpu-hours' AND shape = $1 AND day_start = '2026-09-25T00:00:00Z'")
                .execute(Tuple.of(SHAPE)).await().indefinitely();
        assertHours("29", september());

        send(pod("dbk-2", "dbk", "2026-09-11T10:00:00Z", "2026-09-11T13:00:00Z", "{\"nvidia.com/gpu\":1}", "[]"));
        assertHours("32", september());
        List<String> second = snapshots("2026-09-11T00:00:00Z", "2026-09-25T00:00:00Z");
        assertNotEquals(first.get(0), second.get(0), "the 11th was computed again");
        assertEquals(first.get(1), second.get(1), "the 25th, whose facts did not change, was not");

        // The 20th changes, and only it: the 25th keeps its written figure until a fact of its own changes.
        send(pod("dbk-3", "dbk", "2026-09-20T00:00:00Z", "2026-09-20T01:30:00Z", "{\"nvidia.com/gpu\":1}", "[]"));
        assertHours("33.5", september());
        pool.query("INSERT INTO ledger.book_change (days) VALUES (daterange('2026-09-25', '2026-09-25', '[]'))")
                .execute().await().indefinitely();
        assertHours("32.5", september());
    }

    @Test
    void aDayTheWindowCutsOrThatIsNotOverIsComputedAndNeverStored() {
        // tenant dbq: 5 Sep 06:00Z to 10:00Z, of which the window from 08:00Z holds 2 h
        send("dbq", pod("dbq-1", "dbq", "2026-09-05T06:00:00Z", "2026-09-05T10:00:00Z", "{\"nvidia.com/gpu\":1}", "[]"));
        String hours = given().queryParam("from", "2026-09-05T08:00:00Z").queryParam("to", "2026-09-06T00:00:00Z")
                .queryParam("groupBy", "tenant").queryParam("tenant", "dbq")
                .get("/api/v1/gpu-hours").then().statusCode(200).extract().jsonPath()
                .getString("find { it.key == 'dbq' }.allocatedGpuHours");
        assertHours("2", new BigDecimal(hours));
        long stored = pool.preparedQuery("SELECT count(*) AS n FROM ledger.day_answer WHERE kind = 'gpu-hours' AND shape = $1")
                .execute(Tuple.of("[[\"tenant\"],\"dbq\"]")).await().indefinitely().iterator().next().getLong("n");
        assertEquals(0, stored, "the window holds no whole day");
    }

    private static long unmeasuredSeconds() {
        String seconds = given().queryParam("from", "2026-09-01T00:00:00Z").queryParam("to", "2026-10-01T00:00:00Z")
                .queryParam("groupBy", "tenant").queryParam("cluster", "daybooks")
                .get("/api/v1/idle").then().statusCode(200).extract().jsonPath()
                .getString("rows.find { it.key == 'dbi' }.seconds.allocatedUnmeasured");
        return new BigDecimal(seconds).longValueExact();
    }

    @Test
    void theIdleSplitIsAddedUpFromItsDaysToo() {
        // tenant dbi: 14 Sep 10:00Z to 16:00Z, all of HAMi card GPU-DBI (cores 100 of 100), which nothing measured:
        // 6 h = 21,600 card-seconds allocated and unmeasured
        send("dbi", pod("dbi-1", "dbi", "2026-09-14T10:00:00Z", "2026-09-14T16:00:00Z", WHOLE_VGPU, VGPU));
        assertEquals(21_600, unmeasuredSeconds());
        String shape = "[\"daybooks\",\"tenant\",";
        long stored = pool.preparedQuery("SELECT count(*) AS n FROM ledger.day_answer WHERE kind = 'idle-parts' "
                        + "AND starts_with(shape, $1) AND day_start >= '2026-09-01T00:00:00Z' AND day_start < '2026-10-01T00:00:00Z'")
                .execute(Tuple.of(shape)).await().indefinitely().iterator().next().getLong("n");
        assertEquals(30, stored, "every day of September is stored");

        // The 14th's parts written into the 20th's book too (no fact changed): the split reads them, twice the time.
        pool.preparedQuery("""
                        UPDATE ledger.day_answer a SET rows = b.rows FROM ledger.day_answer b
                        WHERE a.kind = 'idle-parts' AND b.kind = 'idle-parts' AND a.shape = b.shape AND starts_with(a.shape, $1)
                          AND a.day_start = '2026-09-20T00:00:00Z' AND b.day_start = '2026-09-14T00:00:00Z'""")
                .execute(Tuple.of(shape)).await().indefinitely();
        assertEquals(43_200, unmeasuredSeconds());
        // a pod of the 20th on the cluster changes the day: computed again, from the facts
        send("dbi", pod("dbi-2", "dbi", "2026-09-20T00:00:00Z", "2026-09-20T00:30:00Z", WHOLE_VGPU, VGPU));
        assertEquals(21_600 + 1_800, unmeasuredSeconds());
    }
}
