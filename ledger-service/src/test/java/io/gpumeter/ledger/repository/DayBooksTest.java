package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.testing.EmbeddedPostgresResource;
import io.gpumeter.ledger.hours.domain.PgNumeric;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.json.JsonArray;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The validity of a day's stored answer against the changes to its facts, with each change made by hand, and the
 * prune that forgets what no answer needs. Each test takes days of its own in 2031 (no other test's facts are there).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class DayBooksTest {

    @Inject
    DayBooks books;

    @Inject
    Pool pool;

    private static TimeWindow day(String date) {
        Instant start = Instant.parse(date + "T00:00:00Z");
        return new TimeWindow(start, start.plus(Duration.ofDays(1)));
    }

    private void touch(String date) {
        pool.query("INSERT INTO ledger.book_change (days) VALUES (daterange('" + date + "', '" + date + "', '[]'))")
                .execute().await().indefinitely();
    }

    private Set<Instant> valid(String shape, TimeWindow... days) {
        return books.valid("test", shape, List.of(days)).await().indefinitely().keySet();
    }

    private void store(String shape, String snapshot, TimeWindow day) {
        books.store("test", shape, snapshot, List.of(new DayBooks.Answer(day, new JsonArray().add("x"))))
                .await().indefinitely();
    }

    @Test
    void anAnswerIsValidUntilAChangeToOneOfItsDaysItsSnapshotDidNotSee() {
        String snapshot = books.snapshot().await().indefinitely();
        touch("2031-01-01");
        // computed in a snapshot taken before a change to another day: valid
        store("a", snapshot, day("2031-01-02"));
        store("a", snapshot, day("2031-01-03"));
        store("a", snapshot, day("2031-01-04"));
        Map<Instant, JsonArray> read = books.valid("test", "a", List.of(day("2031-01-02"))).await().indefinitely();
        assertEquals(new JsonArray().add("x"), read.get(day("2031-01-02").start()), "what was stored is read back");
        touch("2031-01-02");
        assertEquals(Set.of(day("2031-01-03").start(), day("2031-01-04").start()),
                valid("a", day("2031-01-02"), day("2031-01-03"), day("2031-01-04")));
        touch("2031-01-03");
        assertEquals(Set.of(day("2031-01-04").start()), valid("a", day("2031-01-03"), day("2031-01-04")));
        // computed again in a snapshot that sees the changes: valid again
        store("a", books.snapshot().await().indefinitely(), day("2031-01-03"));
        assertEquals(Set.of(day("2031-01-03").start(), day("2031-01-04").start()),
                valid("a", day("2031-01-03"), day("2031-01-04")));
        assertEquals(Set.of(), valid("another shape", day("2031-01-03")));
    }

    @Test
    void aChangeStillRunningWhenTheSnapshotWasTakenMakesTheAnswerStale() {
        // The change's transaction is still open when another connection takes the snapshot; it commits after.
        String[] taken = new String[1];
        pool.withTransaction(conn -> conn.query(
                        "INSERT INTO ledger.book_change (days) VALUES (daterange('2031-02-03', '2031-02-03', '[]'))").execute()
                .chain(() -> books.snapshot().invoke(s -> taken[0] = s))).await().indefinitely();
        store("b", taken[0], day("2031-02-03"));
        assertEquals(Set.of(), valid("b", day("2031-02-03")), "the snapshot was taken while the change was running");
        store("b", books.snapshot().await().indefinitely(), day("2031-02-03"));
        assertEquals(Set.of(day("2031-02-03").start()), valid("b", day("2031-02-03")), "and one taken after it sees it");
    }

    @Test
    void aPruneForgetsTheChangesEveryAnswerSawAndTheAnswersThatWereStale() {
        String before = books.snapshot().await().indefinitely();
        touch("2031-03-01");
        store("c", before, day("2031-03-01"));
        store("c", books.snapshot().await().indefinitely(), day("2031-03-02"));
        touch("2031-03-02");
        String after = books.snapshot().await().indefinitely();
        store("c", after, day("2031-03-03"));

        books.prune(Duration.ZERO, Duration.ofDays(40)).await().indefinitely();

        long changes = pool.query("SELECT count(*) AS n FROM ledger.book_change WHERE days && daterange('2031-03-01', '2031-03-31')")
                .execute().await().indefinitely().iterator().next().getLong("n");
        assertEquals(0, changes, "every change of those days is older than the prune's horizon");
        long answers = pool.preparedQuery("SELECT count(*) AS n FROM ledger.day_answer WHERE kind = 'test' AND shape = $1")
                .execute(Tuple.of("c")).await().indefinitely().iterator().next().getLong("n");
        assertEquals(1, answers, "the two stale answers went with the changes that made them stale");
        assertEquals(Set.of(day("2031-03-03").start()), valid("c", day("2031-03-01"), day("2031-03-02"), day("2031-03-03")));

        books.prune(Duration.ZERO, Duration.ZERO).await().indefinitely();
        assertEquals(Set.of(), valid("c", day("2031-03-03")), "answers are kept as long as asked, then forgotten");
    }

    @Test
    void aPruneKeepsTheChangesOfTheGraceAnswersMayStillBeComputedIn() {
        String before = books.snapshot().await().indefinitely();
        touch("2031-04-01");
        books.prune(Duration.ofMinutes(10), Duration.ofDays(40)).await().indefinitely();
        store("d", before, day("2031-04-01"));
        assertEquals(Set.of(), valid("d", day("2031-04-01")),
                "a change younger than the grace stays, and an answer computed before it is stale");
    }

    /**
     * The division of day sums gives PostgreSQL's own {@code numeric / numeric}, digit for digit: the operands span
     * the magnitudes seconds sums take (a minute of a tenth of a card to a year of 10,000 cards), scales from 0 to
     * 30, a dividend below the divisor's first digit and above it, and round halves.
     */
    @ParameterizedTest
    @ValueSource(strings = {"0", "1", "60", "3600", "3599", "3601", "7200.5", "0.000001", "0.1", "0.00012",
            "36.000000000000000000000000000000", "151387.517857091558550000", "545001064.2857", "123456789012.123456",
            "315360000000", "1.5", "5400", "0.0000000000000000000001", "9999.9999", "10000", "99999999.99999999",
            "18.000000", "-3600.25", "12345678901234567890.123", "0.999999999999999999999999999999", "1800"})
    void divisionIsPostgresqls(String dividend) {
        for (String divisor : List.of("3600", "7", "0.3", "10000", "3")) {
            String expected = pool.preparedQuery("SELECT ($1::numeric / $2::numeric)::text AS q")
                    .execute(Tuple.of(new BigDecimal(dividend), new BigDecimal(divisor))).await().indefinitely()
                    .iterator().next().getString("q");
            BigDecimal actual = PgNumeric.divide(new BigDecimal(dividend), new BigDecimal(divisor));
            assertEquals(expected, actual.toPlainString(), dividend + " / " + divisor);
        }
    }

    private List<String> changesSince(long mark) {
        return pool.preparedQuery("SELECT days::text AS d FROM ledger.book_change WHERE xid::text::bigint > $1 ORDER BY 1")
                .execute(Tuple.of(mark)).await().indefinitely().stream().map(r -> r.getString("d")).toList();
    }

    private long lastChange() {
        return pool.query("SELECT coalesce(max(xid::text::bigint), 0) AS x FROM ledger.book_change").execute()
                .await().indefinitely().iterator().next().getLong("x");
    }

    @Test
    void writesOfSegmentsAndBindingsRecordTheDaysTheyTouched() {
        long mark = lastChange();
        pool.query("""
                INSERT INTO ledger.allocation_segment (cluster, pod_uid, unit_index, seg_start, seg_end, since, until,
                    namespace, pod, node, gpu_uuid, gpu_model, unit_kind, fraction, source, tenant, team, project)
                VALUES ('books', 'books-1', 0, '2031-06-01T22:00Z', '2031-06-03T01:00Z', '2031-06-01T22:00Z', NULL,
                        'books-ns', 'books-pod', 'n', 'BOOKS-GPU', 'H100', 'MIG', 0.5, 'POD', 'books', 't', 'p'),
                       ('books', 'books-2', 0, '2031-06-10T10:00Z', NULL, '2031-06-10T10:00Z', NULL,
                        'books-ns', 'books-open', 'n', 'BOOKS-GPU-2', 'H100', 'WHOLE', 1, 'POD', 'books', 't', 'p')""")
                .execute().await().indefinitely();
        assertEquals(List.of("[2031-06-01,2031-06-04)", "[2031-06-10,)"), changesSince(mark),
                "a closed segment its days, a held one every day from its start");

        mark = lastChange();
        pool.query("""
                INSERT INTO ledger.gpu_binding (cluster, namespace, pod, gpu_uuid, scope_key, first_seen, last_seen)
                VALUES ('books', 'books-ns', 'books-pod', 'BOOKS-GPU', '', '2031-06-02T00:00Z', '2031-06-02T00:00Z')""")
                .execute().await().indefinitely();
        assertEquals(List.of(), changesSince(mark), "a binding that names no instance decides nothing");
        pool.query("""
                INSERT INTO ledger.gpu_binding (cluster, namespace, pod, gpu_uuid, scope_key, first_seen, last_seen)
                VALUES ('books', 'books-ns', 'books-pod', 'BOOKS-GPU', '7', '2031-06-02T00:00Z', '2031-06-02T00:00Z')""")
                .execute().await().indefinitely();
        assertEquals(List.of("[2031-06-01,2031-06-04)"), changesSince(mark), "one naming the MIG instance: its pod's days");
        mark = lastChange();
        pool.query("UPDATE ledger.gpu_binding SET last_seen = '2031-06-02T01:00Z' WHERE pod = 'books-pod' AND scope_key = '7'")
                .execute().await().indefinitely();
        assertEquals(List.of(), changesSince(mark), "seen again, with no other instance named: nothing changes");
    }
}
