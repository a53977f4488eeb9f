package io.gpumeter.collector.service;

import io.gpumeter.collector.http.BoundedBody;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A plain GET of a text endpoint (an exporter's /metrics, a Prometheus query): anything but 200 is a failure, and so
 * is a body over the limit, which is refused without being read to its end.
 */
final class HttpText {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final BoundedBody bounded;
    private final String source;

    HttpText(BoundedBody bounded, String source) {
        this.bounded = bounded;
        this.source = source;
    }

    String get(URI uri, Duration timeout, long maxBytes) throws IOException {
        try {
            HttpResponse<InputStream> response = http.send(HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
            if (response.statusCode() != 200) {
                response.body().close();
                throw new IOException("HTTP " + response.statusCode());
            }
            return bounded.read(source, source + " at " + uri.getHost() + ":" + uri.getPort(), response.body(),
                    response.headers().firstValueAsLong("Content-Length"), maxBytes);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }
}
