package io.gpumeter.slo.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class SloResourceTest {

    static final String SLOS = "/api/v1/slos";
    static final String CHAT_TTFT = """
            {"name": "chat-ttft", "selector": {"service": "chat", "namespace": "ml"}, "sli": "TTFT",
             "objective": {"percentile": 99, "thresholdMs": 300, "per": "MINUTE"}, "target": 0.99, "window": "P30D"}""";

    @BeforeEach
    @AfterEach
    void removeStoredSlos() {
        List<String> names = given().get(SLOS).then().statusCode(200).extract().jsonPath().getList("name");
        names.forEach(n -> given().delete(SLOS + "/" + n).then().statusCode(204));
    }

    static void create(String json) {
        given().contentType(ContentType.JSON).body(json).post(SLOS).then().statusCode(201);
    }

    @Test
    void anSloIsCreatedReadReplacedAndDeleted() {
        given().contentType(ContentType.JSON).body(CHAT_TTFT).post(SLOS)
                .then().statusCode(201)
                .header("Location", endsWith("/api/v1/slos/chat-ttft"))
                .body("selector.service", equalTo("chat"))
                .body("selector.namespace", equalTo("ml"))
                .body("objective.per", equalTo("MINUTE"))
                .body("window", equalTo("P30D"));
        given().get(SLOS + "/chat-ttft").then().statusCode(200)
                .body("sli", equalTo("TTFT"))
                .body("objective.percentile", equalTo(99))
                .body("objective.thresholdMs", equalTo(300))
                .body("target", equalTo(0.99f));
        given().contentType(ContentType.JSON)
                .body(CHAT_TTFT.replace("\"name\": \"chat-ttft\", ", "").replace("0.99,", "0.995,"))
                .put(SLOS + "/chat-ttft").then().statusCode(200).body("target", equalTo(0.995f));
        given().get(SLOS).then().statusCode(200).body("name", equalTo(List.of("chat-ttft")));
        given().delete(SLOS + "/chat-ttft").then().statusCode(204);
        given().get(SLOS + "/chat-ttft").then().statusCode(404).contentType("application/problem+json");
        given().delete(SLOS + "/chat-ttft").then().statusCode(404).contentType("application/problem+json");
        given().contentType(ContentType.JSON).body(CHAT_TTFT).put(SLOS + "/chat-ttft").then().statusCode(404);
    }

    @Test
    void aSecondSloOfTheSameNameIsAConflict() {
        create(CHAT_TTFT);
        given().contentType(ContentType.JSON).body(CHAT_TTFT.replace("TTFT", "ITL")).post(SLOS)
                .then().statusCode(409).contentType("application/problem+json")
                .body("field", equalTo("name"));
        given().get(SLOS + "/chat-ttft").then().statusCode(200).body("sli", equalTo("TTFT"));
    }

    @Test
    void concurrentCreationsOfOneNameStoreOneAndRefuseTheRest() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<Integer>> statuses = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                statuses.add(pool.submit(() -> given().contentType(ContentType.JSON).body(CHAT_TTFT).post(SLOS)
                        .then().extract().statusCode()));
            }
            List<Integer> codes = new ArrayList<>();
            for (Future<Integer> f : statuses) {
                codes.add(f.get(30, TimeUnit.SECONDS));
            }
            codes.sort(null);
            assertEquals(List.of(201, 409, 409, 409, 409, 409), codes);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void availabilityIsStoredWithoutAnObjective() {
        create("""
                {"name": "chat-up", "selector": {"service": "chat", "namespace": "ml"}, "sli": "AVAILABILITY", "target": 0.999,
                 "window": "PT6H"}""");
        given().get(SLOS + "/chat-up").then().statusCode(200)
                .body("objective", nullValue())
                .body("window", equalTo("PT6H"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "no selector          | \"selector\": {\"service\": \"chat\", \"namespace\": \"ml\"}, | ''                              | selector.service",
            "label selector       | {\"service\": \"chat\", \"namespace\": \"ml\"} | {\"tenant\": \"acme\", \"labels\": {}}     | selector.labels",
            "blank tenant         | {\"service\": \"chat\", \"namespace\": \"ml\"} | {\"tenant\": \" \"}                       | selector.tenant",
            "namespace alone      | {\"service\": \"chat\", \"namespace\": \"ml\"} | {\"namespace\": \"ml\"}            | selector.service",
            "namespace not a name | \"namespace\": \"ml\"                       | \"namespace\": \"ML_1\"                     | selector.namespace",
            "target in percent    | \"target\": 0.99                            | \"target\": 99                             | target",
            "window in days       | \"P30D\"                                    | \"30d\"                                    | window",
            "unknown sli          | \"TTFT\"                                    | \"TPOT\"                                   | sli",
            "negative threshold   | \"thresholdMs\": 300                        | \"thresholdMs\": -300                      | objective.thresholdMs",
            "bad name             | \"chat-ttft\"                               | \"Chat TTFT\"                              | name",
    })
    void aBadDefinitionIsA400NamingTheFieldAndNothingIsStored(String name, String from, String to, String field) {
        given().contentType(ContentType.JSON).body(CHAT_TTFT.replace(from, to)).post(SLOS)
                .then().statusCode(400).contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", containsString(field + " "));
        given().get(SLOS).then().statusCode(200).body("size()", equalTo(0));
    }

    @Test
    void aThresholdThatIsNotANumberIsA400NamingIt() {
        given().contentType(ContentType.JSON).body(CHAT_TTFT.replace("300", "\"fast\"")).post(SLOS)
                .then().statusCode(400).body("field", equalTo("objective.thresholdMs"));
    }

    @Test
    void theStatusOfAnUnknownSloIsA404() {
        given().get(SLOS + "/nothing/status").then().statusCode(404).contentType("application/problem+json");
    }
}
