package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Signing in by a pasted token or by the one-time link, once, and signing out. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class SigninTest {

    @Test
    void theOneTimeLinkSignsInOnceOnly() {
        Response first = given().redirects().follow(false).get("/signin?code=" + Fixtures.SIGNIN_CODE + "&next=/hours");
        assertEquals(303, first.statusCode());
        assertTrue(first.header("Location").endsWith("/hours"), first.header("Location"));
        String cookie = first.header("Set-Cookie");
        assertTrue(cookie.startsWith(Session.COOKIE + "=" + Fixtures.SIGNIN_TOKEN + ";"), cookie);
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"), cookie);

        Response again = given().redirects().follow(false).get("/signin?code=" + Fixtures.SIGNIN_CODE);
        assertEquals(200, again.statusCode());
        assertTrue(again.asString().contains("This sign-in link has been used or is not valid"));
        assertEquals(null, again.header("Set-Cookie"));

        Response wrong = given().redirects().follow(false).get("/signin?code=not-the-code-0123456789");
        assertEquals(200, wrong.statusCode());
        assertTrue(wrong.asString().contains("has been used or is not valid"));
    }

    @Test
    void aPastedTokenSignsInAndSignOutClearsIt() {
        Response in = given().redirects().follow(false).formParam("token", "Bearer " + Fixtures.ADMIN).formParam("next", "/fleet?at=x")
                .post("/signin");
        assertEquals(303, in.statusCode());
        assertTrue(in.header("Location").endsWith("/fleet?at=x"), in.header("Location"));
        assertTrue(in.header("Set-Cookie").startsWith(Session.COOKIE + "=" + Fixtures.ADMIN + ";"), "the Bearer prefix is dropped");

        Response out = given().redirects().follow(false).cookie(Session.COOKIE, Fixtures.ADMIN).post("/signout");
        assertEquals(303, out.statusCode());
        assertTrue(out.header("Location").endsWith("/signin"));
        assertTrue(out.header("Set-Cookie").startsWith(Session.COOKIE + "=;") && out.header("Set-Cookie").contains("Max-Age=0"),
                out.header("Set-Cookie"));
    }

    @Test
    void somethingElseThanATokenIsRefusedInWords() {
        given().formParam("token", "hunter2").post("/signin").then().statusCode(400)
                .body(containsString("That is not a token"));
        String expired = "eyJhbGciOiJSUzI1NiJ9." + java.util.Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"sub\":\"x\",\"groups\":[\"admin\"],\"iat\":1,\"exp\":2}".getBytes()) + ".c2ln";
        given().formParam("token", expired).post("/signin").then().statusCode(400).body(containsString("That token expired"));
        // a cookie holding an expired token is no session
        given().redirects().follow(false).cookie(Session.COOKIE, expired).get("/fleet").then().statusCode(303)
                .header("Location", containsString("/signin"));
    }

    @Test
    void aFormFromAnotherSiteIsRefused() {
        given().redirects().follow(false).header("Sec-Fetch-Site", "cross-site").formParam("token", Fixtures.ADMIN).post("/signin")
                .then().statusCode(403);
        given().redirects().follow(false).header("Origin", "https://evil.example").formParam("token", Fixtures.ADMIN).post("/signin")
                .then().statusCode(403);
        given().redirects().follow(false).header("Sec-Fetch-Site", "same-origin").formParam("token", Fixtures.ADMIN).post("/signin")
                .then().statusCode(303);
    }

    @Test
    void afterSignInOnlyPathsOfThisConsole() {
        for (String next : new String[]{"https://evil.example/", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"}) {
            given().redirects().follow(false).formParam("token", Fixtures.ADMIN).formParam("next", next).post("/signin")
                    .then().statusCode(303).header("Location", endsWith("/"));
        }
    }

    @Test
    void theSignInPageSaysWhereTokensComeFrom() {
        String html = given().get("/signin").then().statusCode(200).extract().asString();
        assertTrue(html.contains("./gpumeter token --groups reader"), html);
        assertFalse(html.contains("href=\"/fleet\""));
    }
}
