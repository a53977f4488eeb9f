package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.gpumeter.console.PagesTest.option;
import static io.gpumeter.console.PagesTest.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Idle: allocated-but-not-busy hours split by the host's cause per tenant, node and pod, from {@link IdleStandIn}. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class IdlePagesTest {

    private static final String WINDOW = "from=2026-11-16&to=2026-11-23";

    @BeforeEach
    void reset() {
        IdleStandIn.install();
        StandIn.reset();
    }

    @Test
    void perPodTheNotBusyHoursAreSplitByCauseWithTheHostCoverage() {
        String html = page("/idle?" + WINDOW + "&groupBy=pod", Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/idle?" + IdleStandIn.WINDOW + "&groupBy=pod"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        assertTrue(html.contains("<option value=\"pod\" selected>pod</option>"), html);
        // 20 h busy and 10 h not busy of 30: a third not busy
        assertTrue(html.contains("<tr data-group=\"acme-ml/train-7\"><td>acme-ml/train-7 <span class=\"sub\">acme</span></td>"
                + "<td class=\"num\">20.00</td><td class=\"num\">10.00</td><td class=\"num\">0.00</td><td class=\"num\">0.00</td>"
                + "<td class=\"num\">0.00</td><td class=\"num\">30.00</td><td class=\"num\">33.3 %</td></tr>"), html);
        assertTrue(html.contains("<tr data-causes=\"acme-ml/train-7\"><td>acme-ml/train-7</td><td class=\"num\">6.50</td>"
                + "<td class=\"num\">2.25</td><td class=\"num\">0.00</td><td class=\"num\">1.25</td><td class=\"num\">90.0 %</td></tr>"), html);
        assertTrue(html.contains("<tr data-causes=\"globex-lab/loader-0\"><td>globex-lab/loader-0</td><td class=\"num\">0.00</td>"
                + "<td class=\"num\">4.00</td><td class=\"num\">0.50</td><td class=\"num\">0.50</td><td class=\"num\">100.0 %</td></tr>"), html);
        // no pod held it: no allocated time to explain, no coverage to state
        assertTrue(html.contains("<tr data-causes=\"(unallocated)\"><td>(unallocated)</td><td class=\"num\">0.00</td>"
                + "<td class=\"num\">0.00</td><td class=\"num\">0.00</td><td class=\"num\">0.00</td><td class=\"num\"></td></tr>"), html);
        assertTrue(html.contains("<th>Pod</th><th class=\"num\">CPU saturated</th><th class=\"num\">I/O wait</th>"
                + "<th class=\"num\">network</th><th class=\"num\">unexplained</th><th class=\"num\">Host data</th>"), html);
        assertTrue(html.contains("used 90.0 % of its CPU limit or was throttled in 25.0 % of its CFS periods"), html);
        assertTrue(html.contains("disk moved 100 MiB/s"), html);

        // the chart stacks the causes where "allocated, not busy" was, so each bar still adds up to the group's time
        String chart = option(html, "idle-chart");
        assertTrue(chart.contains("{\"name\":\"busy\",\"type\":\"bar\",\"stack\":\"time\",\"color\":\"#2f6fb0\",\"data\":[0.0,20.0,1.0]},"
                + "{\"name\":\"not busy: CPU saturated\",\"type\":\"bar\",\"stack\":\"time\",\"color\":\"#a04e12\",\"data\":[0.0,6.5,0.0]},"
                + "{\"name\":\"not busy: I/O wait\",\"type\":\"bar\",\"stack\":\"time\",\"color\":\"#d2731f\",\"data\":[0.0,2.25,4.0]},"
                + "{\"name\":\"not busy: network\",\"type\":\"bar\",\"stack\":\"time\",\"color\":\"#eb9a3c\",\"data\":[0.0,0.0,0.5]},"
                + "{\"name\":\"not busy: unexplained\",\"type\":\"bar\",\"stack\":\"time\",\"color\":\"#f7cd8e\",\"data\":[0.0,1.25,0.5]},"
                + "{\"name\":\"allocated, unmeasured\""), chart);
        assertFalse(chart.contains("\"name\":\"allocated, not busy\""), chart);
        assertTrue(chart.contains("\"data\":[\"(unallocated)\",\"acme-ml/train-7\",\"globex-lab/loader-0\"]"), chart);
    }

    @Test
    void perTenantAndPerNode() {
        String html = page("/idle?" + WINDOW + "&groupBy=tenant", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-causes=\"acme\"><td>acme</td><td class=\"num\">6.50</td><td class=\"num\">2.25</td>"
                + "<td class=\"num\">0.00</td><td class=\"num\">1.25</td><td class=\"num\">90.0 %</td></tr>"), html);
        assertTrue(html.contains("<tr data-group=\"globex\"><td>globex</td><td class=\"num\">1.00</td><td class=\"num\">5.00</td>"
                + "<td class=\"num\">0.50</td><td class=\"num\">0.00</td><td class=\"num\">0.00</td><td class=\"num\">6.50</td>"
                + "<td class=\"num\">76.9 %</td></tr>"), html);

        html = page("/idle?" + WINDOW + "&groupBy=node", Fixtures.ADMIN);
        assertTrue(html.contains("<th>Node</th><th class=\"num\">CPU saturated</th>"), html);
        // gpu-a: 10 + 2 + 20 + 10 h; not busy (10 h held, 10 h empty, 2 h queued) is 22 of 42 h
        assertTrue(html.contains("<tr data-group=\"gpu-a\"><td>gpu-a</td><td class=\"num\">20.00</td><td class=\"num\">10.00</td>"
                + "<td class=\"num\">0.00</td><td class=\"num\">2.00</td><td class=\"num\">10.00</td><td class=\"num\">42.00</td>"
                + "<td class=\"num\">52.4 %</td></tr>"), html);
        assertTrue(html.contains("<tr data-causes=\"gpu-b\"><td>gpu-b</td><td class=\"num\">0.00</td><td class=\"num\">4.00</td>"
                + "<td class=\"num\">0.50</td><td class=\"num\">0.50</td><td class=\"num\">100.0 %</td></tr>"), html);
    }

    @Test
    void aLedgerThatGivesNoCausesSaysSoAndItsNotBusyTimeIsDrawnUnexplained() {
        // the fleet fixture's answer predates the causes
        String html = page("/idle?from=2026-11-23&to=2026-11-30&groupBy=tenant", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-causes=\"acme\"><td>acme</td><td class=\"num\" colspan=\"4\">not reported</td>"
                + "<td class=\"num\"></td></tr>"), html);
        String chart = option(html, "idle-chart");
        assertTrue(chart.contains("{\"name\":\"not busy: network\",\"type\":\"bar\",\"stack\":\"time\",\"color\":\"#eb9a3c\",\"data\":[0.0,0.0]},"
                + "{\"name\":\"not busy: unexplained\",\"type\":\"bar\",\"stack\":\"time\",\"color\":\"#f7cd8e\",\"data\":[0.0,40.25]}"), chart);
    }
}
