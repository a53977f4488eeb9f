package io.gpumeter.console;

import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.MalformedClaimException;
import org.jose4j.jwt.NumericDate;

import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;

/**
 * The session cookie's rules: a session is a sealed {@link SessionTicket} that ends when it is signed out, when it
 * has not been used for the idle time, at the absolute time after sign-in, or when its token expires, whichever
 * comes first. Every use renews the ticket's last-seen instant; nothing else about it ever changes.
 */
final class Tickets {

    static final String USE = "session";
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Why a cookie is no session (any more). */
    enum Ended { NO_SESSION, SIGNED_OUT, IDLE, ABSOLUTE }

    /** A live ticket, or why there is none. */
    record Opened(SessionTicket ticket, Ended ended) {
        boolean live() {
            return ticket != null;
        }
    }

    private final Sealer sealer;
    private final Duration idle;
    private final Duration absolute;
    private final SignedOut signedOut;

    Tickets(Sealer sealer, Duration idle, Duration absolute, SignedOut signedOut) {
        if (idle.isNegative() || idle.isZero() || absolute.isNegative() || absolute.isZero()) {
            throw new IllegalArgumentException("gpumeter.console.session.idle and .absolute must be positive, got "
                    + idle + " and " + absolute);
        }
        this.sealer = sealer;
        this.idle = idle;
        this.absolute = absolute;
        this.signedOut = signedOut;
    }

    /** A new session for the holder of a verified token: it ends at most {@code absolute} from now. */
    String issue(Viewer viewer, Instant now) {
        Instant end = earlier(now.plus(absolute), viewer.expires());
        return seal(new SessionTicket(newId(), viewer.token(), now, now, end));
    }

    /** The same session, last seen {@code now}. */
    String renew(SessionTicket ticket, Instant now) {
        return seal(new SessionTicket(ticket.id(), ticket.token(), ticket.signedIn(), now, ticket.end()));
    }

    Opened open(String cookie, Instant now) {
        Optional<SessionTicket> read = sealer.open(USE, cookie).flatMap(Tickets::read);
        if (read.isEmpty()) {
            return new Opened(null, Ended.NO_SESSION);
        }
        SessionTicket ticket = read.get();
        if (signedOut.contains(ticket.id())) {
            return new Opened(null, Ended.SIGNED_OUT);
        }
        // the absolute limit as configured now, too: lowering it shortens sessions already open
        if (!now.isBefore(end(ticket))) {
            return new Opened(null, Ended.ABSOLUTE);
        }
        if (!now.isBefore(ticket.lastSeen().plus(idle))) {
            return new Opened(null, Ended.IDLE);
        }
        return new Opened(ticket, null);
    }

    /** When the session ends at the latest, used or not. */
    Instant end(SessionTicket ticket) {
        return earlier(ticket.end(), ticket.signedIn().plus(absolute));
    }

    /** How long the browser keeps the cookie: until the idle limit or the end, whichever comes first. */
    Duration lifetime(SessionTicket ticket, Instant now) {
        return Duration.between(now, earlier(ticket.lastSeen().plus(idle), end(ticket)));
    }

    Duration idle() {
        return idle;
    }

    Duration absolute() {
        return absolute;
    }

    private String seal(SessionTicket ticket) {
        JwtClaims claims = new JwtClaims();
        claims.setStringClaim("sid", ticket.id());
        claims.setStringClaim("tok", ticket.token());
        claims.setIssuedAt(NumericDate.fromSeconds(ticket.signedIn().getEpochSecond()));
        claims.setClaim("seen", ticket.lastSeen().getEpochSecond());
        claims.setExpirationTime(NumericDate.fromSeconds(ticket.end().getEpochSecond()));
        return sealer.seal(USE, claims);
    }

    private static Optional<SessionTicket> read(JwtClaims claims) {
        try {
            String id = claims.getStringClaimValue("sid");
            String token = claims.getStringClaimValue("tok");
            NumericDate signedIn = claims.getIssuedAt();
            Object seen = claims.getClaimValue("seen");
            NumericDate end = claims.getExpirationTime();
            if (id == null || token == null || signedIn == null || !(seen instanceof Number n) || end == null) {
                return Optional.empty();
            }
            return Optional.of(new SessionTicket(id, token, Instant.ofEpochSecond(signedIn.getValue()),
                    Instant.ofEpochSecond(n.longValue()), Instant.ofEpochSecond(end.getValue())));
        } catch (MalformedClaimException e) {
            return Optional.empty();
        }
    }

    private static String newId() {
        byte[] bytes = new byte[18];
        RANDOM.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }
}
