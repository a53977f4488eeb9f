package io.gpumeter.console;

import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console reads a token's groups by the services' own rule (the model's {@code Caller}): a fleet role beside a
 * tenant group reads the fleet, a tenant-only token naming two tenants is refused, and a token every service would
 * refuse (too long-lived, an ingest token holding more) signs no one in.
 */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class ViewerRuleTest {

    @Test
    void anAdminTokenNamingATenantReadsTheFleetAsTheServicesReadIt() {
        String token = TestTokens.token("ops-acme", "admin", "tenant:acme");
        Response shown = given().formParam("token", token).post("/signin/verify");
        assertEquals(200, shown.statusCode(), shown.asString());
        assertNull(shown.jsonPath().getString("tenant"), "confined to no tenant: " + shown.asString());
        assertEquals("admin, tenant:acme", shown.jsonPath().getString("role"));
        assertEquals(List.of("admin", "tenant:acme"), shown.jsonPath().getList("groups"));

        String cookie = Fixtures.signIn(token);
        given().redirects().follow(false).cookie(Session.COOKIE, cookie).get("/").then().statusCode(303)
                .header("Location", org.hamcrest.Matchers.endsWith("/fleet"));
        String html = given().redirects().follow(false).cookie(Session.COOKIE, cookie).get("/hours?month=" + Fixtures.MONTH)
                .then().statusCode(200).extract().asString();
        assertTrue(html.contains("<a href=\"/fleet\""), "the fleet menu: " + html);
        assertTrue(html.contains("<a href=\"/idle\""), html);
        assertFalse(html.contains("<a href=\"/workloads\""), "no tenant's own menu: " + html);
        assertFalse(html.contains("GPU-hours of acme"), "the hours are the fleet's, not acme's: " + html);
    }

    @Test
    void aTenantOnlyTokenNamingTwoTenantsSignsNoOneIn() {
        String token = TestTokens.token("two-hats", "tenant:acme", "tenant:globex");
        Response verify = given().formParam("token", token).post("/signin/verify");
        assertEquals(400, verify.statusCode(), verify.asString());
        assertEquals("token", verify.jsonPath().getString("field"));
        assertTrue(verify.jsonPath().getString("detail").startsWith("A tenant token must name exactly one tenant."),
                verify.asString());
        Response signIn = given().redirects().follow(false).formParam("token", token).post("/signin");
        assertEquals(400, signIn.statusCode());
        assertTrue(signIn.asString().contains("A tenant token must name exactly one tenant."), signIn.asString());
        assertNull(signIn.header("Set-Cookie"), "no session");
    }

    @Test
    void aTokenTheServicesRefuseWhateverItAsksSignsNoOneIn() {
        // 31 days from iat to exp, one more than gpumeter.auth.max-token-lifetime's 30
        given().formParam("token", TestTokens.bearer(Duration.ofDays(31), "admin")).post("/signin/verify").then()
                .statusCode(400).body("detail", org.hamcrest.Matchers.startsWith(
                        "The bearer token is valid for 31 days; this service accepts tokens of at most 30 days"));
        given().formParam("token", TestTokens.token("pusher", "ingest", "reader")).post("/signin/verify").then()
                .statusCode(400).body("detail", org.hamcrest.Matchers.startsWith("An ingest token holds the ingest role only."));
        // a fleet role beside two tenants is no tenant token: it reads the fleet
        given().formParam("token", TestTokens.token("auditor", "reader", "tenant:acme", "tenant:globex")).post("/signin/verify")
                .then().statusCode(200).body("role", org.hamcrest.Matchers.equalTo("reader, tenant:acme, tenant:globex"));
    }
}
