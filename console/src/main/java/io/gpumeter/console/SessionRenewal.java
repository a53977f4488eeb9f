package io.gpumeter.console;

import jakarta.enterprise.context.RequestScoped;
import jakarta.ws.rs.core.NewCookie;

/**
 * The renewed session cookie of this request: {@link Session} sets it when a live session is used, and
 * {@link SessionRenewalFilter} puts it on the response, so the idle time counts from the last page a user opened.
 */
@RequestScoped
public class SessionRenewal {

    private NewCookie cookie;

    void renew(NewCookie renewed) {
        this.cookie = renewed;
    }

    NewCookie cookie() {
        return cookie;
    }
}
