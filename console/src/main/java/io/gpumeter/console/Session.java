package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
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

/**
 * The session: an HttpOnly, SameSite=Strict cookie holding the user's token, living as long as the token. Nothing is
 * kept on the server, so any replica serves any user and a restart signs nobody out.
 */
@ApplicationScoped
public class Session {

    public static final String COOKIE = "gpumeter_console";

    private final ObjectMapper json;
    private final ConsoleConfig config;

    public Session(ObjectMapper json, ConsoleConfig config) {
        this.json = json;
        this.config = config;
    }

    /** The signed-in user, or a redirect to the sign-in page that comes back to this address afterwards. */
    public Viewer require(String cookie, UriInfo uri) {
        Viewer.Parsed parsed = Viewer.parse(cookie, json, Instant.now());
        if (cookie == null || parsed.viewer().isEmpty()) {
            String back = uri.getRequestUri().getRawPath() + (uri.getRequestUri().getRawQuery() != null ? "?" + uri.getRequestUri().getRawQuery() : "");
            Response.ResponseBuilder redirect = Response.seeOther(URI.create("/signin?next=" + URLEncoder.encode(back, StandardCharsets.UTF_8)));
            if (cookie != null) {
                redirect.cookie(clear());
            }
            throw new WebApplicationException(redirect.build());
        }
        return parsed.viewer().get();
    }

    public NewCookie open(Viewer viewer) {
        long seconds = Math.max(1, Duration.between(Instant.now(), viewer.expires()).toSeconds());
        return cookie(viewer.token(), (int) Math.min(Integer.MAX_VALUE, seconds));
    }

    public NewCookie clear() {
        return cookie("", 0);
    }

    private NewCookie cookie(String value, int maxAge) {
        return new NewCookie.Builder(COOKIE).value(value).path("/").httpOnly(true).secure(config.secureCookie())
                .sameSite(NewCookie.SameSite.STRICT).maxAge(maxAge).build();
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
