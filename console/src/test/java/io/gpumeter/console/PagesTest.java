package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each page shows the stand-in services' figures, asked with the user's own token. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class PagesTest {

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    @Test
    void withoutASessionEveryPageSendsToSignInAndBack() {
        for (String page : List.of("/fleet", "/hours?month=2026-11", "/fleet/card?uuid=GPU-aaaa-0001")) {
            given().redirects().follow(false).get(page).then().statusCode(303)
                    .header("Location", startsWith("http"))
                    .header("Location", containsString("/signin?next="));
        }
        given().redirects().follow(false).get("/").then().statusCode(303).header("Location", containsString("/signin"));
        assertTrue(StandIn.SEEN.isEmpty(), "nothing is asked of the services without a session: " + StandIn.SEEN);
    }

    @Test
    void fleetShowsEveryNodeAndCardWithItsOccupantsAtTheInstantAsked() {
        String html = page("/fleet?at=" + Fixtures.AT, Fixtures.ADMIN);
        assertTrue(html.contains("gpu-a") && html.contains("gpu-b"), html);
        // gpu-a: 4 cards, 2 held, 2 free, 1.75 of a card held; gpu-b: 2 cards, both free
        assertTrue(html.contains("<tr data-node=\"gpu-a\"><td>gpu-a<span class=\"sub\">lab</span></td><td class=\"num\">4</td>"
                + "<td class=\"num\">2</td><td class=\"num\">2</td><td class=\"num\">1.75</td></tr>"), html);
        // gpu-b: 2 cards, MIG slices of 6/7 of a card on one the device plugin does not name, 1 free
        assertTrue(html.contains("<tr data-node=\"gpu-b\"><td>gpu-b<span class=\"sub\">lab</span></td><td class=\"num\">2</td>"
                + "<td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">0.86</td></tr>"), html);
        assertTrue(html.contains("2 unit(s) on 1 card(s) the device plugin does not name (0.86 of a card)"), html);
        assertTrue(html.contains("acme-eval/eval-1") && html.contains("MIG 3g.40gb"), html);
        assertTrue(html.contains("href=\"/fleet/card?uuid=GPU-aaaa-0001&amp;at=2026-11-30T12%3A00%3A00Z\""), "a card links to its occupants");
        assertTrue(html.contains("acme-ml/train-7") && html.contains("globex-lab/notebook-2") && html.contains("acme-serve/llm-0"));
        assertTrue(html.contains("vGPU 50 % cores, 40960 MiB") && html.contains("whole card"));
        assertTrue(html.contains("id=\"fleet-chart-option\""), "the picture's data is on the page");
        assertTrue(html.contains("Showing 2026-11-30T12:00:00Z: 6 card(s), 3 held."), html);

        assertTrue(StandIn.SEEN.stream().anyMatch(s -> s.pathAndQuery().equals(
                "/api/v1/capacity?from=2026-11-30T11%3A59%3A00Z&to=2026-11-30T12%3A00%3A00Z&groupBy=cluster,node")), StandIn.SEEN.toString());
        assertTrue(StandIn.SEEN.stream().anyMatch(s -> s.pathAndQuery().equals(
                "/api/v1/fleet/occupants?at=2026-11-30T12%3A00%3A00Z")), StandIn.SEEN.toString());
        assertEquals(2, StandIn.SEEN.size(), "one capacity read and one occupants read, whatever the number of nodes");
        assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void aCardShowsItsOccupants() {
        String html = page("/fleet/card?uuid=GPU-aaaa-0001&at=" + Fixtures.AT, Fixtures.ADMIN);
        assertTrue(html.contains("<td>acme-ml/train-7</td><td>acme</td><td>vision</td><td>vGPU 50 % cores, 40960 MiB</td><td class=\"num\">0.50</td>"), html);
        assertTrue(html.contains("<td>globex-lab/notebook-2</td><td>globex</td>"), html);
        assertTrue(html.contains("On gpu-a; showing 2026-11-30T12:00:00Z."), html);
        assertEquals(List.of("/api/v1/gpus/GPU-aaaa-0001/occupants?at=2026-11-30T12%3A00%3A00Z"),
                StandIn.SEEN.stream().map(StandIn.Seen::pathAndQuery).toList());
        assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void hoursShowTheLedgersHoursBesideBillingsCost() {
        String html = page("/hours?month=" + Fixtures.MONTH, Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-tenant=\"acme\"><td>acme</td><td class=\"num\">120.50</td><td class=\"num\">80.25</td>"
                + "<td class=\"num\">40.25</td><td class=\"num\">90.0 %</td><td>HIGH</td><td class=\"num\">361.50</td>"
                + "<td class=\"num\">240.75</td><td class=\"num\">120.75</td></tr>"), html);
        assertTrue(html.contains("<tr data-tenant=\"globex\"><td>globex</td><td class=\"num\">30.00</td>"), html);
        assertTrue(html.contains("<th>Total</th><th class=\"num\">150.50</th>"), html);
        assertTrue(html.contains("Cost (USD)"), html);
        assertTrue(html.contains("href=\"/hours/report.csv?month=2026-11\""), "the CSV behind the cost");
        assertTrue(html.contains("/api/v1/gpu-hours?from=2026-11-01T00%3A00%3A00Z&amp;to=2026-12-01T00%3A00%3A00Z&amp;groupBy=tenant"), html);
        assertTrue(html.contains("id=\"hours-chart-option\"") && html.contains("id=\"cost-chart-option\""));
        assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void theCsvComesFromBillingWithTheUsersToken() {
        StandIn.override(Backend.BILLING, "/api/v1/reports/monthly", new StandIn.Reply(200, "text/csv", Fixtures.CSV));
        String csv = given().cookie(Session.COOKIE, Fixtures.ADMIN).get("/hours/report.csv?month=2026-11").then().statusCode(200)
                .header("Content-Type", startsWith("text/csv")).header("Content-Disposition", containsString("gpumeter-tenant-2026-11.csv"))
                .extract().asString();
        assertEquals(Fixtures.CSV, csv);
        assertEquals("/api/v1/reports/monthly?month=2026-11&format=csv&groupBy=tenant", StandIn.SEEN.get(0).pathAndQuery());
        assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void aTenantSeesNoFleetAndNoOtherTenant() {
        String hours = page("/hours?month=" + Fixtures.MONTH, Fixtures.ACME);
        assertFalse(nav(hours).contains("/fleet"), "no fleet menu for a tenant");
        assertTrue(hours.contains("data-tenant=\"acme\""), hours);
        assertFalse(hours.contains("globex"), "no other tenant's name");
        assertTrue(hours.contains("tenant acme"), "the header says who is signed in");
        assertForwarded(Fixtures.ACME);

        given().redirects().follow(false).cookie(Session.COOKIE, Fixtures.ACME).get("/").then().statusCode(303)
                .header("Location", containsString("/hours"));

        StandIn.reset();
        String fleet = page("/fleet?at=" + Fixtures.AT, Fixtures.ACME);
        assertTrue(fleet.contains("ledger-service refused: you may not see this"), fleet);
        assertTrue(fleet.contains("a tenant token may not read fleet-wide figures"), fleet);
        assertFalse(fleet.contains("gpu-a") || fleet.contains("globex"), fleet);
        assertFalse(nav(fleet).contains("/fleet"));

        String card = page("/fleet/card?uuid=GPU-aaaa-0001&at=" + Fixtures.AT, Fixtures.ACME);
        assertTrue(card.contains("acme-ml/train-7"), card);
        assertFalse(card.contains("globex"), card);
        assertTrue(nav(page("/hours?month=" + Fixtures.MONTH, Fixtures.ADMIN)).contains("href=\"/fleet\""), "a fleet menu for the admin");
    }

    @Test
    void idleSplitsEveryGroupsCardHours() {
        String html = page("/idle?from=2026-11-23&to=2026-11-30&groupBy=tenant", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-group=\"acme\"><td>acme</td><td class=\"num\">80.00</td><td class=\"num\">40.25</td>"
                + "<td class=\"num\">0.00</td><td class=\"num\">0.00</td><td class=\"num\">0.00</td><td class=\"num\">120.25</td>"
                + "<td class=\"num\">33.5 %</td></tr>"), html);
        assertTrue(html.contains("<tr data-group=\"(unallocated)\"><td>(unallocated)</td><td class=\"num\">0.00</td>"
                + "<td class=\"num\">0.00</td><td class=\"num\">0.00</td><td class=\"num\">10.00</td><td class=\"num\">100.00</td>"
                + "<td class=\"num\">110.00</td><td class=\"num\">100.0 %</td></tr>"), html);
        assertEquals(List.of("/api/v1/idle?from=2026-11-23T00%3A00%3A00Z&to=2026-11-30T00%3A00%3A00Z&groupBy=tenant"),
                StandIn.SEEN.stream().map(StandIn.Seen::pathAndQuery).toList());
        assertForwarded(Fixtures.ADMIN);

        StandIn.reset();
        String tenant = page("/idle?from=2026-11-23&to=2026-11-30", Fixtures.ACME);
        assertFalse(nav(tenant).contains("/idle"), "no idle menu for a tenant");
        assertTrue(tenant.contains("ledger-service refused: you may not see this"), tenant);
        assertFalse(tenant.contains("unallocated"), tenant);

        StandIn.reset();
        html = page("/idle?from=2026-11-30&to=2026-11-23", Fixtures.ADMIN);
        assertTrue(html.contains("The window is empty"), html);
        html = page("/idle?groupBy=pod", Fixtures.ADMIN);
        assertTrue(html.contains("groupBy must be tenant or node"), html);
        assertTrue(StandIn.SEEN.isEmpty());
    }

    @Test
    void queuesShowTheWaitsPercentilesInWords() {
        String html = page("/queues?from=2026-11-23&to=2026-11-30&groupBy=clusterQueue", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-group=\"team-a-cq\"><td>team-a-cq</td><td class=\"num\">12</td><td class=\"num\">1 min 30 s</td>"
                + "<td class=\"num\">30 min</td><td class=\"num\">1 h 2 min</td><td class=\"num\">2 h 1 min</td></tr>"), html);
        assertTrue(html.contains("<td>team-b-cq</td><td class=\"num\">3</td><td class=\"num\">30 s</td>"), html);
        assertEquals(List.of("/api/v1/queue-wait?from=2026-11-23T00%3A00%3A00Z&to=2026-11-30T00%3A00%3A00Z&groupBy=clusterQueue"),
                StandIn.SEEN.stream().map(StandIn.Seen::pathAndQuery).toList());
        assertForwarded(Fixtures.ADMIN);
        StandIn.reset();
        String tenant = page("/queues?from=2026-11-23&to=2026-11-30", Fixtures.ACME);
        assertFalse(nav(tenant).contains("/queues"));
        assertTrue(tenant.contains("ledger-service refused: you may not see this") && !tenant.contains("team-a-cq"), tenant);
    }

    @Test
    void failuresShowCountsRatesAndTimeToRecover() {
        String html = page("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-group=\"XID_79\"><td>XID_79</td><td class=\"num\">4</td><td class=\"num\">3</td>"
                + "<td class=\"num\">1</td><td class=\"num\">3.33</td><td class=\"num\">10 min</td><td class=\"num\">12 min 30 s</td>"
                + "<td class=\"\">hardware</td></tr>"), html);
        assertTrue(html.contains("<td>OOMKilled</td><td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">0</td>"
                + "<td class=\"num\">1.67</td><td class=\"num\"></td><td class=\"num\"></td><td class=\"\">workload</td>"), html);
        assertTrue(StandIn.SEEN.get(0).pathAndQuery().endsWith("&groupBy=cause"));
        assertForwarded(Fixtures.ADMIN);
        StandIn.reset();
        html = page("/failures?groupBy=pod", Fixtures.ADMIN);
        assertTrue(html.contains("groupBy must be one of cause, rootCause, node, tenant"), html);
        assertTrue(StandIn.SEEN.isEmpty());
    }

    @Test
    void capacitySetsUsableCardsAgainstTheCardsNeeded() {
        String html = page("/capacity?horizon=30d", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-model=\"NVIDIA-H100-80GB-HBM3\" class=\"short\"><td>NVIDIA-H100-80GB-HBM3</td>"
                + "<td class=\"num\">15.20</td><td class=\"num\">19.36</td><td class=\"num\">17.65 – 21.08</td>"
                + "<td class=\"num\">-4.16</td><td class=\"num\">-5.88 – -2.45</td><td class=\"num\">5.5 %</td>"
                + "<td>NVIDIA-H100-80GB-HBM3: 4.16 cards short on 2026-12-30</td></tr>"), html);
        assertTrue(html.contains("id=\"capacity-chart-option\"") && html.contains("id=\"demand-chart-option\""));
        assertEquals(List.of("/api/v1/capacity?horizon=30d"), StandIn.SEEN.stream().map(StandIn.Seen::pathAndQuery).toList());
        assertForwarded(Fixtures.ADMIN);
        StandIn.reset();
        String tenant = page("/capacity", Fixtures.ACME);
        assertFalse(nav(tenant).contains("/capacity"));
        assertTrue(tenant.contains("billing-service refused: you may not see this") && !tenant.contains("H100"), tenant);
    }

    @Test
    void alertsListEachEpisodeWithWhatItIsAbout() {
        String html = page("/alerts?state=all&since=2026-11-29T12:00:00Z", Fixtures.ADMIN);
        assertTrue(html.contains("<tr><td>GpuXidFatal</td><td>critical</td><td>firing</td><td>2026-11-30T10:00:00Z</td><td></td>"
                + "<td>node=gpu-a, gpu_uuid=GPU-aaaa-0001</td><td>Xid 79 on GPU-aaaa-0001: the card fell off the bus</td></tr>"), html);
        assertTrue(html.contains("<td>SloBurnRateHigh</td><td>warning</td><td>resolved</td>"), html);
        assertEquals(List.of("/api/v1/alerts?state=all&since=2026-11-29T12%3A00%3A00Z"),
                StandIn.SEEN.stream().map(StandIn.Seen::pathAndQuery).toList());
        assertForwarded(Fixtures.ADMIN);
        StandIn.reset();
        StandIn.override(Backend.ALERT, "/api/v1/alerts", StandIn.Reply.json("[]"));
        assertTrue(page("/alerts", Fixtures.ADMIN).contains("No alert is firing."));
        StandIn.reset();
        String tenant = page("/alerts", Fixtures.ACME);
        assertFalse(nav(tenant).contains("/alerts"));
        assertTrue(tenant.contains("alert-service refused: you may not see this") && !tenant.contains("GpuXidFatal"), tenant);
    }

    @Test
    void aProblemIsShownInItsOwnWords() {
        StandIn.override(Backend.LEDGER, "/api/v1/gpu-hours", StandIn.Reply.problem(400, "Bad Request", "the window is longer than 400 days"));
        String html = page("/hours?month=" + Fixtures.MONTH, Fixtures.ADMIN);
        assertTrue(html.contains("ledger-service answered 400: Bad Request"), html);
        assertTrue(html.contains("the window is longer than 400 days"), html);
        assertFalse(html.contains("Exception"), html);

        StandIn.override(Backend.LEDGER, "/api/v1/gpu-hours", StandIn.Reply.problem(401, "Unauthorized", "the token has expired"));
        html = page("/hours?month=" + Fixtures.MONTH, Fixtures.ADMIN);
        assertTrue(html.contains("ledger-service did not accept your token") && html.contains("sign in with a fresh one"), html);

        StandIn.override(Backend.LEDGER, "/api/v1/gpu-hours", new StandIn.Reply(502, "text/html", "<html>bad gateway</html>"));
        html = page("/hours?month=" + Fixtures.MONTH, Fixtures.ADMIN);
        assertTrue(html.contains("ledger-service answered 502"), html);
        assertFalse(html.contains("bad gateway"), html);

        StandIn.override(Backend.BILLING, "/api/v1/reports/monthly", StandIn.Reply.hangUp());
        StandIn.override(Backend.LEDGER, "/api/v1/gpu-hours", StandIn.Reply.json("[]"));
        html = page("/hours?month=" + Fixtures.MONTH, Fixtures.ADMIN);
        assertTrue(html.contains("billing-service is unreachable") && html.contains("Check that billing-service is running."), html);
        assertFalse(html.contains("IOException") || html.contains("java."), html);
    }

    @Test
    void emptyAnswersSayWhatToDo() {
        StandIn.override(Backend.LEDGER, "/api/v1/gpu-hours", StandIn.Reply.json("[]"));
        String html = page("/hours?month=2020-01", Fixtures.ADMIN);
        assertTrue(html.contains("No GPU-hours were allocated in 2020-01.") && html.contains("Pick another month"), html);

        StandIn.override(Backend.LEDGER, "/api/v1/capacity", StandIn.Reply.json("[]"));
        html = page("/fleet?at=2020-01-01T00:00:00Z", Fixtures.ADMIN);
        assertTrue(html.contains("No GPU node was known at 2020-01-01T00:00:00Z.") && html.contains("./gpumeter up --demo"), html);
    }

    @Test
    void anUnreadableInstantOrMonthIsSaidSoAndNothingIsAsked() {
        String html = page("/fleet?at=yesterday", Fixtures.ADMIN);
        assertTrue(html.contains("That instant is not readable") && html.contains("got &#39;yesterday&#39;"), html);
        html = page("/hours?month=13-2026", Fixtures.ADMIN);
        assertTrue(html.contains("That month is not readable"), html);
        assertTrue(StandIn.SEEN.isEmpty(), StandIn.SEEN.toString());
    }

    @Test
    void pagesAreNeitherCachedNorFramedAndLoadNothingFromElsewhere() {
        given().cookie(Session.COOKIE, Fixtures.ADMIN).get("/hours?month=" + Fixtures.MONTH).then().statusCode(200)
                .header("Content-Security-Policy", containsString("default-src 'self'"))
                .header("X-Frame-Options", "DENY")
                .body(not(containsString("https://")));
        given().get("/webjars/echarts/dist/echarts.min.js").then().statusCode(200);
        given().get("/webjars/htmx.org/dist/htmx.min.js").then().statusCode(200);
        given().get("/static/console.js").then().statusCode(200);
    }

    static String page(String path, String token) {
        return given().redirects().follow(false).cookie(Session.COOKIE, token).get(path).then().statusCode(200)
                .extract().asString();
    }

    static String nav(String html) {
        return html.substring(html.indexOf("<nav>"), html.indexOf("</nav>"));
    }

    private static void assertForwarded(String token) {
        assertFalse(StandIn.SEEN.isEmpty());
        for (StandIn.Seen s : StandIn.SEEN) {
            assertEquals("Bearer " + token, s.authorization(), s.backend() + " " + s.pathAndQuery() + " got the user's token");
        }
    }
}
