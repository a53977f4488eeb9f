package io.gpumeter.console;

import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.keys.HmacKey;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Map;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.endsWith;
import static org.hamcrest.Matchers.equalTo;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signing in by a pasted token, a link's token (verified, shown, signed in on a click) or the one-time link, once;
 * the sealed session, renewed by use; signing out, here and on the other replicas.
 */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class SigninTest {

    /** The management port's root: the replicas' route is {@link Peers#PATH} there. */
    @TestHTTPResource(value = "/", management = true)
    URL management;

    @Test
    void theOneTimeLinkSignsInOnceOnly() {
        Response first = given().redirects().follow(false).get("/signin?code=" + Fixtures.SIGNIN_CODE + "&next=/hours");
        assertEquals(303, first.statusCode());
        assertTrue(first.header("Location").endsWith("/hours"), first.header("Location"));
        String cookie = first.header("Set-Cookie");
        assertTrue(cookie.startsWith(Session.COOKIE + "="), cookie);
        assertTrue(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"), cookie);
        assertSealed(first.cookie(Session.COOKIE), Fixtures.SIGNIN_TOKEN);
        assertSignedInAs(first.cookie(Session.COOKIE), "local-admin");

        Response again = given().redirects().follow(false).get("/signin?code=" + Fixtures.SIGNIN_CODE);
        assertEquals(200, again.statusCode());
        assertTrue(again.asString().contains("This sign-in link has been used or is not valid"));
        assertNull(again.header("Set-Cookie"));

        Response wrong = given().redirects().follow(false).get("/signin?code=not-the-code-0123456789");
        assertEquals(200, wrong.statusCode());
        assertTrue(wrong.asString().contains("has been used or is not valid"));
    }

    @Test
    void aPastedTokenSignsInSealedAndTheCookieLivesNoLongerThanTheIdleTime() {
        Response in = given().redirects().follow(false).formParam("token", "Bearer " + Fixtures.ADMIN).formParam("next", "/fleet?at=x")
                .post("/signin");
        assertEquals(303, in.statusCode());
        assertTrue(in.header("Location").endsWith("/fleet?at=x"), in.header("Location"));
        String setCookie = in.header("Set-Cookie");
        assertTrue(setCookie.contains("Max-Age=3600"), "the browser keeps it for the idle hour: " + setCookie);
        assertSealed(in.cookie(Session.COOKIE), Fixtures.ADMIN);
        assertSignedInAs(in.cookie(Session.COOKIE), "local-admin");
    }

    @Test
    void eachPageRenewsTheSession() {
        String cookie = Fixtures.signIn(Fixtures.ACME);
        Response page = given().redirects().follow(false).cookie(Session.COOKIE, cookie).get("/hours?month=" + Fixtures.MONTH);
        assertEquals(200, page.statusCode());
        String renewed = page.cookie(Session.COOKIE);
        assertTrue(renewed != null && !renewed.isEmpty(), "a used session comes back renewed: " + page.headers());
        assertTrue(page.header("Set-Cookie").contains("HttpOnly") && page.header("Set-Cookie").contains("SameSite=Strict"));
        assertSignedInAs(renewed, "acme-ci");
    }

    @Test
    void signingOutEndsTheSessionForACopyOfTheCookieTooAndTellsTheOtherReplicas() {
        String cookie = Fixtures.signIn(Fixtures.ADMIN);
        String copy = cookie;
        assertSignedInAs(copy, "local-admin");

        Response out = given().redirects().follow(false).cookie(Session.COOKIE, cookie).post("/signout");
        assertEquals(303, out.statusCode());
        assertTrue(out.header("Location").endsWith("/signin"));
        assertTrue(out.header("Set-Cookie").startsWith(Session.COOKIE + "=;") && out.header("Set-Cookie").contains("Max-Age=0"),
                out.header("Set-Cookie"));

        given().redirects().follow(false).cookie(Session.COOKIE, copy).get("/hours").then().statusCode(303)
                .header("Location", containsString("/signin?next=")).header("Set-Cookie", containsString("Max-Age=0"));
        given().redirects().follow(false).cookie(Session.COOKIE, copy).get("/").then().statusCode(303)
                .header("Location", endsWith("/signin"));
        await("the other replica is told which session ended").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> PeerStandIn.announced().contains(cookie));
        assertTrue(PeerStandIn.announced().contains(cookie), "the other replica is told which session ended");
    }

    @Test
    void aSignOutAnotherReplicaAnnouncesEndsTheSessionHere() {
        String cookie = Fixtures.signIn(Fixtures.ACME);
        assertSignedInAs(cookie, "acme-ci");
        given().body("not a sealed cookie").post(peerRoute()).then().statusCode(400);
        assertSignedInAs(cookie, "acme-ci");
        given().body(cookie).post(peerRoute()).then().statusCode(204);
        given().redirects().follow(false).cookie(Session.COOKIE, cookie).get("/hours").then().statusCode(303)
                .header("Location", containsString("/signin?next="));
        // said twice, or after the session ended: still done
        given().body(cookie).post(peerRoute()).then().statusCode(204);
    }

    @Test
    void aReplicaStartsKnowingTheSessionsSignedOutOnTheOthers() {
        // the other replica signed this session out before this console started, and told it when it started
        int status = await("a session signed out on another replica refused here").atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(100))
                .until(() -> given().redirects().follow(false).cookie(Session.COOKIE, PeerStandIn.SIGNED_OUT_THERE).get("/hours")
                        .statusCode(), s -> s == 303);
        assertEquals(303, status, "a session signed out on another replica is refused here");
        assertSignedInAs(PeerStandIn.LIVE_THERE, "local-admin");
    }

    @Test
    void theSignedOutListIsSealedForTheReplicasOnly() {
        String cookie = Fixtures.signIn(Fixtures.ADMIN);
        given().redirects().follow(false).cookie(Session.COOKIE, cookie).post("/signout").then().statusCode(303);
        String list = given().get(peerRoute()).then().statusCode(200).header("Cache-Control", "no-store").extract().asString();
        Sealer sealer = new Sealer(Fixtures.SESSION_KEY);
        SignedOut read = new SignedOut();
        assertTrue(read.addSealed(sealer, list, Instant.now()));
        String id = new Tickets(sealer, Duration.ofHours(1), Duration.ofHours(8), new SignedOut()).open(cookie, Instant.now()).ticket().id();
        assertTrue(read.contains(id), "the list names the session signed out");
        assertFalse(list.contains(id), "but only a replica can read it");
        assertFalse(new SignedOut().addSealed(new Sealer("another-console-key-0123456789abcdefghij"), list, Instant.now()));
    }

    @Test
    void aTamperedOrForeignCookieIsNoSession() {
        String cookie = Fixtures.signIn(Fixtures.ADMIN);
        String[] parts = cookie.split("\\.");
        assertEquals(5, parts.length, "a compact JWE");
        for (int i = 0; i < parts.length; i++) {
            if (parts[i].isEmpty()) {
                continue; // direct encryption has no encrypted key
            }
            String[] altered = parts.clone();
            char c = altered[i].charAt(altered[i].length() / 2);
            altered[i] = altered[i].substring(0, altered[i].length() / 2) + (c == 'A' ? 'B' : 'A') + altered[i].substring(altered[i].length() / 2 + 1);
            assertNoSession(String.join(".", altered), "part " + i + " altered");
        }
        String foreign = new Tickets(new Sealer("another-console-key-0123456789abcdefghij"), Duration.ofHours(1), Duration.ofHours(8),
                new SignedOut()).issue(Viewer.parse(Fixtures.ADMIN, Instant.now())
                .viewer().orElseThrow(), Instant.now());
        assertNoSession(foreign, "sealed with another key");
        assertNoSession(Fixtures.ADMIN, "a bare token, as the cookie held before");
    }

    @Test
    void aLinksTokenIsShownOnlyOnceVerifiedAndSignsNoOneInByItself() {
        Response shown = given().redirects().follow(false).formParam("token", Fixtures.ACME).post("/signin/verify");
        assertEquals(200, shown.statusCode(), shown.asString());
        assertTrue(shown.contentType().startsWith("application/json"), shown.contentType());
        assertEquals("acme-ci", shown.jsonPath().getString("subject"));
        assertEquals(List.of("tenant:acme"), shown.jsonPath().getList("groups"));
        assertEquals("acme", shown.jsonPath().getString("tenant"));
        Instant expires = Instant.parse(shown.jsonPath().getString("expires"));
        assertTrue(expires.isAfter(Instant.now().plus(Duration.ofHours(23))), expires.toString());
        assertNull(shown.header("Set-Cookie"), "verifying signs no one in");
    }

    @Test
    void aForgedAlteredOrForeignTokenIsRefusedAndSignsNoOneIn() {
        String[] parts = Fixtures.ACME.split("\\.");
        String claims = new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8);
        String admin = Base64.getUrlEncoder().withoutPadding().encodeToString(
                claims.replace("\"tenant:acme\"", "\"admin\"").getBytes(StandardCharsets.UTF_8));
        Map<String, String> refused = Map.of(
                "signed with another key", TestTokens.foreign("mallory", "admin"),
                "claims altered after signing", parts[0] + "." + admin + "." + parts[2],
                "no signature", parts[0] + "." + parts[1] + ".",
                "signature of another token", parts[0] + "." + Fixtures.ADMIN.split("\\.")[1] + "." + parts[2],
                "issued by someone else", TestTokens.fromIssuer("evil", "mallory", "admin"),
                "signed with the public key as an HMAC secret", hmacWithPublicKey(claims));
        refused.forEach((what, token) -> {
            Response verify = given().redirects().follow(false).formParam("token", token).post("/signin/verify");
            assertEquals(400, verify.statusCode(), what + ": " + verify.asString());
            assertTrue(verify.contentType().startsWith("application/problem+json"), what);
            assertEquals("token", verify.jsonPath().getString("field"), what);
            assertFalse(verify.asString().contains("mallory") || verify.asString().contains("acme-ci"), what + ": names no subject");
            assertNull(verify.header("Set-Cookie"), what);

            Response signIn = given().redirects().follow(false).formParam("token", token).post("/signin");
            assertEquals(400, signIn.statusCode(), what);
            assertTrue(signIn.asString().contains("You are not signed in"), what);
            assertNull(signIn.header("Set-Cookie"), what + ": no session");
        });
        given().formParam("token", TestTokens.foreign("mallory", "admin")).post("/signin/verify").then().statusCode(400)
                .body("detail", containsString("not signed by this suite's key"));
        given().formParam("token", TestTokens.fromIssuer("evil", "m", "admin"))
                .post("/signin/verify").then().statusCode(400).body("detail", containsString("not issued by gpumeter"));
    }

    @Test
    void somethingElseThanATokenIsRefusedInWords() {
        given().formParam("token", "hunter2").post("/signin").then().statusCode(400)
                .body(containsString("That is not a token"));
        given().formParam("token", "hunter2").post("/signin/verify").then().statusCode(400)
                .body("detail", containsString("That is not a token")).body("field", equalTo("token"));
        String expired = "eyJhbGciOiJSUzI1NiJ9." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString("{\"sub\":\"x\",\"groups\":[\"admin\"],\"iat\":1,\"exp\":2}".getBytes()) + ".c2ln";
        given().formParam("token", expired).post("/signin").then().statusCode(400).body(containsString("That token expired"));
    }

    @Test
    void aFormFromAnotherSiteIsRefused() {
        for (String path : List.of("/signin", "/signin/verify")) {
            given().redirects().follow(false).header("Sec-Fetch-Site", "cross-site").formParam("token", Fixtures.ADMIN).post(path)
                    .then().statusCode(403);
            given().redirects().follow(false).header("Sec-Fetch-Site", "same-site").formParam("token", Fixtures.ADMIN).post(path)
                    .then().statusCode(403);
            given().redirects().follow(false).header("Origin", "https://evil.example").formParam("token", Fixtures.ADMIN).post(path)
                    .then().statusCode(403);
        }
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

    private java.net.URI peerRoute() {
        return java.net.URI.create(management.toString()).resolve(Peers.PATH);
    }

    private static void assertSealed(String cookie, String token) {
        assertNotEquals(token, cookie);
        String[] claims = token.split("\\.");
        assertFalse(cookie.contains(claims[1]) || cookie.contains(claims[2]), "the cookie does not carry the token readable");
        assertEquals(5, cookie.split("\\.", -1).length, "a compact JWE: " + cookie);
    }

    private static void assertSignedInAs(String cookie, String subject) {
        String html = given().redirects().follow(false).cookie(Session.COOKIE, cookie).get("/hours?month=" + Fixtures.MONTH)
                .then().statusCode(200).extract().asString();
        assertTrue(html.contains("<span title=\"token subject\">" + subject + "</span>"), html);
    }

    private static void assertNoSession(String cookie, String what) {
        Response page = given().redirects().follow(false).cookie(Session.COOKIE, cookie).get("/hours");
        assertEquals(303, page.statusCode(), what);
        assertTrue(page.header("Location").contains("/signin?next="), what + ": " + page.header("Location"));
        assertTrue(page.header("Set-Cookie").contains("Max-Age=0"), what + ": the browser drops it");
    }

    /** The classic confusion: the RSA public key, which anyone may know, used as an HS256 secret. */
    private static String hmacWithPublicKey(String claims) {
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.HMAC_SHA256);
        jws.setKey(new HmacKey(TestTokens.publicKeyPem().getBytes(StandardCharsets.US_ASCII)));
        jws.setDoKeyValidation(false);
        try {
            return jws.getCompactSerialization();
        } catch (org.jose4j.lang.JoseException e) {
            throw new IllegalStateException(e);
        }
    }
}
