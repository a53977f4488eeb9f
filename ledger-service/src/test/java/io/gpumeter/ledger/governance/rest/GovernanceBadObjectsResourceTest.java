package io.gpumeter.ledger.governance.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Management;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Objects of unexpected shape at the governance intake. What the ledger cannot read as JSON of the contract (a
 * garbage timestamp) refuses the batch with a problem naming the field, storing nothing. What it can read but no
 * rule expected (no conditions, an apiVersion it never heard of, a condition without a type) is stored and derived
 * as far as it goes, and the other objects of the batch get their books. (An object whose books cannot be derived
 * at all is counted and left out: {@code SkippedBooksTest}.)
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class GovernanceBadObjectsResourceTest {

    static String workload(String uid, String cluster, String apiVersion, String observedAt, String conditions) {
        return """
                {"cluster":"%s","workloads":[{"uid":"%s","namespace":"research","name":"%s","resourceVersion":"1","type":"ADDED",
                 "observedAt":"%s","apiVersion":"%s","createdAt":"2024-05-01T10:00:00Z","queueName":"lq","active":true,
                 "clusterQueue":"cq-bad","conditions":%s}]}
                """.formatted(cluster, uid, uid, observedAt, apiVersion, conditions);
    }

    static final String ADMITTED = """
            [{"type":"QuotaReserved","status":"True","reason":"QuotaReserved","lastTransitionTime":"2024-05-01T10:10:00Z"},
             {"type":"Admitted","status":"True","reason":"Admitted","lastTransitionTime":"2024-05-01T10:10:00Z"}]""";

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no conditions at all            | w1 | kueue.x-k8s.io/v1beta1 | 2024-05-02T00:00:00Z | null                                    | 200 | ''",
            "empty conditions                | w2 | kueue.x-k8s.io/v1beta1 | 2024-05-02T00:00:00Z | []                                      | 200 | ''",
            "an apiVersion nobody serves     | w3 | kueue.x-k8s.io/v9      | 2024-05-02T00:00:00Z | null                                    | 200 | ''",
            "a garbage observedAt            | w4 | kueue.x-k8s.io/v1beta1 | yesterday            | null                                    | 400 | workloads[0].observedAt",
            "a garbage transition time       | w5 | kueue.x-k8s.io/v1beta1 | 2024-05-02T00:00:00Z | [{\"type\":\"Admitted\",\"status\":\"True\",\"lastTransitionTime\":\"31/02/2024\"}] | 400 | workloads[0].conditions[0].lastTransitionTime",
    })
    void anObjectTheLedgerCanReadIsStoredAndOneItCannotIsAProblem(String name, String uid, String apiVersion, String observedAt,
                                                                 String conditions, int status, String field) {
        var response = given().contentType(ContentType.JSON).body(workload(uid, "bad", apiVersion, observedAt, conditions))
                .post("/api/v1/facts/governance").then().statusCode(status);
        if (status == 200) {
            response.body("accepted", equalTo(1));
        } else {
            response.contentType("application/problem+json").body("field", equalTo(field));
            // Nothing of the refused batch was stored: the same workload with a good timestamp is new.
            given().contentType(ContentType.JSON).body(workload(uid, "bad", apiVersion, "2024-05-02T00:00:00Z", "null"))
                    .post("/api/v1/facts/governance").then().statusCode(200).body("accepted", equalTo(1));
        }
    }

    @Test
    void aConditionWithoutTypeNeitherFailsTheBatchNorSpoilsTheOtherWorkloads() {
        double before = skipped("workload");
        String typeless = workload("typeless", "bad-mix", "kueue.x-k8s.io/v1beta1", "2024-05-02T00:00:00Z",
                "[{\"status\":\"True\",\"lastTransitionTime\":\"2024-05-01T10:05:00Z\"}]");
        String good = workload("good", "bad-mix", "kueue.x-k8s.io/v1beta1", "2024-05-02T00:00:00Z", ADMITTED);
        String both = typeless.substring(0, typeless.lastIndexOf("]}")) + "," + good.substring(good.indexOf("[{") + 1);
        given().contentType(ContentType.JSON).body(both).post("/api/v1/facts/governance").then().statusCode(200)
                .body("accepted", equalTo(2));
        assertEquals(before, skipped("workload"), "a typeless condition is no transition; the workload is derived");
        given().queryParams(Map.of("from", "2024-05-01T00:00:00Z", "to", "2024-05-02T00:00:00Z", "groupBy", "clusterQueue",
                        "cluster", "bad-mix"))
                .get("/api/v1/queue-wait").then().statusCode(200)
                .body("[0].key", equalTo("cq-bad")).body("[0].count", equalTo(1)).body("[0].p50Seconds", equalTo(600));
    }

    static double skipped(String book) {
        String metrics = Management.given().get("/q/metrics").then().statusCode(200).extract().asString();
        Matcher m = Pattern.compile("^gpumeter_ledger_books_skipped_total\\{book=\"" + book + "\"[^}]*} (\\S+)$", Pattern.MULTILINE)
                .matcher(metrics);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
