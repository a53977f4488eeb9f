package io.gpumeter.billing.rest;

import io.gpumeter.common.testing.Contract;
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

@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class BudgetResourceTest {

    private static final String BUDGETS = "/api/v1/budgets";

    @AfterEach
    void removeBudgets() {
        List<String> tenants = given().get(BUDGETS).then().statusCode(200).extract().jsonPath().getList("tenant");
        tenants.forEach(t -> given().delete(BUDGETS + "/" + t).then().statusCode(204));
    }

    private static void budget(String tenant, String json, int status) {
        given().contentType(ContentType.JSON).body(json).put(BUDGETS + "/" + tenant).then().statusCode(status);
    }

    @Test
    void aBudgetIsSetReplacedReadAndDeleted() {
        given().contentType(ContentType.JSON).body("{\"monthlyAmount\":600.00}")
                .when().put(BUDGETS + "/acme")
                .then().statusCode(201)
                .header("Location", endsWith("/api/v1/budgets/acme"))
                .body("monthlyAmount", equalTo(600.0f))
                .body("currency", equalTo("USD"));
        budget("acme", "{\"monthlyAmount\":650.5,\"currency\":\"USD\"}", 200);
        budget("beta", "{\"monthlyAmount\":0}", 201);
        given().get(BUDGETS).then().statusCode(200)
                .body("tenant", equalTo(List.of("acme", "beta")))
                .body("[0].monthlyAmount", equalTo(650.5f));
        given().get(BUDGETS + "/acme").then().statusCode(200).body("monthlyAmount", equalTo(650.5f));
        given().delete(BUDGETS + "/acme").then().statusCode(204);
        given().get(BUDGETS + "/acme").then().statusCode(404).contentType("application/problem+json")
                .body("field", equalTo("tenant"));
        given().delete(BUDGETS + "/acme").then().statusCode(404).contentType("application/problem+json");
    }

    @Test
    void theForecastProjectsMonthToDateCostLinearlyAndFlagsAnOverrun() {
        budget("acme", "{\"monthlyAmount\":600.00}", 201);
        /*
         * 1-11 March 2026: acme 50 h H100 x 4.10 = 205.00 (beta's 5 h are not acme's). 10 of 31 days elapsed:
         * 864000 / 2678400 s = 0.3225806... -> 0.322581; forecast 205.00 x 31 / 10 = 635.50, over 600.00 by
         * 35.50; 600.00 - 205.00 = 395.00 left.
         */
        String forecast = given().queryParam("month", "2026-03").queryParam("at", "2026-03-11T00:00:00Z")
                .get(BUDGETS + "/acme/forecast").then().statusCode(200)
                .body("tenant", equalTo("acme"))
                .body("month", equalTo("2026-03"))
                .body("budget", equalTo(600.0f))
                .body("asOf", equalTo("2026-03-11T00:00:00Z"))
                .body("spentToDate", equalTo(205.0f))
                .body("elapsedFraction", equalTo(0.322581f))
                .body("forecast", equalTo(635.5f))
                .body("overrun", equalTo(true))
                .body("overrunAmount", equalTo(35.5f))
                .body("remaining", equalTo(395.0f))
                .body("method", containsString("linear run-rate")).extract().asString();
        Contract.record("billing", "budget-forecast", forecast); // the console's Budgets page draws a tenant's own
        // After the month: the whole month (acme 54.47 in the March report), no projection, no overrun.
        given().queryParam("month", "2026-03").queryParam("at", "2026-06-01T00:00:00Z")
                .get(BUDGETS + "/acme/forecast").then().statusCode(200)
                .body("asOf", equalTo("2026-04-01T00:00:00Z"))
                .body("spentToDate", equalTo(54.47f))
                .body("elapsedFraction", equalTo(1.0f))
                .body("forecast", equalTo(54.47f))
                .body("overrun", equalTo(false))
                .body("overrunAmount", equalTo(0.0f))
                .body("remaining", equalTo(545.53f));
        // Before the month: nothing spent, nothing to project.
        given().queryParam("month", "2026-03").queryParam("at", "2026-02-15T00:00:00Z")
                .get(BUDGETS + "/acme/forecast").then().statusCode(200)
                .body("spentToDate", equalTo(0.0f))
                .body("elapsedFraction", equalTo(0.0f))
                .body("forecast", equalTo(0.0f))
                .body("overrun", equalTo(false));
    }

    @Test
    void aTenantWithoutABudgetHasNoForecast() {
        given().queryParam("month", "2026-03").get(BUDGETS + "/nobody/forecast").then().statusCode(404)
                .contentType("application/problem+json")
                .body("field", equalTo("tenant"));
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', value = {
            "monthlyAmount | {\"monthlyAmount\":-1}",
            "monthlyAmount | {\"monthlyAmount\":1.005}",
            "monthlyAmount | {\"currency\":\"USD\"}",
            "currency      | {\"monthlyAmount\":10,\"currency\":\"EUR\"}",
            "monthlyAmount | {\"monthlyAmount\":\"lots\"}",
    })
    void aBadBudgetIsAProblemNamingTheField(String field, String json) {
        given().contentType(ContentType.JSON).body(json).put(BUDGETS + "/acme")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field));
    }

    @ParameterizedTest(name = "{0}={1}")
    @CsvSource({
            "month, 2026-3,  2026-03-11T00:00:00Z",
            "month, '',      2026-03-11T00:00:00Z",
            "at,    2026-03, yesterday",
    })
    void aBadForecastQueryIsAProblemNamingTheField(String field, String month, String at) {
        budget("acme", "{\"monthlyAmount\":600.00}", 201);
        given().queryParam("month", month).queryParam("at", at).get(BUDGETS + "/acme/forecast")
                .then().statusCode(400)
                .contentType("application/problem+json")
                .body("field", equalTo(field))
                .body("detail", containsString(field));
    }
}
