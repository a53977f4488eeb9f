package io.gpumeter.collector.client;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.LivePodSet;
import io.gpumeter.common.problem.ApiProblem;
import io.smallrye.mutiny.Multi;
import io.vertx.mutiny.core.buffer.Buffer;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.Response;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LedgerClientTest {

    private final ExecutorService writer = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        writer.shutdownNow();
    }

    /**
     * A ledger as the HTTP client meets it when a body fails: the request ends normally with the pieces sent so far,
     * none here, and the ledger refuses an empty bundle with a 400.
     */
    private static final class RefusingEmptyBodies implements LedgerApi {
        String received;

        @Override
        public BundleResult deliverBundle(Multi<Buffer> bundleJson) {
            StringBuilder body = new StringBuilder();
            bundleJson.onFailure().recoverWithCompletion().subscribe().asStream()
                    .forEach(piece -> body.append(piece.toString()));
            received = body.toString();
            if (received.isEmpty()) {
                throw new WebApplicationException(Response.status(400).build());
            }
            return new BundleResult(new IngestResult(1, 0), null);
        }

        @Override
        public IngestResult deliver(FactBatch batch) {
            throw new AssertionError("a bundle's delivery sent a separate batch");
        }

        @Override
        public IngestResult deliver(LivePodSet set) {
            throw new AssertionError("a bundle's delivery sent a live pod set");
        }
    }

    @Test
    void aBundleThatCouldNotBeWrittenFailsWithThatCauseNotWithTheLedgersRefusalOfWhatArrived() {
        RefusingEmptyBodies ledger = new RefusingEmptyBodies();
        LedgerClient client = new LedgerClient(ledger, null, null, null);
        JsonBody unwritable = JsonBody.writing(new ObjectMapper(), () -> {
            throw new IllegalStateException("a fact that cannot be written");
        }, writer);

        ApiProblem problem = assertThrows(ApiProblem.class, () -> client.deliver(unwritable));

        assertEquals("", ledger.received);
        assertEquals(500, problem.status(), "the collector's own failure, not the ledger's 400 (a 422 refusal)");
        assertTrue(problem.getMessage().contains("could not write"), problem.getMessage());
    }

    @Test
    void aWrittenBundleIsDeliveredAndTheLedgersRefusalStaysARefusal() {
        RefusingEmptyBodies ledger = new RefusingEmptyBodies();
        LedgerClient client = new LedgerClient(ledger, null, null, null);

        BundleResult result = client.deliver(JsonBody.writing(new ObjectMapper(), () -> List.of("fact"), writer));
        assertEquals("[\"fact\"]", ledger.received);
        assertEquals(1, result.facts().accepted());

        ApiProblem refused = assertThrows(ApiProblem.class, () -> client.deliver(JsonBody.of(new byte[0])));
        assertEquals(422, refused.status(), refused.getMessage());
    }
}
