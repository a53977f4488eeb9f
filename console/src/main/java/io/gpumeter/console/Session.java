package io.gpumeter.console;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * The session: an HttpOnly, SameSite=Strict cookie holding a sealed {@link SessionTicket}, which only the console's
 * replicas can open. It ends on sign-out, after the idle time without use and at the absolute time after sign-in
 * (docs/adr/0017-console-sessions.md); whoever copies the cookie never sees the token inside.
 */
@ApplicationScoped
public class Session {

    public static final String COOKIE = "gpumeter_console";

    private final ConsoleConfig config;
    private final SignedOut signedOut;
    private final Peers peers;
    private final SessionRenewal renewal;
    private final Tickets tickets;

    public Session(ConsoleConfig config, Sealer sealer, SignedOut signedOut, Peers peers, SessionRenewal renewal) {
        this.config = config;
        this.signedOut = signedOut;
        this.peers = peers;
        this.renewal = renewal;
        this.tickets = new Tickets(sealer, config.session().idle(), config.session().absolute(), signedOut);
    }

    /**
     * The signed-in user, or a redirect to the sign-in page that comes back to this address afterwards. A live
     * session is renewed: the response carries its cookie, last seen now.
     */
    public Viewer require(String cookie, UriInfo uri) {
        Instant now = Instant.now();
        Optional<Viewer> viewer = live(cookie, now);
        if (viewer.isEmpty()) {
            String back = uri.getRequestUri().getRawPath() + (uri.getRequestUri().getRawQuery() != null ? "?" + uri.getRequestUri().getRawQuery() : "");
            Response.ResponseBuilder redirect = Response.seeOther(URI.create("/signin?next=" + URLEncoder.encode(back, StandardCharsets.UTF_8)));
            if (cookie != null) {
                redirect.cookie(clear());
            }
            throw new WebApplicationException(redirect.build());
        }
        return viewer.get();
    }

    /** The user of a live session, renewing it; empty when the cookie is no session (any more). */
    public Optional<Viewer> live(String cookie, Instant now) {
        Tickets.Opened opened = tickets.open(cookie, now);
        if (!opened.live()) {
            return Optional.empty();
        }
        SessionTicket ticket = opened.ticket();
        // sealed by a replica, so the token was verified at sign-in; its claims only choose what to show
        Optional<Viewer> viewer = Viewer.parse(ticket.token(), now).viewer();
        viewer.ifPresent(v -> renewal.renew(cookie(tickets.renew(ticket, now), tickets.lifetime(ticket, now))));
        return viewer;
    }

    /** A new session for the holder of a token {@link TokenCheck} accepted. */
    public NewCookie open(Viewer verified) {
        Instant now = Instant.now();
        String sealed = tickets.issue(verified, now);
        SessionTicket ticket = tickets.open(sealed, now).ticket();
        return cookie(sealed, tickets.lifetime(ticket, now));
    }

    /**
     * Ends the session this cookie holds, on this replica and on the others it can reach, so that a copy of the
     * cookie is refused too; the browser's own cookie is cleared.
     */
    public NewCookie signOut(String cookie) {
        if (revoke(cookie, Instant.now())) {
            peers.announce(cookie);
        }
        return clear();
    }

    /** Records the session of a live cookie as signed out; false for anything else (already ended, not a session). */
    boolean revoke(String cookie, Instant now) {
        Tickets.Opened opened = tickets.open(cookie, now);
        if (!opened.live()) {
            return false;
        }
        signedOut.add(opened.ticket().id(), tickets.end(opened.ticket()), now);
        return true;
    }

    public NewCookie clear() {
        return cookie("", Duration.ZERO);
    }

    Tickets tickets() {
        return tickets;
    }

    private NewCookie cookie(String value, Duration maxAge) {
        // in whole seconds, rounded up as the ticket's instants are rounded down: the browser lets the cookie go at
        // most a second after the session has ended, never before
        int seconds = (int) Math.min(Integer.MAX_VALUE, Math.max(0, maxAge.plusNanos(999_999_999).toSeconds()));
        return new NewCookie.Builder(COOKIE).value(value).path("/").httpOnly(true).secure(config.secureCookie())
                .sameSite(NewCookie.SameSite.STRICT).maxAge(value.isEmpty() ? 0 : Math.max(1, seconds)).build();
    }

    /** Only a path on this console: never another host (an open redirect) nor a scheme-relative {@code //host}. */
    public static String safeNext(String next) {
        if (next == null || !next.startsWith("/") || next.startsWith("//") || next.startsWith("/\\")
                || next.startsWith("/signin") || next.chars().anyMatch(c -> c < 0x20)) {
            return "/";
        }
        return next;
    }
}
