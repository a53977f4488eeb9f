package io.gpumeter.ledger.rest;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Every connection of the pool runs under the configured statement_timeout, so no query can run away. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class StatementTimeoutTest {

    @Inject
    Pool pool;

    @Test
    void everyConnectionHasAStatementTimeout() {
        for (int i = 0; i < 4; i++) {
            String timeout = pool.query("SHOW statement_timeout").execute().await().atMost(Duration.ofSeconds(10))
                    .iterator().next().getString(0);
            assertEquals("1min", timeout);
        }
    }
}
