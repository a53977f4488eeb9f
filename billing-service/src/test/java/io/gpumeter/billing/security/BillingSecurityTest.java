package io.gpumeter.billing.security;

import io.gpumeter.common.testing.AccessCoverage;
import io.gpumeter.common.testing.AuthEnabled;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.common.testing.TestTokens;
import io.gpumeter.billing.rest.LedgerStandIn;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import org.eclipse.microprofile.config.ConfigProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Billing with authentication on: a tenant token downloads its own rows only; closing books is for admins. */
@QuarkusTest
@TestProfile(AuthEnabled.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(LedgerStandIn.class)
class BillingSecurityTest {

    private static final String MONTHLY = "/api/v1/reports/monthly";

    @Test
    void aReaderGetsEveryTenantAndBillingPresentsItsServiceTokenToTheLedger() {
        List<String> tenants = tenantsOf(given().header("Authorization", TestTokens.bearer("reader"))
                .queryParam("month", "2026-03").get(MONTHLY).then().statusCode(200).extract().asString());
        assertEquals(List.of("acme", "beta", "gamma"), tenants);
        assertEquals("Bearer " + TestTokens.SERVICE_TOKEN, LedgerStandIn.lastHoursCall().getHeader("Authorization"));
    }

    @Test
    void aTenantTokenDownloadsOnlyItsOwnRows() {
        List<String> tenants = tenantsOf(given().header("Authorization", TestTokens.bearer("tenant:acme"))
                .queryParam("month", "2026-03").get(MONTHLY).then().statusCode(200).extract().asString());
        assertEquals(List.of("acme"), tenants);
        String weekly = given().header("Authorization", TestTokens.bearer("tenant:beta"))
                .queryParam("week", "2026-W10").queryParam("groupBy", "team").get("/api/v1/reports/weekly")
                .then().statusCode(200).extract().asString();
        assertFalse(weekly.contains("acme"), weekly);
    }

    @Test
    void aTenantTokenAsksTheLedgerForItsOwnRowsOnly() {
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("month", "2026-03")
                .get(MONTHLY).then().statusCode(200);
        assertEquals("acme", LedgerStandIn.lastHoursCall().queryParameter("tenant").firstValue());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"Tenant=beta", "TENANT=beta", "%74enant=beta", "tenant=acme&tenant=beta",
            "tenant=beta&tenant=acme", "tenant=acme&Tenant=beta", "tenant=", "tenant=%62eta", "tenant=acme%00"})
    void anotherTenantInAnySpellingIs403(String query) {
        given().header("Authorization", TestTokens.bearer("tenant:acme")).urlEncodingEnabled(false)
                .get(MONTHLY + "?month=2026-03&format=json&" + query).then()
                .statusCode(403).contentType("application/problem+json").body("field", equalTo("tenant"));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"//api/v1/reports/monthly", "/api/v1/reports/monthly/", "/api/v1/./reports/monthly",
            "/api/v1/x/../reports/monthly", "/api/v1/reports;tenant=beta/monthly", "/api/v1/reports/monthly;tenant=beta",
            "/q/../api/v1/reports/monthly"})
    void aPathTheRulesWouldReadDifferentlyIsRefused(String path) throws Exception {
        // sent as written: a client library would normalize the dot segments and double slashes away
        int port = ConfigProvider.getConfig().getValue("quarkus.http.test-port", Integer.class);
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        java.net.URI uri = java.net.URI.create("http://localhost:" + port + path + "?month=2026-03&format=json&tenant=beta");
        java.net.http.HttpResponse<String> tenant = http.send(java.net.http.HttpRequest.newBuilder(uri)
                .header("Authorization", TestTokens.bearer("tenant:acme")).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        // refused either as not canonical (400) or, where the HTTP layer resolved the path before any filter, for
        // naming another tenant on the path the router dispatches (403); never an answer
        assertTrue(tenant.statusCode() == 400 || tenant.statusCode() == 403, path + ": " + tenant.body());
        assertTrue(tenant.headers().firstValue("Content-Type").orElse("").startsWith("application/problem+json"));
        assertFalse(tenant.body().contains("beta"), tenant.body());
        java.net.http.HttpResponse<String> anonymous = http.send(java.net.http.HttpRequest.newBuilder(uri).GET().build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertTrue(anonymous.statusCode() == 400 || anonymous.statusCode() == 401, path + " without a token: " + anonymous.body());
    }

    @Test
    void anotherTenantsReportOrBudgetIs403() {
        given().header("Authorization", TestTokens.bearer("tenant:acme")).queryParam("month", "2026-03")
                .queryParam("tenant", "beta").get(MONTHLY).then()
                .statusCode(403).contentType("application/problem+json").body("field", equalTo("tenant"));
        given().header("Authorization", TestTokens.bearer("tenant:acme")).get("/api/v1/budgets/beta").then()
                .statusCode(403).contentType("application/problem+json");
        int own = given().header("Authorization", TestTokens.bearer("tenant:acme")).get("/api/v1/budgets/acme")
                .then().extract().statusCode();
        assertTrue(own == 200 || own == 404, "its own budget is readable (404 while none is set): " + own);
        given().header("Authorization", TestTokens.bearer("tenant:acme")).get("/api/v1/budgets").then().statusCode(403);
        given().header("Authorization", TestTokens.bearer("tenant:acme")).get("/api/v1/rate-cards").then().statusCode(403);
    }

    @Test
    void onlyAdminsCloseAMonthAndReadersChangeNothing() {
        for (String auth : List.of(TestTokens.bearer("reader"), TestTokens.bearer("operator"), TestTokens.bearer("tenant:acme"),
                TestTokens.serviceBearer("billing"))) {
            given().header("Authorization", auth).post(MONTHLY + "/2026-03/close").then()
                    .statusCode(403).contentType("application/problem+json");
        }
        String cards = given().header("Authorization", TestTokens.bearer("reader")).get("/api/v1/rate-cards")
                .then().statusCode(200).extract().asString();
        given().header("Authorization", TestTokens.bearer("reader")).contentType(ContentType.JSON)
                .body("{\"version\":\"sec-1\",\"effectiveFrom\":\"2026-01-01\",\"currency\":\"USD\",\"defaultRate\":1}")
                .post("/api/v1/rate-cards").then().statusCode(403);
        assertEquals(cards, given().header("Authorization", TestTokens.bearer("admin")).get("/api/v1/rate-cards")
                .then().statusCode(200).extract().asString());
        given().post(MONTHLY + "/2026-03/close").then().statusCode(401);
    }

    @Test
    void aServiceTokenIsAcceptedOnlyWhenAddressedToBilling() {
        given().header("Authorization", TestTokens.serviceBearer("ledger", "slo")).queryParam("month", "2026-03")
                .get(MONTHLY).then().statusCode(403).contentType("application/problem+json")
                .body("detail", org.hamcrest.Matchers.containsString("not to 'billing'"));
        given().header("Authorization", TestTokens.bearer("service")).queryParam("month", "2026-03")
                .get(MONTHLY).then().statusCode(403).contentType("application/problem+json");
        given().header("Authorization", TestTokens.serviceBearer("ledger", "slo", "billing")).queryParam("month", "2026-03")
                .get(MONTHLY).then().statusCode(200);
        given().header("Authorization", TestTokens.bearer("ingest")).queryParam("month", "2026-03")
                .get(MONTHLY).then().statusCode(403).contentType("application/problem+json");
    }

    @Test
    void everyBillingOperationBelongsToANamedFamily() {
        String openApi = given().queryParam("format", "json").get("/q/openapi").then().statusCode(200).extract().asString();
        assertTrue(AccessCoverage.operations(openApi) > 10);
        assertEquals(List.of(), AccessCoverage.uncovered(openApi));
    }

    /** The tenant column of a monthly CSV, in order, without the header and lines for no tenant. */
    private static List<String> tenantsOf(String csv) {
        List<String> lines = Arrays.asList(csv.split("\r\n"));
        int column = Arrays.asList(lines.get(0).split(",")).indexOf("tenant");
        assertTrue(column >= 0, lines.get(0));
        return lines.stream().skip(1).map(l -> l.split(",", -1)[column]).filter(t -> !t.isEmpty()).distinct().sorted().toList();
    }
}
