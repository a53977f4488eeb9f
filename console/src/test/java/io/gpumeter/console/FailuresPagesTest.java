package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Failures page lists every open incident, a hundred a page, however many the ledger holds. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class FailuresPagesTest {

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    /** Open incident {@code n}: an Xid on node n{n}, so each row is told apart. */
    private static String incident(int n) {
        return "{\"id\":\"inc-" + n + "\",\"cluster\":\"lab\",\"cause\":\"XID_79\",\"rootCauseClass\":\"hardware\",\"node\":\"n" + n
                + "\",\"startedAt\":\"2026-11-29T10:00:00Z\",\"open\":true,\"occurrences\":1,\"evidence\":\"kmsg: Xid 79 on n" + n + "\"}";
    }

    private static StandIn.Reply incidents(int from, int to, int total) {
        return new StandIn.Reply(200, "application/json", IntStream.range(from, to).mapToObj(FailuresPagesTest::incident)
                .collect(Collectors.joining(",", "[", "]")), Map.of("X-Total-Count", Integer.toString(total)));
    }

    private static long rows(String html) {
        String table = html.substring(html.indexOf("<table id=\"incidents-table\">"), html.indexOf("</table>", html.indexOf("<table id=\"incidents-table\">")));
        return table.lines().filter(l -> l.strip().startsWith("<tr><td>XID_79")).count();
    }

    /**
     * 101 open incidents: the first page lists incidents 0-99 and says 1–100 of 101 with a link to the next; the next
     * asks the ledger from the 100th and lists the 101st, incident 100, with a link back. None is cut silently.
     */
    @Test
    void aHundredAndOneOpenIncidentsAreAllListedAPageAtATime() {
        StandIn.override(Backend.LEDGER, "/api/v1/failures/incidents", incidents(0, 100, 101));
        String first = PagesTest.page("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause", Fixtures.ADMIN);
        assertTrue(first.contains("<h2>Open incidents 1–100 of 101</h2>"), first);
        assertEquals(100, rows(first));
        assertTrue(first.contains("<td>lab · n99</td>") && !first.contains("<td>lab · n100</td>"), first);
        assertTrue(first.contains("<a href=\"/failures?from=2026-11-23&amp;to=2026-11-30&amp;groupBy=cause&amp;incidents=100#incidents\">"
                + "next page &rarr;</a>"), first);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/failures/incidents?open=true&limit=100")),
                StandIn.seen().toString());

        StandIn.reset();
        StandIn.override(Backend.LEDGER, "/api/v1/failures/incidents", incidents(100, 101, 101));
        String second = PagesTest.page("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause&incidents=100", Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/failures/incidents?open=true&limit=100&offset=100")),
                StandIn.seen().toString());
        assertTrue(second.contains("<h2>Open incidents 101–101 of 101</h2>"), second);
        assertEquals(1, rows(second));
        assertTrue(second.contains("<td>lab · n100</td>"), second);
        assertTrue(second.contains("<a href=\"/failures?from=2026-11-23&amp;to=2026-11-30&amp;groupBy=cause&amp;incidents=0#incidents\">"
                + "&larr; earlier page</a>"), second);
        assertFalse(second.contains("next page"), second);
    }

    /** A ledger that gives no count: a full page may have more after it, so the page offers the next one. */
    @Test
    void withoutACountAFullPageOffersTheNext() {
        StandIn.override(Backend.LEDGER, "/api/v1/failures/incidents", StandIn.Reply.json(IntStream.range(0, 100)
                .mapToObj(FailuresPagesTest::incident).collect(Collectors.joining(",", "[", "]"))));
        String html = PagesTest.page("/failures?from=2026-11-23&to=2026-11-30", Fixtures.ADMIN);
        assertTrue(html.contains("<h2>Open incidents 1–100</h2>") && html.contains("incidents=100#incidents"), html);
        assertTrue(PagesTest.page("/failures?incidents=-1", Fixtures.ADMIN).contains("incidents must be a whole number from 0"));
    }

    /** More failures in the window than the timeline draws: the page says so rather than drawing some silently. */
    @Test
    void aTimelineOfTheFirstThousandSaysHowManyThereWere() {
        StandIn.override(Backend.LEDGER, "/api/v1/failures/incidents", incidents(0, 3, 1_500));
        String html = PagesTest.page("/failures?from=2026-11-23&to=2026-11-30", Fixtures.ADMIN);
        assertTrue(html.contains("The timeline draws the first 3 of the 1500 failures that started in the window."), html);
        assertTrue(List.of(html.split("\n")).stream().anyMatch(l -> l.contains("id=\"failures-timeline-option\"")), html);
    }
}
