package io.gpumeter.console;

import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/** Sends the renewed session cookie, unless the response sets the cookie itself (sign-in, sign-out, a refused session). */
public class SessionRenewalFilter {

    private final SessionRenewal renewal;

    public SessionRenewalFilter(SessionRenewal renewal) {
        this.renewal = renewal;
    }

    @ServerResponseFilter
    public void send(ContainerResponseContext response) {
        if (renewal.cookie() != null && !response.getHeaders().containsKey(HttpHeaders.SET_COOKIE)) {
            response.getHeaders().add(HttpHeaders.SET_COOKIE, renewal.cookie());
        }
    }
}
