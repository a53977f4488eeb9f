package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class RateCardResourceTest {

    private static final String CARDS = "/api/v1/rate-cards";
    private static final String JANUARY_CARD = """
            {"version":"v2027-01","effectiveFrom":"2027-01-16T01:00:00+01:00","defaultRate":2.00,
             "models":{"NVIDIA-H100-80GB-HBM3":5.00}}""";

    @AfterEach
    void removeStoredCards() {
        List<String> versions = given().get(CARDS).then().statusCode(200).extract().jsonPath().getList("version");
        versions.forEach(v -> given().delete(CARDS + "/" + v).then().statusCode(204));
    }

    private static void store(String json) {
        given().contentType(ContentType.JSON).body(json).post(CARDS).then().statusCode(201);
    }

    @Test
    void aCardIsStoredReadAndDeleted() {
        given().contentType(ContentType.JSON).body(JANUARY_CARD)
                .when().post(CARDS)
                .then().statusCode(201)
                .header("Location", endsWith("/api/v1/rate-cards/v2027-01"))
                .body("effectiveFrom", equalTo("2027-01-16T00:00:00Z"))
                .body("currency", equalTo("USD"));
        given().get(CARDS + "/v2027-01").then().statusCode(200)
                .body("defaultRate", equalTo(2.0f))
                .body("models.NVIDIA-H100-80GB-HBM3", equalTo(5.0f));
        given().delete(CARDS + "/v2027-01").then().statusCode(204);
        given().get(CARDS + "/v2027-01").then().statusCode(404).contentType("application/problem+json");
        given().delete(CARDS + "/v2027-01").then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void aMonthSpanningAPriceChangeIsPricedPieceByPiece() {
        store(JANUARY_CARD);
        /*
         * 1-16 January (configured card test-7: H100 4.10): acme 100 h H100, 40 used.
         * 16 January on (v2027-01: H100 5.00, anything else 2.00): acme 50.123 h H100 all used; beta 10 h L40S.
         * acme: 150.123 h; 410 + 250.615 = 660.615 -> 660.62 (half-even: the tie goes to the even 2);
         *       rate 660.615 / 150.123 = 4.4004915968... -> 4.400492;
         *       used 90.123 h: 164 + 250.615 = 414.615 -> 414.62;
         *       idle 150.123000 - 90.123000 = 60.000000 h, 660.62 - 414.62 = 246.00.
         * beta: 10 h x 2.00 = 20.00, the plain rate of its one model and card; nothing used.
         */
        String csv = given().queryParam("month", "2027-01")
                .when().get("/api/v1/reports/monthly")
                .then().statusCode(200)
                .extract().asString();
        String period = "2027-01-01T00:00:00Z,2027-02-01T00:00:00Z,";
        String policy = ",\"" + LedgerAnswers.POLICY + "\",norm-2026.1,";
        assertEquals(MonthlyReportResourceTest.HEADER
                + period + "acme,NVIDIA-H100-80GB-HBM3,150.123000,4.400492,USD,660.62,test-7;v2027-01" + policy
                + "90.123000,60.000000,414.62,246.00,usage,,0.000000,,\r\n"
                + period + "beta,NVIDIA L40S,10.000000,2.000000,USD,20.00,v2027-01" + policy
                + "0.000000,10.000000,0.00,20.00,usage,,0.000000,,\r\n", csv);
        assertEquals("1", MonthlyReportResourceTest.ledgerCalls(LedgerAnswers.JAN_FROM));
        assertEquals("1", MonthlyReportResourceTest.ledgerCalls(LedgerAnswers.JAN_CHANGE));
    }

    @Test
    void duplicatesAreConflicts() {
        store(JANUARY_CARD);
        given().contentType(ContentType.JSON).body(JANUARY_CARD.replace("2027-01-16T01:00", "2027-03-01T01:00"))
                .post(CARDS).then().statusCode(409)
                .contentType("application/problem+json").body("field", equalTo("version"));
        // Same instant written in another offset.
        given().contentType(ContentType.JSON).body(JANUARY_CARD.replace("v2027-01", "other")
                        .replace("2027-01-16T01:00:00+01:00", "2027-01-16T00:00:00Z"))
                .post(CARDS).then().statusCode(409)
                .contentType("application/problem+json").body("field", equalTo("effectiveFrom"))
                .body("detail", containsString("v2027-01"));
        given().contentType(ContentType.JSON).body(JANUARY_CARD.replace("v2027-01", "test-7")
                        .replace("2027-01-16", "2027-05-16"))
                .post(CARDS).then().statusCode(409).body("field", equalTo("version"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "version   | {\"version\":\"\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1}",
            "version   | {\"version\":\"=1+1\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1}",
            "effectiveFrom | {\"version\":\"a\",\"defaultRate\":1}",
            "effectiveFrom | {\"version\":\"a\",\"effectiveFrom\":\"soon\",\"defaultRate\":1}",
            "defaultRate | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":-0.01}",
            "defaultRate | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\"}",
            "models    | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                    + "\"models\":{\"NVIDIA-L4\":0.8,\"nvidia l4\":0.9}}",
            "currency  | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                    + "\"currency\":\"EUR\"}",
            "energyPricePerKWh | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                    + "\"energyPricePerKWh\":-0.01}",
            "gramsCo2ePerKWh | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                    + "\"gramsCo2ePerKWh\":-5}",
            "clusters.eu-1.energyPricePerKWh | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\","
                    + "\"defaultRate\":1,\"clusters\":{\"eu-1\":{\"energyPricePerKWh\":-0.25}}}",
            "clusters.eu-1.gramsCo2ePerKWh | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\","
                    + "\"defaultRate\":1,\"clusters\":{\"eu-1\":{\"energyPricePerKWh\":0.25,\"gramsCo2ePerKWh\":-1}}}",
            "clusters.eu-1 | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                    + "\"clusters\":{\"eu-1\":{}}}",
            "clusters  | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                    + "\"clusters\":{\" \":{\"energyPricePerKWh\":0.25}}}",
            "clusters  | {\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                    + "\"clusters\":{\"eu-1\":{\"energyPricePerKWh\":0.25},\"eu-1 \":{\"energyPricePerKWh\":0.3}}}",
    })
    void badCardsAreProblemsNamingTheField(String field, String json) {
        given().contentType(ContentType.JSON).body(json)
                .when().post(CARDS)
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field));
    }

    @Test
    void aBadEnergyPriceIsRefusedSayingWhichClusterAndStoresNothing() {
        given().contentType(ContentType.JSON)
                .body("{\"version\":\"bad-energy\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                        + "\"clusters\":{\"lab\":{\"energyPricePerKWh\":0.1},\"eu-1\":{\"gramsCo2ePerKWh\":-3}}}")
                .when().post(CARDS)
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo("clusters.eu-1.gramsCo2ePerKWh"))
                .body("detail", containsString("must be greater than or equal to 0, got -3"));
        given().get(CARDS + "/bad-energy").then().statusCode(404);
    }

    @Test
    void aNegativeModelRateIsRefused() {
        given().contentType(ContentType.JSON)
                .body("{\"version\":\"a\",\"effectiveFrom\":\"2027-01-16T00:00:00Z\",\"defaultRate\":1,"
                        + "\"models\":{\"NVIDIA-L4\":-1}}")
                .when().post(CARDS)
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("detail", containsString("must be greater than or equal to 0"));
    }
}
