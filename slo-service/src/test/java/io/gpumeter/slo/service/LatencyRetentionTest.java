package io.gpumeter.slo.service;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The latency tables' retention on a database of its own: minutes older than 35 days become one row per pod, SLI
 * and hour with the same percentiles, counts and requests; newer minutes stay; rows older than 400 days go; a second
 * run finds nothing to do; a minute delivered after its hour was folded is kept beside the hour and read with it.
 */
@QuarkusTest
@TestProfile(LatencyRetentionTest.OwnDatabase.class)
@WithTestResource(EmbeddedPostgresResource.class)
class LatencyRetentionTest {

    /** A profile of its own: a Quarkus start, and so a database, of its own. */
    public static class OwnDatabase implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("gpumeter.slo.retention.minutes", "P35D", "gpumeter.slo.retention.hours", "P400D");
        }
    }

    @Inject
    LatencyRetention retention;
    @Inject
    Pool pool;

    static String line(String pod, Instant ts, double e2eMs, boolean ok) {
        return "{\"service\":\"chat\",\"namespace\":\"ml\",\"pod\":\"" + pod + "\",\"ts\":\"" + ts + "\",\"e2eMs\":"
                + e2eMs + ",\"ok\":" + ok + "}";
    }

    static void post(String... lines) {
        given().contentType("application/x-ndjson").body((String.join("\n", lines) + "\n").getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/latency").then().statusCode(200);
    }

    static JsonPath e2e(Instant from, Instant to) {
        return given().queryParam("service", "chat").queryParam("from", from.toString()).queryParam("to", to.toString())
                .queryParam("sli", "e2e").get("/api/v1/latency").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void oldMinutesBecomeHoursThatAnswerAsTheMinutesDid() {
        Instant now = Instant.now();
        Instant h = now.minus(Duration.ofDays(40)).truncatedTo(ChronoUnit.HOURS);
        Instant recent = now.minus(Duration.ofHours(1)).truncatedTo(ChronoUnit.MINUTES);
        Instant ancient = now.minus(Duration.ofDays(401));
        post(line("a", h.plusSeconds(1), 10, true), line("a", h.plusSeconds(2), 20, false),
                line("a", h.plusSeconds(61), 30, true), line("b", h.plusSeconds(121), 40, true),
                line("a", h.plusSeconds(59 * 60 + 30), 50, true), line("a", h.plusSeconds(3600 + 5), 60, true),
                line("a", recent.plusSeconds(5), 70, true), line("a", ancient, 90, true));
        // the engines' gauges are not folded: the old one stays, the ancient one goes with the hours
        given().contentType("application/x-ndjson").body(("{\"service\":\"chat\",\"namespace\":\"ml\",\"pod\":\"a\",\"ts\":\""
                        + h.plusSeconds(10) + "\",\"kvCacheUsage\":0.5}\n{\"service\":\"chat\",\"namespace\":\"ml\",\"pod\":\"a\","
                        + "\"ts\":\"" + ancient + "\",\"kvCacheUsage\":0.5}\n").getBytes(StandardCharsets.UTF_8))
                .post("/api/v1/ingest/engine-gauges").then().statusCode(200);

        // before: six requests in the two old hours, 10..60 ms: p50 = the 3rd = 30, max 60, at five distinct minutes
        JsonPath before = e2e(h, h.plus(Duration.ofHours(2)));
        assertEquals(6, before.getInt("count"));
        assertEquals(30.0, before.getDouble("p50Ms"), 0.03);
        assertEquals(60.0, before.getDouble("maxMs"), 0.06);
        assertEquals(5, before.getList("minutes").size());

        LatencyRetention.Outcome first = retention.run().await().atMost(Duration.ofSeconds(30));
        // hours folded: h and h+1 of the old data, and the ancient request's hour (folded, then dropped)
        assertEquals(3, first.hoursFolded());
        // minute rows replaced: hour h has 4 histogram rows and 4 request rows, h+1 one of each, the ancient hour one of each
        assertEquals(12, first.minuteRowsFolded());
        assertEquals(3, first.rowsDropped(), "the ancient hour's histogram row and request row, and its gauge minute");
        assertEquals(List.of("a " + h.plusSeconds(10).truncatedTo(ChronoUnit.MINUTES)), gaugeMinutes(),
                "the 40-day-old gauge minute stays as it was");

        JsonPath after = e2e(h, h.plus(Duration.ofHours(2)));
        assertEquals(6, after.getInt("count"));
        assertEquals(30.0, after.getDouble("p50Ms"), 0.03);
        assertEquals(60.0, after.getDouble("maxMs"), 0.06);
        assertEquals(List.of(h.toString(), h.plus(Duration.ofHours(1)).toString()), after.getList("minutes.minute"),
                "an old window is answered from whole hours");

        // the stored rows: pod a's hour h stands for its 3 minutes (4 requests, 1 failed), pod b's for 1
        List<String> rows = rows("""
                SELECT r.pod, r.minute, r.minutes, r.requests, r.failed, l.samples, l.minutes AS hist_minutes
                FROM slo.request_minute r JOIN slo.latency_minute l USING (service, namespace, pod, minute)
                WHERE r.service = 'chat' AND r.minute < $1 ORDER BY r.minute, r.pod""", now.minus(Duration.ofDays(35)));
        assertEquals(List.of("a " + h + " 3 4 1 4 3", "b " + h + " 1 1 0 1 1",
                "a " + h.plus(Duration.ofHours(1)) + " 1 1 0 1 1"), rows);
        assertEquals(List.of("a " + recent + " 1 1 0 1 1"), rows("""
                SELECT r.pod, r.minute, r.minutes, r.requests, r.failed, l.samples, l.minutes AS hist_minutes
                FROM slo.request_minute r JOIN slo.latency_minute l USING (service, namespace, pod, minute)
                WHERE r.service = 'chat' AND r.minute >= $1 ORDER BY r.minute, r.pod""", now.minus(Duration.ofDays(35))),
                "recent minutes stay minutes");

        LatencyRetention.Outcome second = retention.run().await().atMost(Duration.ofSeconds(30));
        assertEquals(new LatencyRetention.Outcome(0, 0, 0), second, "nothing is left to fold or drop");

        // a minute delivered late, after its hour was folded, stays beside the hour and is read with it
        post(line("a", h.plusSeconds(5 * 60), 80, true));
        assertEquals(new LatencyRetention.Outcome(0, 0, 0), retention.run().await().atMost(Duration.ofSeconds(30)));
        JsonPath late = e2e(h, h.plus(Duration.ofHours(2)));
        assertEquals(7, late.getInt("count"));
        assertEquals(80.0, late.getDouble("maxMs"), 0.08);
        assertTrue(late.getList("minutes.minute").contains(h.plusSeconds(5 * 60).toString()));
    }

    private List<String> gaugeMinutes() {
        List<String> out = new ArrayList<>();
        for (Row r : pool.query("SELECT pod, minute FROM slo.engine_gauge_minute ORDER BY minute").execute()
                .await().atMost(Duration.ofSeconds(10))) {
            out.add(r.getString("pod") + " " + r.getOffsetDateTime("minute").toInstant());
        }
        return out;
    }

    private List<String> rows(String sql, Instant arg) {
        List<String> out = new ArrayList<>();
        for (Row r : pool.preparedQuery(sql).execute(Tuple.of(arg.atOffset(java.time.ZoneOffset.UTC)))
                .await().atMost(Duration.ofSeconds(10))) {
            out.add(r.getString("pod") + " " + r.getOffsetDateTime("minute").toInstant() + " " + r.getShort("minutes") + " "
                    + r.getLong("requests") + " " + r.getLong("failed") + " " + r.getLong("samples") + " "
                    + r.getShort("hist_minutes"));
        }
        return out;
    }
}
