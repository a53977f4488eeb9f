package io.gpumeter.launcher.kube;

import io.fabric8.kubernetes.client.NamespacedKubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.logging.Level;
import java.util.logging.Logger;

/** A Kubernetes API server in memory (fabric8's mock in CRUD mode, over plain HTTP on loopback) for the demo. */
public final class SimulatedApiServer implements AutoCloseable {

    /** The mock logs every request at INFO through java.util.logging; held here so the level setting sticks. */
    private static final Logger MOCK_LOG = Logger.getLogger("io.fabric8.mockwebserver");

    static {
        MOCK_LOG.setLevel(Level.WARNING);
    }

    private final HistoryCrudDispatcher dispatcher;
    private final KubernetesMockServer server;
    private NamespacedKubernetesClient client;

    private SimulatedApiServer(HistoryCrudDispatcher dispatcher, KubernetesMockServer server) {
        this.dispatcher = dispatcher;
        this.server = server;
    }

    /** Starts on a free loopback port. */
    public static SimulatedApiServer start() {
        HistoryCrudDispatcher dispatcher = new HistoryCrudDispatcher();
        KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(),
                dispatcher, false);
        server.init(InetAddress.getLoopbackAddress(), 0);
        return new SimulatedApiServer(dispatcher, server);
    }

    /** The base URL to give a client, e.g. {@code http://localhost:41234/}. */
    public String url() {
        return "http://localhost:" + server.getPort() + "/";
    }

    public int port() {
        return server.getPort();
    }

    /** A client of this server, made once. */
    public synchronized NamespacedKubernetesClient client() {
        if (client == null) {
            client = server.createClient();
        }
        return client;
    }

    /** Waits until some client watches every one of {@code plurals} (e.g. pods, nodes); false on timeout. */
    public boolean awaitWatches(Collection<String> plurals, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (!dispatcher.watchedResources().containsAll(plurals)) {
            if (Instant.now().isAfter(deadline)) {
                return false;
            }
            Thread.sleep(200);
        }
        return true;
    }

    @Override
    public synchronized void close() {
        if (client != null) {
            client.close();
            client = null;
        }
        server.destroy();
    }
}
