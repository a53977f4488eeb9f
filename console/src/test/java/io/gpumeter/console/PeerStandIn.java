package io.gpumeter.console;

import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import io.gpumeter.common.testing.StandIn;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;

/**
 * Another replica of the console, as the one under test sees it on the management port (the suite's one stand-in
 * server): it takes the sign-outs it is told of, each in its journal, and answers the sessions it knows to be signed
 * out, one of them a session signed in and out there.
 */
final class PeerStandIn {

    /** A live session of the admin that was signed out on the other replica before this one started. */
    static final String SIGNED_OUT_THERE;
    /** A live session of the admin the other replica knows nothing about. */
    static final String LIVE_THERE;
    private static final String LIST;
    private static StandIn server;

    static {
        Sealer sealer = new Sealer(Fixtures.SESSION_KEY);
        SignedOut there = new SignedOut();
        Tickets tickets = new Tickets(sealer, Duration.ofHours(1), Duration.ofHours(8), there);
        Instant now = Instant.now();
        Viewer admin = Viewer.parse(Fixtures.ADMIN, now).viewer().orElseThrow();
        SIGNED_OUT_THERE = tickets.issue(admin, now);
        LIVE_THERE = tickets.issue(admin, now);
        SessionTicket out = tickets.open(SIGNED_OUT_THERE, now).ticket();
        there.add(out.id(), tickets.end(out), now);
        LIST = there.sealed(sealer, now);
    }

    private PeerStandIn() {
    }

    static synchronized String start() {
        if (server == null) {
            server = StandIn.start();
            server.answer(post(urlPathEqualTo(Peers.PATH)), aResponse().withStatus(204));
            server.answer(get(urlPathEqualTo(Peers.PATH)), aResponse().withStatus(200).withBody(LIST));
        }
        return server.url();
    }

    /** The sessions this replica was told had ended, as the console under test announced them. */
    static List<String> announced() {
        return server.calls(postRequestedFor(urlPathEqualTo(Peers.PATH))).stream().map(LoggedRequest::getBodyAsString).toList();
    }

    static synchronized void stop() {
        if (server != null) {
            server.close();
            server = null;
        }
    }
}
