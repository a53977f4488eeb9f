package io.gpumeter.console;

import io.quarkus.vertx.http.ManagementInterface;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import java.time.Instant;

/**
 * What the replicas say to each other, on the management port (which no Ingress serves and the NetworkPolicies open
 * to the console's own pods and Prometheus only): {@code POST /session/signed-out} with a sealed session cookie signs
 * that session out here too, and {@code GET} answers the sealed list of signed-out sessions. Both are sealed with the
 * shared key, so nobody without it learns or adds anything: only a cookie's holder can sign its session out.
 */
@ApplicationScoped
public class PeerRoutes {

    private static final int MAX_BODY = 16 * 1024;

    private final Session session;
    private final Sealer sealer;
    private final SignedOut signedOut;

    public PeerRoutes(Session session, Sealer sealer, SignedOut signedOut) {
        this.session = session;
        this.sealer = sealer;
        this.signedOut = signedOut;
    }

    void routes(@Observes ManagementInterface management) {
        management.router().post(Peers.PATH).handler(BodyHandler.create(false).setBodyLimit(MAX_BODY)).handler(this::signOut);
        management.router().get(Peers.PATH).handler(this::list);
    }

    private void signOut(RoutingContext context) {
        String cookie = context.body().asString();
        // a cookie already ended here (signed out, expired) is as good as revoked: only something unsealed is refused
        boolean ours = session.tickets().open(cookie, Instant.now()).ended() != Tickets.Ended.NO_SESSION;
        if (!ours) {
            context.response().setStatusCode(400).putHeader("Content-Type", "text/plain")
                    .end("The body must be a session cookie sealed with this console's key.");
            return;
        }
        session.revoke(cookie, Instant.now());
        context.response().setStatusCode(204).end();
    }

    private void list(RoutingContext context) {
        context.response().putHeader("Content-Type", "text/plain").putHeader("Cache-Control", "no-store")
                .end(signedOut.sealed(sealer, Instant.now()));
    }
}
