package io.gpumeter.console;

import org.jose4j.jwt.JwtClaims;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The sealed session's rules, on a clock of the test's choosing. */
class TicketsTest {

    private static final Duration IDLE = Duration.ofHours(1);
    private static final Duration ABSOLUTE = Duration.ofHours(8);
    private static final Instant T0 = Instant.now();

    private final Sealer sealer = new Sealer(Fixtures.SESSION_KEY);
    private final SignedOut signedOut = new SignedOut();
    private final Tickets tickets = new Tickets(sealer, IDLE, ABSOLUTE, signedOut);
    private final Viewer admin = Viewer.parse(Fixtures.ADMIN, T0).viewer().orElseThrow();

    @Test
    void aNewSessionHoldsTheTokenSealed() {
        String cookie = tickets.issue(admin, T0);
        assertFalse(cookie.contains(Fixtures.ADMIN.split("\\.")[1]), "the token is not readable in the cookie");
        Tickets.Opened opened = tickets.open(cookie, T0.plusSeconds(1));
        assertTrue(opened.live());
        assertEquals(Fixtures.ADMIN, opened.ticket().token());
        assertEquals(T0.getEpochSecond(), opened.ticket().signedIn().getEpochSecond());
        assertEquals(IDLE, tickets.lifetime(opened.ticket(), T0.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)));
    }

    @Test
    void aSessionUnusedForTheIdleTimeHasEnded() {
        String cookie = tickets.issue(admin, T0);
        assertTrue(tickets.open(cookie, T0.plus(IDLE).minusSeconds(2)).live());
        assertEquals(Tickets.Ended.IDLE, tickets.open(cookie, T0.plus(IDLE).plusSeconds(1)).ended());
    }

    @Test
    void useKeepsASessionAliveUntilTheAbsoluteTimeAndNotASecondLonger() {
        String cookie = tickets.issue(admin, T0);
        Instant at = T0;
        // a page every 50 minutes: never idle for an hour
        while (at.plus(Duration.ofMinutes(50)).isBefore(T0.plus(ABSOLUTE))) {
            at = at.plus(Duration.ofMinutes(50));
            Tickets.Opened opened = tickets.open(cookie, at);
            assertTrue(opened.live(), "used at " + Duration.between(T0, at));
            cookie = tickets.renew(opened.ticket(), at);
        }
        assertEquals(Tickets.Ended.ABSOLUTE, tickets.open(cookie, T0.plus(ABSOLUTE).plusSeconds(1)).ended());
        // the cookie the browser keeps is let go at the end too
        SessionTicket last = tickets.open(cookie, at).ticket();
        assertTrue(!at.plus(tickets.lifetime(last, at)).isAfter(T0.plus(ABSOLUTE).plusSeconds(1)));
    }

    @Test
    void aSessionEndsWithItsTokenIfThatComesFirst() {
        Viewer shortLived = new Viewer(admin.token(), admin.subject(), admin.groups(), T0.plus(Duration.ofMinutes(30)));
        String cookie = tickets.issue(shortLived, T0);
        assertTrue(tickets.open(cookie, T0.plus(Duration.ofMinutes(29))).live());
        assertEquals(Tickets.Ended.ABSOLUTE, tickets.open(cookie, T0.plus(Duration.ofMinutes(31))).ended());
    }

    @Test
    void loweringTheAbsoluteTimeShortensSessionsAlreadyOpen() {
        String cookie = tickets.issue(admin, T0);
        Tickets stricter = new Tickets(sealer, IDLE, Duration.ofMinutes(30), signedOut);
        assertEquals(Tickets.Ended.ABSOLUTE, stricter.open(cookie, T0.plus(Duration.ofMinutes(31))).ended());
    }

    @Test
    void aSignedOutSessionIsRefusedEvenFromACopyAndItsRenewals() {
        String cookie = tickets.issue(admin, T0);
        String renewed = tickets.renew(tickets.open(cookie, T0).ticket(), T0.plusSeconds(60));
        SessionTicket ticket = tickets.open(cookie, T0).ticket();
        signedOut.add(ticket.id(), tickets.end(ticket), T0.plusSeconds(90));
        assertEquals(Tickets.Ended.SIGNED_OUT, tickets.open(cookie, T0.plusSeconds(91)).ended());
        assertEquals(Tickets.Ended.SIGNED_OUT, tickets.open(renewed, T0.plusSeconds(91)).ended());
        assertTrue(tickets.open(tickets.issue(admin, T0), T0.plusSeconds(91)).live(), "another session of the same token lives on");
    }

    @Test
    void theSignedOutListForgetsSessionsOnceTheyHaveEndedAnyway() {
        signedOut.add("a", T0.plusSeconds(10), T0);
        signedOut.add("b", T0.plusSeconds(100), T0);
        assertTrue(signedOut.contains("a") && signedOut.contains("b"));
        signedOut.add("c", T0.plusSeconds(100), T0.plusSeconds(20));
        assertFalse(signedOut.contains("a"), "a's cookie is refused as ended at its absolute time by then");
        assertTrue(signedOut.contains("b"));
    }

    @Test
    void anAlteredForeignOrOtherSealedTextIsNoSession() {
        String cookie = tickets.issue(admin, T0);
        String flipped = cookie.substring(0, cookie.length() - 3) + (cookie.charAt(cookie.length() - 3) == 'x' ? 'y' : 'x')
                + cookie.substring(cookie.length() - 2);
        Tickets foreign = new Tickets(new Sealer("another-console-key-0123456789abcdefghij"), IDLE, ABSOLUTE, new SignedOut());
        for (String text : List.of(flipped, foreign.issue(admin, T0), signedOut.sealed(sealer, T0), Fixtures.ADMIN, "", "a.b.c.d.e")) {
            Tickets.Opened opened = tickets.open(text, T0);
            assertNull(opened.ticket(), text);
            assertEquals(Tickets.Ended.NO_SESSION, opened.ended(), text);
        }
        assertEquals(Tickets.Ended.NO_SESSION, tickets.open(null, T0).ended());
        // a message sealed for another use, with the fields of a ticket, is not one either
        JwtClaims claims = new JwtClaims();
        claims.setStringClaim("sid", "x");
        claims.setStringClaim("tok", Fixtures.ADMIN);
        assertEquals(Tickets.Ended.NO_SESSION, tickets.open(sealer.seal("signed-out", claims), T0).ended());
    }

    @Test
    void aShortKeyIsRefusedAtStart() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class, () -> new Sealer("short"));
        assertTrue(e.getMessage().contains("gpumeter.console.session.key"), e.getMessage());
    }
}
