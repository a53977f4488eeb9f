package io.gpumeter.bench;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicIntegerArray;

/**
 * A fleet's dcgm-exporters on one loopback port, one path per node ({@code /bench-node-7/metrics}), each node's page
 * ({@link DcgmPage}) rendered once and served as it is ever after: rendering 40,000 cards' pages every 10 s would take
 * most of a core from the services measured, and the collector's work does not depend on the values (each scrape is
 * stamped with its own instant). It keeps when each page was served — the scrape, from which the intake's
 * lag is measured — and how often each node was served: two collectors scraping one node would serve it twice a round.
 */
final class ExporterFleet implements AutoCloseable {

    private final int nodes;
    private final HttpServer server;
    private final ExecutorService threads = Executors.newFixedThreadPool(4);
    private final byte[][] pages;
    private final AtomicIntegerArray servedPerNode;
    private long[] servedAt = new long[1 << 16];
    private int served;

    ExporterFleet(int nodes) {
        this.nodes = nodes;
        this.pages = new byte[nodes][];
        this.servedPerNode = new AtomicIntegerArray(nodes);
        try {
            server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1024);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.createContext("/", this::serve);
        server.setExecutor(threads);
        server.start();
    }

    /** Node name to metrics URL, as {@code gpumeter.collector.dcgm.targets} takes them. */
    Map<String, String> targets() {
        Map<String, String> targets = new LinkedHashMap<>();
        for (int n = 0; n < nodes; n++) {
            targets.put(DcgmPage.nodeName(n), "http://127.0.0.1:" + server.getAddress().getPort() + "/"
                    + DcgmPage.nodeName(n) + "/metrics");
        }
        return targets;
    }

    private void serve(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath(); // /bench-node-<n>/metrics
            int node;
            try {
                node = Integer.parseInt(path.substring("/bench-node-".length(), path.indexOf('/', 1)));
            } catch (RuntimeException e) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            if (node < 0 || node >= nodes) {
                exchange.sendResponseHeaders(404, -1);
                return;
            }
            byte[] page = page(node);
            exchange.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
            exchange.sendResponseHeaders(200, page.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(page);
            }
            record(node, System.nanoTime());
        }
    }

    private byte[] page(int node) {
        byte[] page = pages[node];
        if (page == null) { // two threads rendering one node's page at once both render the same bytes
            page = DcgmPage.render(node, 0).getBytes(StandardCharsets.UTF_8);
            pages[node] = page;
        }
        return page;
    }

    private synchronized void record(int node, long now) {
        servedPerNode.incrementAndGet(node);
        if (served == servedAt.length) {
            servedAt = Arrays.copyOf(servedAt, served * 2);
        }
        servedAt[served++] = now;
    }

    /** When each page was served (System.nanoTime), in order. */
    synchronized long[] servedAt() {
        return Arrays.copyOf(servedAt, served);
    }

    synchronized int served() {
        return served;
    }

    /** The fewest and the most pages one node served. */
    int[] servedPerNodeRange() {
        int min = Integer.MAX_VALUE;
        int max = 0;
        for (int n = 0; n < nodes; n++) {
            min = Math.min(min, servedPerNode.get(n));
            max = Math.max(max, servedPerNode.get(n));
        }
        return new int[] {min, max};
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
