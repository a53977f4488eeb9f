package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.Management;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.Fuzz;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Seeded hostile rate cards and budgets, byte-level and structural: 2xx or a 4xx problem document that names no
 * code, never a 5xx; a refused body stores nothing; the service stays up.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class BillingFuzzTest {

    private static final int CASES = Fuzz.cases();
    private static final String CARDS = "/api/v1/rate-cards";
    private static final String BUDGETS = "/api/v1/budgets";

    @AfterEach
    void removeWhatTheValidCasesStored() {
        List<String> versions = given().get(CARDS).then().statusCode(200).extract().jsonPath().getList("version");
        versions.forEach(v -> given().delete(CARDS + "/" + v).then().statusCode(204));
        List<String> tenants = given().get(BUDGETS).then().statusCode(200).extract().jsonPath().getList("tenant");
        tenants.forEach(t -> given().delete(BUDGETS + "/" + t).then().statusCode(204));
    }

    @Test
    void rateCards() {
        fuzz("rate cards", 41L, List.of("""
                {"version":"fz-2027-01","effectiveFrom":"2027-01-16T01:00:00+01:00","defaultRate":2.00,
                 "models":{"NVIDIA-H100-80GB-HBM3":5.00,"NVIDIA-A100-SXM4-80GB":3.10},"currency":"USD"}""", """
                {"version":"fz-2027-02","effectiveFrom":"2027-02-01T00:00:00Z","defaultRate":1.5,"models":{}}"""),
                body -> given().contentType("application/json").body(body).post(CARDS));
    }

    @Test
    void budgets() {
        fuzz("budgets", 42L, List.of("{\"monthlyAmount\":600.00,\"currency\":\"USD\"}", "{\"monthlyAmount\":0}"),
                body -> given().contentType("application/json").body(body).put(BUDGETS + "/fuzz-tenant"));
    }

    private static void fuzz(String what, long seed, List<String> seeds, Function<byte[], Response> send) {
        Map<Integer, Integer> statuses = Fuzz.json(seed, seeds).overHttp(what, CASES, body -> {
            Response r = send.apply(body);
            return new Fuzz.Answer(r.statusCode(), r.contentType(), r.asString());
        }, () -> given().get(CARDS).asString() + given().get(BUDGETS).asString());
        Management.given().get("/q/health/live").then().statusCode(200);
        assertEquals(CASES, statuses.values().stream().mapToInt(Integer::intValue).sum());
        assertTrue(statuses.keySet().stream().anyMatch(s -> s < 300), what + ": the valid seeds are accepted");
        assertTrue(statuses.keySet().stream().anyMatch(s -> s >= 400), what + ": hostile variants are refused");
    }
}
