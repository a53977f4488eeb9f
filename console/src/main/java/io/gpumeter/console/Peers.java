package io.gpumeter.console;

import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * The other replicas, found as the addresses of {@code gpumeter.console.session.peers} (a headless Service in
 * Kubernetes): each sign-out is sent to every one of them, and a replica that starts asks them for the sessions
 * signed out so far. Best effort: a replica that cannot be reached still ends the session at its idle or absolute
 * time (docs/adr/0017-console-sessions.md).
 */
@ApplicationScoped
public class Peers {

    static final String PATH = "/session/signed-out";
    private static final Logger LOG = Logger.getLogger(Peers.class);
    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final Optional<URI> peers;
    private final Sealer sealer;
    private final SignedOut signedOut;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT)
            .followRedirects(HttpClient.Redirect.NEVER).build();

    public Peers(ConsoleConfig config, Sealer sealer, SignedOut signedOut) {
        this.peers = config.session().peers();
        this.sealer = sealer;
        this.signedOut = signedOut;
    }

    /** Tells every replica that the session in this (sealed) cookie is signed out; returns when all have answered. */
    public CompletableFuture<Void> announce(String cookie) {
        List<CompletableFuture<?>> calls = new ArrayList<>();
        for (URI peer : addresses()) {
            HttpRequest request = HttpRequest.newBuilder(peer).timeout(TIMEOUT).header("Content-Type", "text/plain")
                    .POST(HttpRequest.BodyPublishers.ofString(cookie, StandardCharsets.UTF_8)).build();
            calls.add(http.sendAsync(request, HttpResponse.BodyHandlers.discarding()).handle((response, failure) -> {
                if (failure != null || response.statusCode() != 204) {
                    LOG.warnf("Replica %s was not told of a sign-out (%s); there the session ends at its idle or absolute time",
                            peer, failure != null ? failure.toString() : "HTTP " + response.statusCode());
                }
                return null;
            }));
        }
        return CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new));
    }

    /** At start-up, in the background: the sessions the running replicas know to be signed out. */
    void onStart(@Observes StartupEvent start) {
        if (peers.isPresent()) {
            CompletableFuture.runAsync(this::catchUp);
        }
    }

    void catchUp() {
        for (URI peer : addresses()) {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(peer).timeout(TIMEOUT).GET().build(),
                        HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
                if (response.statusCode() != 200 || !signedOut.addSealed(sealer, response.body(), Instant.now())) {
                    LOG.warnf("Replica %s did not say which sessions are signed out (HTTP %d)", peer, response.statusCode());
                }
            } catch (IOException e) {
                LOG.debugf("Replica %s did not say which sessions are signed out: %s", peer, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Each address the peers' host name resolves to, as the URL of its signed-out list. */
    List<URI> addresses() {
        if (peers.isEmpty()) {
            return List.of();
        }
        URI base = peers.get();
        List<URI> all = new ArrayList<>();
        try {
            for (InetAddress address : InetAddress.getAllByName(base.getHost())) {
                all.add(new URI(base.getScheme(), null, address.getHostAddress(), base.getPort(), PATH, null, null));
            }
        } catch (UnknownHostException e) {
            LOG.debugf("No replica found at %s yet", base.getHost());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("gpumeter.console.session.peers is not a URL: " + base, e);
        }
        return all;
    }
}
