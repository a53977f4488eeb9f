package io.gpumeter.ledger.config;

import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.repository.KeptPrepared;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A connection of the service's own pool keeps its point lookups and bulk writes prepared, and nothing else. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class LedgerPoolCreatorTest {

    @Inject
    Pool pool;

    @Test
    void aConnectionKeepsItsPointLookupsAndBulkWritesPreparedAndPlansEveryOtherStatementEachTime() {
        String lookup = KeptPrepared.POINT_LOOKUP.sql("SELECT 1 FROM ledger.gpu_device WHERE uuid = $1 LIMIT 1");
        String write = KeptPrepared.BULK_WRITE.sql("DELETE FROM ledger.gpu_device WHERE cluster = $1 AND uuid = ANY($2)");
        String other = "SELECT 1 FROM ledger.gpu_device WHERE node = $1 LIMIT 1";
        List<String> prepared = pool.withConnection(conn -> conn.preparedQuery(lookup).execute(Tuple.of("GPU-a"))
                        .chain(() -> conn.preparedQuery(lookup).execute(Tuple.of("GPU-b")))
                        .chain(() -> conn.preparedQuery(write).execute(Tuple.of("c", new String[] {"GPU-a"})))
                        .chain(() -> conn.preparedQuery(write).execute(Tuple.of("c", new String[] {"GPU-b"})))
                        .chain(() -> conn.preparedQuery(other).execute(Tuple.of("node-a")))
                        .chain(() -> conn.preparedQuery(other).execute(Tuple.of("node-b")))
                        .chain(() -> conn.query("SELECT statement FROM pg_prepared_statements WHERE statement LIKE '%gpu_device%'"
                                        + " ORDER BY statement DESC")
                                .execute()))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    for (Row row : rows) {
                        out.add(row.getString("statement"));
                    }
                    return out;
                })
                .await().atMost(Duration.ofSeconds(30));
        assertEquals(List.of(lookup, write), prepared);
    }
}
