package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.gpumeter.console.PagesTest.page;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Queues page's Volcano jobs: per queue how the finished jobs did, and the jobs, their names as text. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class VolcanoJobsPageTest {

    private static final String QUEUES = "/queues?from=2026-11-23&to=2026-11-30&groupBy=volcanoQueue";

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    @Test
    void eachQueueShowsItsJobsSuccessRateGpuHoursPerJobRetriesAndQueueingP95() {
        String html = page(QUEUES, Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/volcano-jobs?from=2026-11-23T00%3A00%3A00Z"
                + "&to=2026-11-30T00%3A00%3A00Z&groupBy=queue&jobsPerGroup=10")), StandIn.seen().toString());
        TriagePagesTest.assertForwarded(Fixtures.ADMIN);
        assertTrue(html.contains("<h2>Volcano jobs</h2>"), html);
        // 2 of 3 completed: 66.7 %; 4.516667 and 6.775 GPU-hours to two decimals; p95 and longest 10,800 s
        assertTrue(html.contains("<tr data-queue=\"research\"><td>research</td><td class=\"num\">3</td><td class=\"num\">2</td>"
                + "<td class=\"num\">66.7 %</td><td class=\"num\">4.52</td><td class=\"num\">6.78</td><td class=\"num\">2</td>"
                + "<td class=\"num\">3 h</td><td class=\"num\">3 h</td><td>globex-lab/eval-c</td></tr>"), html);
        // nothing completed: no GPU-hours per completed job, no known wait
        assertTrue(html.contains("<tr data-queue=\"vision\"><td>vision</td><td class=\"num\">1</td><td class=\"num\">0</td>"
                + "<td class=\"num\">0.0 %</td><td class=\"num\">0.00</td><td class=\"num\"></td><td class=\"num\">0</td>"
                + "<td class=\"num\"></td><td class=\"num\"></td><td></td></tr>"), html);
        assertTrue(html.contains("<tr data-job=\"acme-ml/bert-ft\"><td>acme-ml/bert-ft</td><td>research</td><td>Failed</td>"
                + "<td class=\"num\">1.55</td><td class=\"num\">3</td><td class=\"num\">2</td><td class=\"num\">30 min</td>"
                + "<td>2026-11-28T08:10:00Z</td></tr>"), html);
        // a job name that is markup is text, in the cell and in the attribute
        assertTrue(html.contains("<tr data-job=\"umbrella-cv/&lt;img src=x onerror=alert(1)&gt;\"><td>umbrella-cv/&lt;img src=x "
                + "onerror=alert(1)&gt;</td><td>vision</td><td>Aborted</td><td class=\"num\">0.00</td>"), html);
        assertFalse(html.contains("<img src=x"), html);
        // research lists 2 of its 3 jobs
        assertTrue(html.contains("Each queue lists its 10 most recently finished jobs."), html);
    }

    @Test
    void aTenantSeesItsOwnJobsThoughTheQueuesWaitsAreRefusedIt() {
        String html = page(QUEUES, Fixtures.ACME);
        TriagePagesTest.assertForwarded(Fixtures.ACME);
        assertTrue(html.contains("ledger-service refused: you may not see this"), html);
        assertTrue(html.contains("<tr data-job=\"acme-ml/bert-ft\">"), html);
        assertTrue(html.contains("<tr data-queue=\"research\"><td>research</td><td class=\"num\">1</td><td class=\"num\">0</td>"
                + "<td class=\"num\">0.0 %</td><td class=\"num\">1.55</td><td class=\"num\"></td><td class=\"num\">2</td>"
                + "<td class=\"num\">30 min</td>"), html);
        assertFalse(html.contains("globex-lab") || html.contains("umbrella-cv") || html.contains("vision"), html);
        assertFalse(html.contains("most recently finished jobs."), "every job of its queue is listed");
    }

    @Test
    void aWindowWithoutFinishedJobsSaysSo() {
        StandIn.override(Backend.LEDGER, "/api/v1/volcano-jobs", StandIn.Reply.json("[]"));
        String html = page(QUEUES, Fixtures.ADMIN);
        assertTrue(html.contains("No Volcano Job finished in this window."), html);
        assertFalse(html.contains("volcano-jobs-table"), html);
    }
}
