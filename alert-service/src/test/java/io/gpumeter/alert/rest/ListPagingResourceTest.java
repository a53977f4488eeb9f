package io.gpumeter.alert.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.PageWalk;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The alert, episode and action lists page in their queries: past the 1,000 alerts and 10,000 actions they once stopped at,
 * X-Total-Count is the true length, following the next links visits every row once in the list's order, and a page
 * past the end still counts the whole list.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ListPagingResourceTest {

    private static final Duration WAIT = Duration.ofSeconds(60);

    @Inject
    Pool pool;

    @Test
    void alertsPastAThousandPageWithTheirTrueTotal() {
        // Resolved episodes of a day no other test uses; start times repeat, so the fingerprint breaks the ties.
        sql("""
                INSERT INTO alert.episode (fingerprint, starts_at, alertname, severity, labels, annotations, state, ends_at,
                                           last_evaluated_at)
                SELECT lpad(to_hex(i), 16, '0'), timestamptz '2001-02-03T00:00:00Z' + (i % 97) * interval '1 second',
                       'PagingTest', 'warning', '{}', '{}', 'resolved', timestamptz '2001-02-04T00:00:00Z' + i * interval '1 second',
                       timestamptz '2001-02-05T00:00:00Z'
                FROM generate_series(1, 1234) AS i""");
        String query = "/api/v1/alerts?state=all&since=2001-02-04T00:00:00Z";
        long total = count("SELECT count(*) AS n FROM alert.episode WHERE state = 'firing' OR ends_at >= '2001-02-04T00:00:00Z'");
        Function<ExtractableResponse<Response>, List<String>> keys = r -> {
            List<String> fingerprints = r.jsonPath().getList("fingerprint", String.class);
            List<String> starts = r.jsonPath().getList("startsAt", String.class);
            List<String> out = new ArrayList<>();
            for (int i = 0; i < fingerprints.size(); i++) {
                out.add(fingerprints.get(i) + "@" + starts.get(i));
            }
            return out;
        };

        ExtractableResponse<Response> whole = given().urlEncodingEnabled(false).get(query).then().statusCode(200)
                .header("X-Total-Count", nullValue()).header("Link", nullValue()).extract();
        List<String> all = keys.apply(whole);
        assertEquals(total, all.size(), "without limit the list comes whole, past the old cut of 1,000");
        assertEquals(1234, whole.jsonPath().getList("findAll { it.alertname == 'PagingTest' }").size());

        List<String> walked = PageWalk.walk(query + "&limit=300", total, 300, keys);
        assertEquals(all, walked, "the pages together are the whole list, in its order, each row once");

        given().urlEncodingEnabled(false).get(query + "&limit=10&offset=" + (total + 5)).then().statusCode(200)
                .header("X-Total-Count", String.valueOf(total)).header("Link", nullValue()).body("size()", equalTo(0));
    }

    @Test
    void theEpisodesOfOneAlertPageNewestFirst() {
        String fingerprint = "00000000feedbeef";
        sql("""
                INSERT INTO alert.episode (fingerprint, starts_at, alertname, severity, labels, annotations, state, ends_at,
                                           last_evaluated_at)
                SELECT '%s', timestamptz '2001-04-01T00:00:00Z' + i * interval '1 hour', 'PagingTest', 'warning', '{}', '{}',
                       'resolved', timestamptz '2001-04-01T00:30:00Z' + i * interval '1 hour', timestamptz '2001-04-10T00:00:00Z'
                FROM generate_series(1, 120) AS i""".formatted(fingerprint));
        String path = "/api/v1/alerts/" + fingerprint;
        Function<ExtractableResponse<Response>, List<String>> starts = r -> r.jsonPath().getList("startsAt", String.class);
        List<String> all = starts.apply(given().get(path).then().statusCode(200).header("X-Total-Count", nullValue()).extract());
        assertEquals(120, all.size());
        assertEquals("2001-04-06T00:00:00Z", all.get(0), "newest first");
        assertEquals(all, PageWalk.walk(path + "?limit=50", 120, 50, starts));
        given().get(path + "?limit=50&offset=500").then().statusCode(200).header("X-Total-Count", "120")
                .body("size()", equalTo(0));
        given().get("/api/v1/alerts/00000000feedbeee?limit=5").then().statusCode(404).body("field", equalTo("fingerprint"));
    }

    @Test
    void actionsPastTenThousandPageWithTheirTrueTotal() {
        // A day no other test audits; action times repeat, so the id breaks the ties.
        sql("""
                INSERT INTO alert.action (alert_fingerprint, alertname, starts_at, action, mode, target, result, detail, at)
                SELECT lpad(to_hex(i), 16, '0'), 'PagingTest', timestamptz '2001-03-01T00:00:00Z', 'annotate', 'enforce',
                       'node-' || (i % 13), 'SKIPPED', 'paging', timestamptz '2001-03-01T00:00:00Z' + (i % 499) * interval '1 second'
                FROM generate_series(1, 10050) AS i""");
        String query = "/api/v1/actions?from=2001-03-01T00:00:00Z&to=2001-03-02T00:00:00Z";
        List<Long> ordered = new ArrayList<>();
        pool.query("SELECT id FROM alert.action WHERE at >= '2001-03-01T00:00:00Z' AND at < '2001-03-02T00:00:00Z' "
                + "ORDER BY at, id").execute().await().atMost(WAIT).forEach(r -> ordered.add(r.getLong("id")));
        assertEquals(10050, ordered.size());
        Function<ExtractableResponse<Response>, List<Long>> ids = r -> r.jsonPath().getList("id", Long.class);

        List<Long> all = ids.apply(given().urlEncodingEnabled(false).get(query).then().statusCode(200)
                .header("X-Total-Count", nullValue()).extract());
        assertEquals(ordered, all, "without limit the list comes whole, past the old cut of 10,000");

        assertEquals(ordered, PageWalk.walk(query + "&limit=10000", 10050, 10000, ids));
        List<Long> small = PageWalk.walk(query + "&limit=2500&offset=0", 10050, 2500, ids);
        assertEquals(ordered, small, "the pages together are the whole list, in its order, each row once");
        assertEquals(small.size(), new HashSet<>(small).size());

        given().urlEncodingEnabled(false).get(query + "&offset=20000").then().statusCode(200)
                .header("X-Total-Count", "10050").header("Link", nullValue()).body("size()", equalTo(0));
    }

    private void sql(String statement) {
        pool.query(statement).execute().await().atMost(WAIT);
    }

    private long count(String statement) {
        Row row = pool.query(statement).execute().await().atMost(WAIT).iterator().next();
        return row.getLong("n");
    }
}
