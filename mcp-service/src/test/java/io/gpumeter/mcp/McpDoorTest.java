package io.gpumeter.mcp;

import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import java.net.URL;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The door of /mcp as the MCP specification's authorization part asks: 401 with a pointer to the protected-resource
 * metadata, tokens checked by the services' own rules, foreign browser origins refused.
 */
@QuarkusTest
@QuarkusTestResource(StandInServices.class)
class McpDoorTest {

    private static final String INITIALIZE = """
            {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18",
             "capabilities":{},"clientInfo":{"name":"door-test","version":"1"}}}""";

    @TestHTTPResource("/")
    URL base;

    private Response post(String authorization, String origin) {
        var request = given().contentType("application/json").accept("application/json, text/event-stream")
                .body(INITIALIZE);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        if (origin != null) {
            request.header("Origin", origin);
        }
        return request.post("/mcp");
    }

    @Test
    void noTokenIs401PointingAtTheProtectedResourceMetadata() {
        String metadata = base.toString().replaceAll("/$", "") + "/.well-known/oauth-protected-resource/mcp";
        post(null, null).then().statusCode(401).contentType("application/problem+json")
                .header("WWW-Authenticate", equalTo("Bearer resource_metadata=\"" + metadata + "\""))
                .body("detail", containsString("bearer token"));
        given().get(metadata).then().statusCode(200)
                .body("resource", equalTo(base.toString().replaceAll("/$", "") + "/mcp"))
                .body("bearer_methods_supported[0]", equalTo("header"));
        given().get("/.well-known/oauth-protected-resource").then().statusCode(200).body("resource_name", equalTo("gpumeter"));
    }

    @Test
    void aForgedExpiredOrForeignTokenIs401InvalidToken() {
        for (String bad : new String[]{"Bearer " + TestTokens.foreign("mallory", "admin"),
                "Bearer " + TestTokens.fromIssuer("someone-else", "mallory", "admin"), "Bearer not-a-token"}) {
            post(bad, null).then().statusCode(401)
                    .header("WWW-Authenticate", containsString("error=\"invalid_token\""));
        }
        post(TestTokens.bearerWithoutExpiry("reader"), null).then().statusCode(401);
    }

    @Test
    void tokensThatReadNothingOrAreAddressedElsewhereAre403() {
        post(TestTokens.bearer("ingest"), null).then().statusCode(403)
                .header("WWW-Authenticate", containsString("insufficient_scope"));
        post(TestTokens.serviceBearer("ledger"), null).then().statusCode(403).body("detail", containsString("mcp"));
        post(TestTokens.bearer("tenant:acme", "tenant:initech"), null).then().statusCode(403);
        post(TestTokens.serviceBearer("mcp"), null).then().statusCode(200);
        post(TestTokens.bearer("tenant:acme"), null).then().statusCode(200);
    }

    @Test
    void aForeignBrowserOriginIs403EvenWithAGoodToken() {
        Response refused = post(TestTokens.bearer("admin"), "http://evil.example");
        assertEquals(403, refused.statusCode());
        assertFalse(refused.body().asString().contains("evil"), "the refusal does not repeat the origin");
        post(TestTokens.bearer("admin"), "http://localhost:6274").then().statusCode(200);
        post(TestTokens.bearer("admin"), null).then().statusCode(200);
        // a CORS preflight carries no token: an allowed origin's is let through to the HTTP layer, a foreign one's is not
        given().header("Origin", "http://evil.example").options("/mcp").then().statusCode(403);
        int preflight = given().header("Origin", "http://localhost:6274").options("/mcp").statusCode();
        assertFalse(preflight == 401 || preflight == 403, "an allowed origin's preflight: " + preflight);
    }
}
