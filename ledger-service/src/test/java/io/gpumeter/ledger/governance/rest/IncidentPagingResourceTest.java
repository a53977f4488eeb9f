package io.gpumeter.ledger.governance.rest;

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
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The failure incidents page in their query, for cluster "fpage" (no other test writes there): 260 incidents whose
 * starts repeat, so the key breaks the ties; every third is open, every other one of cause gpu-lost. Each page
 * counts the whole list its filter selects, the cause and open filters included, and the next links visit every
 * incident once in the list's order.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class IncidentPagingResourceTest {

    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String WINDOW = "/api/v1/failures/incidents?cluster=fpage&from=2002-01-01T00:00:00Z"
            + "&to=2002-01-02T00:00:00Z";
    private static final Function<ExtractableResponse<Response>, List<String>> KEYS = r -> {
        List<String> nodes = r.jsonPath().getList("node", String.class);
        List<String> starts = r.jsonPath().getList("startedAt", String.class);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            out.add(nodes.get(i) + "@" + starts.get(i));
        }
        return out;
    };

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
                INSERT INTO ledger.gov_incident (cluster, incident_key, scope, subject, cause, root_class, node, started_at,
                                                 recovered_at, occurrences)
                SELECT 'fpage', 'k-' || lpad(i::text, 4, '0'), 'gpu', 'node-' || i,
                       CASE WHEN i % 2 = 0 THEN 'gpu-lost' ELSE 'gpu-health' END, 'DATA_PLANE', 'node-' || i,
                       timestamptz '2002-01-01T00:00:00Z' + (i % 17) * interval '1 minute',
                       CASE WHEN i % 3 = 0 THEN NULL ELSE timestamptz '2002-01-03T00:00:00Z' END, 1
                FROM generate_series(1, 260) AS i""").execute().await().atMost(WAIT);
    }

    @Test
    void theWindowPagesWithItsTrueTotal() {
        List<String> all = KEYS.apply(given().urlEncodingEnabled(false).get(WINDOW).then().statusCode(200)
                .header("X-Total-Count", nullValue()).extract());
        assertEquals(260, all.size(), "without limit the list comes whole");
        assertEquals(260, new HashSet<>(all).size());
        assertEquals(all, PageWalk.walk(WINDOW + "&limit=25", 260, 25, KEYS),
                "the pages together are the whole list, in its order, each incident once");
    }

    @Test
    void theCauseIsFilteredBeforeTheCut() {
        String ofCause = WINDOW + "&cause=gpu-lost";
        List<String> all = KEYS.apply(given().urlEncodingEnabled(false).get(ofCause).then().statusCode(200).extract());
        assertEquals(130, all.size());
        assertEquals(all, PageWalk.walk(ofCause + "&limit=40", 130, 40, KEYS));
        given().urlEncodingEnabled(false).get(ofCause + "&limit=40").then().body("cause", equalTo(Collections.nCopies(40, "gpu-lost")));
    }

    @Test
    void openIncidentsPageWithTheirTrueTotal() {
        String open = "/api/v1/failures/incidents?cluster=fpage&open=true";
        List<String> all = KEYS.apply(given().urlEncodingEnabled(false).get(open).then().statusCode(200).extract());
        assertEquals(86, all.size(), "every third of 260 is open");
        assertEquals(all, PageWalk.walk(open + "&limit=30", 86, 30, KEYS));
        given().urlEncodingEnabled(false).get(open + "&cause=gpu-health&limit=5").then().statusCode(200)
                .header("X-Total-Count", "43").body("size()", equalTo(5));
    }

    @Test
    void aPagePastTheEndStillCountsTheWholeList() {
        given().urlEncodingEnabled(false).get(WINDOW + "&limit=10&offset=500").then().statusCode(200)
                .header("X-Total-Count", "260").header("Link", nullValue()).body("size()", equalTo(0));
    }
}
