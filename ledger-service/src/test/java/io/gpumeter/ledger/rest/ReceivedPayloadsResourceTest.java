package io.gpumeter.ledger.rest;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.ContainerState;
import io.gpumeter.common.fact.ContainerStatusFact;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.WatchEventType;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Over HTTP, a pod version that arrives in the written form is stored as it came, byte for byte; any other is
 * stored as the ledger writes it; a refused body stores nothing, and a body sent twice is stored once.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ReceivedPayloadsResourceTest {

    @Inject
    ObjectMapper json;

    @Inject
    Pool pool;

    private static PodFact pod(String uid, String rv) {
        return new PodFact(uid, "ml", "train-" + rv, rv, WatchEventType.ADDED, Instant.parse("2026-05-01T08:00:00.125Z"),
                Instant.parse("2026-05-01T07:59:00Z"), null, null, "Pending", "default-scheduler", false, null, null,
                new Owner("Job", "train"), Map.of("team", "vision"), Map.of("nvidia.com/gpu", 1L), List.of());
    }

    private static String cluster() {
        return "received-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Each stored pod version's payload as PostgreSQL keeps its text, by resource version. */
    private Map<String, String> stored(String cluster) {
        return storedText(cluster, "payload");
    }

    /** Each stored pod version's carried view as PostgreSQL keeps its text, by resource version. */
    private Map<String, String> storedViews(String cluster) {
        return storedText(cluster, "status");
    }

    private Map<String, String> storedText(String cluster, String column) {
        Map<String, String> texts = new TreeMap<>();
        for (Row row : pool.preparedQuery("SELECT resource_version, " + column + "::text AS t FROM ledger.pod_fact WHERE cluster = $1")
                .execute(Tuple.of(cluster)).await().atMost(Duration.ofSeconds(30))) {
            texts.put(row.getString("resource_version"), row.getString("t"));
        }
        return texts;
    }

    @Test
    void aBundlesWrittenPodVersionsAreStoredAsTheyCameAndTheOthersAsTheLedgerWritesThem() throws Exception {
        String cluster = cluster();
        String uid = UUID.randomUUID().toString();
        String written = json.writeValueAsString(pod(uid, "1"));
        String spaced = json.writeValueAsString(pod(uid, "2")).replace(",\"name\":", ", \"name\" :\n");
        String reordered = json.writeValueAsString(pod(uid, "3"))
                .replace("{\"uid\":\"" + uid + "\",\"namespace\":\"ml\"", "{\"namespace\":\"ml\",\"uid\":\"" + uid + "\"");
        String withExtra = json.writeValueAsString(pod(uid, "4")).replace("{\"uid\"", "{\"note\":\"sent by hand\",\"uid\"");
        String body = "{\"facts\":{\"cluster\":\"" + cluster + "\",\"pods\":[" + String.join(",", written, spaced, reordered, withExtra) + "]}}";

        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts/bundles").then().statusCode(200)
                .body("facts.accepted", equalTo(4)).body("facts.duplicates", equalTo(0));
        Map<String, String> payloads = stored(cluster);
        assertEquals(written, payloads.get("1"), "in the written form: as it came");
        assertEquals(spaced, payloads.get("2"), "blanks between tokens change nothing a reader sees: as it came");
        assertEquals(json.writeValueAsString(pod(uid, "3")), payloads.get("3"), "fields in another order: written anew");
        assertEquals(json.writeValueAsString(pod(uid, "4")), payloads.get("4"), "an unknown field is not stored");
        for (String rv : List.of("1", "2", "3", "4")) {
            assertEquals(pod(uid, rv), json.readValue(payloads.get(rv), PodFact.class), rv);
        }

        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts/bundles").then().statusCode(200)
                .body("facts.accepted", equalTo(0)).body("facts.duplicates", equalTo(4));
        assertEquals(payloads, stored(cluster), "sent twice, stored once");
    }

    @Test
    void aBundlesCarriedViewsInTheWrittenFormAreStoredAsTheyCame() throws Exception {
        String cluster = cluster();
        String uid = UUID.randomUUID().toString();
        CarriedStatus fields = new CarriedStatus("Unschedulable", "0/4 nodes are available", "gang-1", "team-a", null,
                Instant.parse("2026-05-01T08:00:00.5Z"), List.of(new ContainerStatusFact("main", false, 0,
                new ContainerState("waiting", "ContainerCreating", null, null, null, null), null)));
        String spaced = json.writeValueAsString(fields).replace(",\"groupName\":", ", \"groupName\" :\n");
        String withExtra = json.writeValueAsString(fields).replace("{\"reason\"", "{\"note\":\"by hand\",\"reason\"");
        String body = "{\"facts\":{\"cluster\":\"" + cluster + "\",\"pods\":[" + json.writeValueAsString(pod(uid, "1")) + ","
                + json.writeValueAsString(pod(uid, "2")) + "]},\"carriedStatuses\":[" + spaced + "," + withExtra + "]}";

        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts/bundles").then().statusCode(200)
                .body("facts.accepted", equalTo(2)).body("governance.accepted", equalTo(2));
        Map<String, String> views = storedViews(cluster);
        assertEquals(spaced, views.get("1"), "in the written form: as it came");
        assertEquals(json.writeValueAsString(fields), views.get("2"), "an unknown field is not stored");
        for (String rv : List.of("1", "2")) {
            assertEquals(fields, json.readValue(views.get(rv), CarriedStatus.class), rv + " reads back");
        }
        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts/bundles").then().statusCode(200)
                .body("facts.duplicates", equalTo(2)).body("governance.accepted", equalTo(0));
        assertEquals(views, storedViews(cluster), "sent twice, stored once");
    }

    @Test
    void aBatchSentStraightToTheLedgerKeepsItsWrittenPodVersionsToo() throws Exception {
        String cluster = cluster();
        PodFact pod = pod(UUID.randomUUID().toString(), "7");
        String body = json.writeValueAsString(new FactBatch(cluster, List.of(), List.of(), List.of(pod)));
        given().contentType(ContentType.JSON).body(body).post("/api/v1/facts").then().statusCode(200)
                .body("accepted", equalTo(1));
        assertEquals(json.writeValueAsString(pod), stored(cluster).get("7"));
        assertNotEquals(-1, body.indexOf(stored(cluster).get("7")), "the very bytes of the body");
    }

    @Test
    void aRefusedBodyStoresNothingAndSaysWhereItWentWrong() throws Exception {
        String cluster = cluster();
        String uid = UUID.randomUUID().toString();
        String good = json.writeValueAsString(pod(uid, "1"));
        String badType = json.writeValueAsString(pod(uid, "2")).replace("\"ADDED\"", "\"added\"");
        given().contentType(ContentType.JSON)
                .body("{\"facts\":{\"cluster\":\"" + cluster + "\",\"pods\":[" + good + "," + badType + "]}}")
                .post("/api/v1/facts/bundles").then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo("facts.pods[1].type"));
        String cut = good.substring(0, good.length() - 1);
        given().contentType(ContentType.JSON).body("{\"cluster\":\"" + cluster + "\",\"pods\":[" + good + "," + cut + "]}")
                .post("/api/v1/facts").then().statusCode(400).contentType("application/problem+json")
                .body("detail", startsWith("The body does not fit this endpoint: pods[1]: the body is not valid JSON at line 1 column "));
        given().contentType(ContentType.JSON).body("").post("/api/v1/facts/bundles").then().statusCode(400)
                .contentType("application/problem+json").body("field", equalTo("facts"));
        assertEquals(Map.of(), stored(cluster));
    }
}
