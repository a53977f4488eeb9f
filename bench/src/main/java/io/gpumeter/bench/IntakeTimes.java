package io.gpumeter.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The ledger's own time on the watched batches, from its HTTP server metrics ({@code POST /api/v1/facts}, the live
 * path's only intake; a replay's bundles go to {@code /api/v1/facts/bundles}): how many it answered over a round and
 * their mean (Micrometer's maximum is of the last minutes, the warm-up's first batch among them, so it is not shown).
 * What a pod's time beyond the watch was not spent in the ledger was the collector's (the linger, the delivery) or Q1's.
 */
record IntakeTimes(double count, double seconds) {

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private static final String URI_LABEL = "uri=\"/api/v1/facts\"";

    static IntakeTimes read(URI management) {
        double count = 0;
        double seconds = 0;
        try {
            String page = HTTP.send(HttpRequest.newBuilder(management.resolve("/q/metrics")).timeout(Duration.ofSeconds(10))
                    .GET().build(), HttpResponse.BodyHandlers.ofString()).body();
            for (String line : page.split("\n")) {
                if (!line.startsWith("http_server_requests_seconds") || !line.contains(URI_LABEL)
                        || !line.contains("method=\"POST\"")) {
                    continue;
                }
                double value = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
                if (line.startsWith("http_server_requests_seconds_count{")) {
                    count += value;
                } else if (line.startsWith("http_server_requests_seconds_sum{")) {
                    seconds += value;
                }
            }
        } catch (IOException | RuntimeException e) {
            return new IntakeTimes(Double.NaN, Double.NaN);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new IntakeTimes(Double.NaN, Double.NaN);
        }
        return new IntakeTimes(count, seconds);
    }

    String since(IntakeTimes before) {
        double n = count - before.count;
        return String.format("    the ledger's POST /api/v1/facts (the watched batches): %.0f answered, mean %.0f ms", n,
                n == 0 ? 0 : 1000 * (seconds - before.seconds) / n);
    }
}
