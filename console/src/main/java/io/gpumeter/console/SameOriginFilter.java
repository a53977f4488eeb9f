package io.gpumeter.console;

import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

import java.net.URI;
import java.util.Locale;
import java.util.Optional;

/**
 * A form posted from another site is refused (sign-in, sign-out): the session cookie is SameSite=Strict, and this
 * keeps another site from signing a browser in with a token of its choosing.
 */
public class SameOriginFilter {

    @ServerRequestFilter
    public Optional<Response> sameOrigin(ContainerRequestContext request) {
        if (!"POST".equals(request.getMethod())) {
            return Optional.empty();
        }
        String site = request.getHeaderString("Sec-Fetch-Site");
        if (site != null) {
            String s = site.toLowerCase(Locale.ROOT);
            return s.equals("same-origin") || s.equals("none") ? Optional.empty() : Optional.of(refuse());
        }
        String origin = request.getHeaderString("Origin");
        if (origin == null) {
            return Optional.empty();
        }
        String host = request.getHeaderString("Host");
        try {
            URI o = URI.create(origin);
            String authority = o.getPort() < 0 ? o.getHost() : o.getHost() + ":" + o.getPort();
            return host != null && host.equalsIgnoreCase(authority) ? Optional.empty() : Optional.of(refuse());
        } catch (IllegalArgumentException e) {
            return Optional.of(refuse());
        }
    }

    private static Response refuse() {
        return Response.status(Response.Status.FORBIDDEN).type(MediaType.TEXT_PLAIN)
                .entity("Forms are accepted from this console's own pages only.").build();
    }
}
