package io.gpumeter.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.GovernanceBatch;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Posts fact batches straight to the ledger's intake ({@code POST /api/v1/facts}, and governance batches to
 * {@code POST /api/v1/facts/governance}), one at a time.
 */
final class FactPoster {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper json = new ObjectMapper().registerModule(new JavaTimeModule())
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    private final URI facts;
    private final URI governance;
    private final String authorization;

    /** @param ledger the ledger's API URL; {@code authorization} the header value, e.g. an admin's bearer token */
    FactPoster(URI ledger, String authorization) {
        this.facts = ledger.resolve("/api/v1/facts");
        this.governance = ledger.resolve("/api/v1/facts/governance");
        this.authorization = authorization;
    }

    /** Posts one batch; throws unless the ledger stored it (200). */
    void post(FactBatch batch) {
        post(facts, batch);
    }

    /** Posts one governance batch (none when it is empty); throws unless the ledger stored it (200). */
    void post(GovernanceBatch batch) {
        if (batch.size() > 0) {
            post(governance, batch);
        }
    }

    private void post(URI to, Object batch) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(to)
                    .header("Authorization", authorization).timeout(Duration.ofMinutes(10))
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(batch))).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new IllegalStateException("ledger refused a batch: " + response.statusCode() + " " + response.body());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
