package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.Contract;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.governance.service.IncidentIdBackfill;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

/**
 * Stable incident ids, for cluster "fid" (no other test writes there). ml/puller's container waits in ImagePullBackOff
 * from 10:00:05.123456789 (its Ready change, with nanoseconds as a batch may carry them): an image-pull incident, open.
 * A later version of the pod has the container running from 10:05: the pod's books are derived again, from the stored
 * versions this time, and the same incident is recovered, under the same id.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class IncidentIdResourceTest {

    static String status(String pod, String uid, String rv, String observed, String state) {
        return """
                {"uid":"%s","namespace":"ml","name":"%s","resourceVersion":"%s","type":"MODIFIED","observedAt":"%s",
                 "createdAt":"2026-05-01T09:59:00Z","scheduledAt":"2026-05-01T09:59:30Z","nodeName":"gpu-1",
                 "schedulerName":"default-scheduler","phase":"Pending","readyChangedAt":"2026-05-01T10:00:05.123456789Z",
                 "gpuResources":{"nvidia.com/gpu":1},
                 "containers":[{"name":"main","init":false,"restartCount":0,"state":%s,"lastState":null}]}
                """.formatted(uid, pod, rv, observed, state);
    }

    static final String WAITING = "{\"state\":\"waiting\",\"reason\":\"ImagePullBackOff\",\"message\":\"Back-off pulling image\"}";
    static final String RUNNING = "{\"state\":\"running\",\"startedAt\":\"2026-05-01T10:05:00Z\"}";

    static void post(String... statuses) {
        given().contentType(ContentType.JSON).body("{\"cluster\":\"fid\",\"podStatuses\":[" + String.join(",", statuses) + "]}")
                .post("/api/v1/facts/governance").then().statusCode(200);
    }

    static ValidatableResponse listed() {
        return given().queryParam("from", "2026-05-01T00:00:00Z").queryParam("to", "2026-05-02T00:00:00Z")
                .queryParam("cluster", "fid").get("/api/v1/failures/incidents").then().statusCode(200);
    }

    @Test
    void anIncidentKeepsItsIdWhenItsBooksAreDerivedAgainAndIsReadByIt() {
        post(status("puller", "pu-1", "10", "2026-05-01T10:00:06.987654321Z", WAITING),
                status("other", "ot-1", "11", "2026-05-01T10:00:06Z", WAITING));
        List<String> ids = listed().body("findAll { it.pod != 'legacy' }", hasSize(2))
                .body("findAll { it.pod != 'legacy' }.recoveredAt", equalTo(java.util.Arrays.asList(null, null)))
                .extract().path("findAll { it.pod != 'legacy' }.id");
        String puller = listed().extract().path("find { it.pod == 'puller' }.id");
        // alert-service's rules and review read the incidents of a window from this answer
        Contract.record("ledger", "incidents", listed().extract().asString());
        org.junit.jupiter.api.Assertions.assertNotEquals(ids.get(0), ids.get(1), "two incidents, two ids");

        post(status("puller", "pu-1", "20", "2026-05-01T10:05:01Z", RUNNING));

        listed().body("find { it.pod == 'puller' }.id", equalTo(puller))
                .body("find { it.pod == 'puller' }.recoveredAt", equalTo("2026-05-01T10:05:00Z"));
        String example = given().get("/api/v1/failures/incidents/" + puller).then().statusCode(200)
                .body("id", equalTo(puller)).body("cluster", equalTo("fid")).body("cause", equalTo("image-pull"))
                .body("pod", equalTo("puller")).body("startedAt", equalTo("2026-05-01T10:00:05.123456Z"))
                .body("recoveredAt", equalTo("2026-05-01T10:05:00Z")).body("changesBefore", hasSize(0)).extract().asString();
        // alert-service's review reads one incident by its id from this answer
        Contract.record("ledger", "incident", example);
        given().get("/api/v1/failures/incidents/" + ids.stream().filter(i -> !i.equals(puller)).findFirst().orElseThrow())
                .then().statusCode(200).body("pod", equalTo("other")).body("recoveredAt", nullValue())
                .body("id", not(equalTo(puller)));
    }

    @Inject
    Pool pool;

    @Inject
    IncidentIdBackfill backfill;

    @Test
    void rowsStoredBeforeIdsAreGivenTheIdTheRuleGivesAndFoundByIt() {
        post(status("legacy", "le-1", "30", "2026-05-01T10:00:07Z", WAITING));
        String id = listed().extract().path("find { it.pod == 'legacy' }.id");
        pool.query("UPDATE ledger.gov_incident SET id = NULL WHERE cluster = 'fid'").execute().await().indefinitely();
        // a row without its id is still listed under the id the rule gives it, but not found by it
        listed().body("find { it.pod == 'legacy' }.id", equalTo(id));
        given().get("/api/v1/failures/incidents/" + id).then().statusCode(404);

        org.junit.jupiter.api.Assertions.assertTrue(backfill.fillAll(0).await().indefinitely() >= 1);
        given().get("/api/v1/failures/incidents/" + id).then().statusCode(200).body("pod", equalTo("legacy"));
    }

    @Test
    void anUnknownOrMalformedIdIsA404NamingIt() {
        given().get("/api/v1/failures/incidents/0123456789abcdef01234567").then().statusCode(404)
                .contentType("application/problem+json").body("field", equalTo("id"))
                .body("detail", equalTo("no incident has the id '0123456789abcdef01234567'"));
        given().get("/api/v1/failures/incidents/pod-u1-oom").then().statusCode(404)
                .contentType("application/problem+json").body("field", equalTo("id"));
    }
}
