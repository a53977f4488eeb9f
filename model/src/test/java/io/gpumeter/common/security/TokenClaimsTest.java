package io.gpumeter.common.security;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A token's claims as the console reads them before the signature, and the services' rules they must pass. */
class TokenClaimsTest {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    /** An unsigned token of these claims: the claims are all that is read here. */
    private static String token(String claims) {
        return "eyJhbGciOiJSUzI1NiJ9." + Base64.getUrlEncoder().withoutPadding()
                .encodeToString(claims.getBytes(StandardCharsets.UTF_8)) + ".c2ln";
    }

    @Test
    void theClaimsGiveTheHolder() {
        long iat = NOW.getEpochSecond();
        TokenClaims claims = TokenClaims.read("Bearer " + token("{\"sub\":\"ops\",\"groups\":[\"admin\",\"tenant:acme\"],"
                + "\"iat\":" + iat + ",\"exp\":" + (iat + 3600) + "}"), NOW).claims().orElseThrow();
        assertEquals("ops", claims.subject());
        assertEquals(List.of("admin", "tenant:acme"), claims.groups());
        assertEquals(NOW.plusSeconds(3600), claims.expires());
        assertTrue(claims.caller().readsEveryTenant());
        assertEquals(Optional.empty(), claims.refusal(Duration.ofDays(30)));
        assertTrue(!claims.token().startsWith("Bearer"));
    }

    @Test
    void whatIsNoTokenOrHasExpiredIsSaidInWords() {
        assertEquals("That is not a token: a token is three dot-separated parts, as ./gpumeter token prints.",
                TokenClaims.read("hunter2", NOW).problem());
        assertEquals("That is not a token: its middle part is not readable claims.",
                TokenClaims.read(token("[1,2]"), NOW).problem());
        assertEquals("That token has no expiry (exp); the services refuse such tokens.",
                TokenClaims.read(token("{\"sub\":\"x\"}"), NOW).problem());
        assertEquals("That token expired at 2026-11-30T12:00:00Z; sign in with a fresh one (./gpumeter token).",
                TokenClaims.read(token("{\"sub\":\"x\",\"exp\":" + NOW.getEpochSecond() + "}"), NOW).problem());
    }

    @Test
    void theServicesRulesRefuseWhatEveryServiceWould() {
        long iat = NOW.getEpochSecond();
        // 31 days from iat to exp against a longest lifetime of 30
        assertEquals(new TokenRules.Refusal(401, "The bearer token is valid for 31 days; this service accepts tokens of at "
                + "most 30 days (gpumeter.auth.max-token-lifetime). Ask for a shorter one."), refusal("[\"admin\"]", iat, iat + 31 * 86_400));
        assertEquals(new TokenRules.Refusal(401, "The bearer token must carry both iat and exp."), refusal("[\"admin\"]", 0, iat + 60));
        assertEquals(new TokenRules.Refusal(403, "An ingest token holds the ingest role only."), refusal("[\"ingest\",\"reader\"]", iat, iat + 60));
        assertEquals(new TokenRules.Refusal(403, "A tenant token must name exactly one tenant."),
                refusal("[\"tenant:acme\",\"tenant:globex\"]", iat, iat + 60));
        assertEquals(null, refusal("[\"reader\",\"tenant:acme\",\"tenant:globex\"]", iat, iat + 60));
    }

    private static TokenRules.Refusal refusal(String groups, long iat, long exp) {
        String claims = "{\"sub\":\"x\",\"groups\":" + groups + (iat > 0 ? ",\"iat\":" + iat : "") + ",\"exp\":" + exp + "}";
        return TokenClaims.read(token(claims), NOW.minusSeconds(1)).claims().orElseThrow().refusal(Duration.ofDays(30)).orElse(null);
    }
}
