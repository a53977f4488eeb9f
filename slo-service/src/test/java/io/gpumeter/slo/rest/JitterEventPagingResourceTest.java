package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.PageWalk;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
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
 * The jitter event list pages in its query, for service "paging" (no other test stores it): 150 events of three
 * SLOs that start together minute by minute, so the SLO breaks the ties. Each page counts the whole list and the
 * next links visit every event once, in start order.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class JitterEventPagingResourceTest {

    private static final String LIST = "/api/v1/jitter-events?service=paging&from=2003-01-01T00:00:00Z"
            + "&to=2003-01-02T00:00:00Z";
    private static final Function<ExtractableResponse<Response>, List<Long>> IDS =
            r -> r.jsonPath().getList("id", Long.class);

    private static boolean loaded;

    @Inject
    Pool pool;

    @BeforeEach
    void load() {
        if (loaded) {
            return;
        }
        loaded = true;
        pool.query("""
                INSERT INTO slo.jitter_event (slo, service, sli, started_at, ended_at, bad_minutes, peak_p99_ms,
                                              threshold_ms, factor, evidence, detected_at, updated_at)
                SELECT 'paging-' || (i % 3), 'paging', 'TTFT',
                       timestamptz '2003-01-01T00:00:00Z' + (i / 3) * interval '1 minute',
                       timestamptz '2003-01-01T00:01:00Z' + (i / 3) * interval '1 minute', 1, 300, 200, 1.5, '{}',
                       timestamptz '2003-01-02T00:00:00Z', timestamptz '2003-01-02T00:00:00Z'
                FROM generate_series(0, 149) AS i""").execute().await().atMost(Duration.ofSeconds(30));
    }

    @Test
    void eventsPageWithTheirTrueTotalInStartOrder() {
        List<Long> ordered = new ArrayList<>();
        pool.query("SELECT id FROM slo.jitter_event WHERE service = 'paging' ORDER BY started_at, slo").execute()
                .await().atMost(Duration.ofSeconds(30)).forEach(r -> ordered.add(r.getLong("id")));
        List<Long> all = IDS.apply(given().urlEncodingEnabled(false).get(LIST).then().statusCode(200)
                .header("X-Total-Count", nullValue()).extract());
        assertEquals(150, all.size(), "without limit the list comes whole");
        assertEquals(ordered, all);
        List<Long> walked = PageWalk.walk(LIST + "&limit=40", 150, 40, IDS);
        assertEquals(all, walked, "the pages together are the whole list, in its order, each event once");
        assertEquals(150, new HashSet<>(walked).size());
    }

    @Test
    void aPagePastTheEndStillCountsTheWholeList() {
        given().urlEncodingEnabled(false).get(LIST + "&limit=10&offset=150").then().statusCode(200)
                .header("X-Total-Count", "150").header("Link", nullValue()).body("size()", equalTo(0));
    }
}
