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
        assertTrue(StandIn.seen().isEmpty(), "nothing is asked of the services without a session: " + StandIn.seen());
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

        // the ledger lays the fleet out: one read of a page of nodes, whatever their number
        assertEquals(List.of("/api/v1/fleet/occupants?at=2026-11-30T12%3A00%3A00Z&layout=true&limit=50&offset=0"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        // every node's cards per pool, as the ledger counts them
        assertTrue(html.contains("<tr data-pool=\"lab/NVIDIA-H100-80GB-HBM3\"><td>NVIDIA-H100-80GB-HBM3<span class=\"sub\">lab</span></td>"
                + "<td class=\"num\">1</td><td class=\"num\">4</td><td class=\"num\">2</td><td class=\"num\">2</td><td class=\"num\">1.75</td></tr>"), html);
        assertFalse(html.contains("Nodes 1–2"), "one page of nodes: no pager");
        assertForwarded(Fixtures.ADMIN);
    }

    /**
     * 120 nodes in the ledger's layout, 50 a page: the second page asks the ledger from node 50, lists nodes 51-100
     * and links both ways; the pools' table counts all 120.
     */
    @Test
    void theFleetPagesThroughItsNodesAsTheLedgerDoes() {
        StandIn.override(Backend.LEDGER, "/api/v1/fleet/occupants", StandIn.Reply.json(Fixtures.layout(java.util.stream.IntStream
                        .range(50, 100).mapToObj(i -> Fixtures.node("n" + i, "L40S", true, 1, 0, "0",
                                Fixtures.card(null, "L40S", "COUNTED", "0", ""))).toList(),
                List.of(Fixtures.group("L40S", 120, 120, 0, "0"))).replace("\"totalNodes\":50,\"offset\":0", "\"totalNodes\":120,\"offset\":50")));
        String html = page("/fleet?at=" + Fixtures.AT + "&offset=50", Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/fleet/occupants?at=2026-11-30T12%3A00%3A00Z&layout=true&limit=50&offset=50"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        assertTrue(html.contains("Nodes 51–100 of 120."), html);
        assertTrue(html.contains("href=\"/fleet?at=2026-11-30T12%3A00%3A00Z&amp;offset=0\">&larr; earlier page</a>")
                && html.contains("href=\"/fleet?at=2026-11-30T12%3A00%3A00Z&amp;offset=100\">next page &rarr;</a>"), html);
        assertTrue(html.contains("Showing 2026-11-30T12:00:00Z: 120 card(s), 0 held."), html);
        assertTrue(html.contains("<tr data-node=\"n50\">") && html.contains("<tr data-node=\"n99\">"), html);
    }

    /** A pool's row lists that pool's nodes: the ledger is asked for the group, and the page says how to see all. */
    @Test
    void aGroupsRowDrillsDownToItsNodes() {
        String html = page("/fleet?at=" + Fixtures.AT + "&groupBy=model&group=prod/L40S", Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/fleet/occupants?at=2026-11-30T12%3A00%3A00Z&layout=true&groupBy=model&group=prod%2FL40S"
                + "&limit=50&offset=0"), StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        assertTrue(html.contains("Nodes of prod/L40S only. <a href=\"/fleet?at=2026-11-30T12%3A00%3A00Z&amp;groupBy=model\">Every node</a>"), html);
        assertTrue(html.contains("id=\"group-by-other\" href=\"/fleet?at=2026-11-30T12%3A00%3A00Z&amp;groupBy=pool\""), html);
        String all = page("/fleet?at=" + Fixtures.AT, Fixtures.ADMIN);
        assertTrue(all.contains("<a href=\"/fleet?at=2026-11-30T12%3A00%3A00Z&amp;group="), "a pool's row links to its nodes: " + all);
    }

    @Test
    void aCardShowsItsOccupants() {
        String html = page("/fleet/card?uuid=GPU-aaaa-0001&at=" + Fixtures.AT, Fixtures.ADMIN);
        assertTrue(html.contains("<td>acme-ml/train-7</td><td>acme</td><td>vision</td><td>vGPU 50 % cores, 40960 MiB</td><td class=\"num\">0.50</td>"), html);
        assertTrue(html.contains("<td>globex-lab/notebook-2</td><td>globex</td>"), html);
        assertTrue(html.contains("On gpu-a; showing 2026-11-30T12:00:00Z."), html);
        assertEquals(java.util.Set.of("/api/v1/gpus/GPU-aaaa-0001/occupants?at=2026-11-30T12%3A00%3A00Z",
                        "/api/v1/gpus/GPU-aaaa-0001/usage?from=2026-11-30T10%3A00%3A00Z&to=2026-11-30T12%3A01%3A00Z",
                        "/api/v1/changes/bulk"),
                java.util.Set.copyOf(StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList()));
        // the card's usage curves: its SM activity and the container's share of its cores, no memory
        assertTrue(html.contains("\"name\":\"card SM_ACTIVE\"") && html.contains("[\"2026-11-30T11:58:00Z\",0.5]")
                && html.contains("[\"2026-11-30T11:59:00Z\",0.25]"), html);
        assertTrue(html.contains("\"name\":\"container acme-ml/train-7/main cores\"") && html.contains("[\"2026-11-30T11:59:00Z\",0.45]"), html);
        assertFalse(html.contains("FB_USED"), html);
        assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void hoursShowTheLedgersHoursBesideBillingsCost() {
        String html = page("/hours?month=" + Fixtures.MONTH, Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-tenant=\"acme\"><td>acme</td><td class=\"num\">120.50</td><td class=\"num\">80.25</td>"
                + "<td class=\"num\">40.25</td><td class=\"num\">90.0 %</td><td>HIGH</td><td class=\"num\">361.50</td>"
                + "<td class=\"num\">240.75</td><td class=\"num\">120.75</td><td class=\"num\">96.40</td>"
                + "<td class=\"num\">19.28</td><td class=\"num\">33.74</td></tr>"), html);
        assertTrue(html.contains("<tr data-tenant=\"globex\"><td>globex</td><td class=\"num\">30.00</td>"), html);
        assertTrue(html.contains("<th>Total</th><th class=\"num\">150.50</th>"), html);
        assertTrue(html.contains("Cost (USD)"), html);
        assertTrue(html.contains("href=\"/hours/report.csv?month=2026-11\""), "the CSV behind the cost");
        assertTrue(html.contains("/api/v1/gpu-hours?from=2026-11-01T00%3A00%3A00Z&amp;to=2026-12-01T00%3A00%3A00Z&amp;groupBy=tenant"), html);
        assertTrue(html.contains("id=\"hours-chart-option\"") && html.contains("id=\"cost-chart-option\""));
        // by default the month's days, from billing's cost series
        assertTrue(html.contains("<tr data-bucket=\"2026-11-29\" data-group=\"acme\"><td>2026-11-29</td><td>acme</td><td class=\"num\">4.50</td>"
                + "<td class=\"num\">3.00</td><td class=\"num\">1.50</td><td class=\"num\">18.45</td><td class=\"num\">12.30</td>"
                + "<td class=\"num\">6.15</td><td class=\"num\">3.60</td></tr>"), html);
        assertTrue(html.contains("<strong id=\"view-day\">day</strong>") && html.contains("href=\"/hours?month=2026-11&amp;view=week&amp;groupBy=tenant\""), html);
        String hoursChart = option(html, "hours-chart");
        // acme's used hours on the 29th and 30th (the last two of 30 days), then its idle hours in the same stack
        assertTrue(hoursChart.contains("\"name\":\"acme\",\"type\":\"bar\",\"stack\":\"allocated\"") && hoursChart.contains("0.0,3.0,1.0]")
                && hoursChart.contains("0.0,1.5,1.0]") && hoursChart.contains("0.0,30.0,0.0]"), hoursChart);
        assertTrue(option(html, "cost-chart").contains("0.0,18.45,8.2]"), html);
        assertEquals(List.of("/api/v1/gpu-hours?from=2026-11-01T00%3A00%3A00Z&to=2026-12-01T00%3A00%3A00Z&groupBy=tenant",
                        "/api/v1/reports/monthly?month=2026-11&format=json&groupBy=tenant", "/api/v1/reports/series?month=2026-11&bucket=day&groupBy=tenant"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList());
        assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void theHoursAreAskedForBillingsMonthNotTheUtcMonth() {
        // billing counts November between Berlin's midnights: 31 October 23:00 UTC to 30 November 23:00 UTC
        StandIn.override(Backend.BILLING, "/api/v1/reports/series", StandIn.Reply.json("""
                {"month":"2026-11","bucket":"month","groupBy":"tenant","timeZone":"Europe/Berlin","currency":"EUR",
                 "buckets":[{"label":"2026-11","start":"2026-10-31T23:00:00Z","end":"2026-11-30T23:00:00Z"}],"lines":[]}"""));
        page("/hours?month=2026-11&view=month", Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals(
                "/api/v1/gpu-hours?from=2026-10-31T23%3A00%3A00Z&to=2026-11-30T23%3A00%3A00Z&groupBy=tenant")),
                StandIn.seen().toString());
        StandIn.reset();
        StandIn.override(Backend.BILLING, "/api/v1/reports/series", StandIn.Reply.problem(503, "Service Unavailable", "down"));
        String html = page("/hours?month=2026-11&view=month", Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals(
                "/api/v1/gpu-hours?from=2026-11-01T00%3A00%3A00Z&to=2026-12-01T00%3A00%3A00Z&groupBy=tenant")),
                StandIn.seen().toString());
        assertTrue(html.contains("The GPU-hours are for the UTC month 2026-11"), html);
    }

    @Test
    void aMonthBillingNamedBeforeIsAskedOfTheLedgerAtOnceAndAgainWhenBillingNowSaysOtherwise() {
        String utc = "/api/v1/gpu-hours?from=2026-11-01T00%3A00%3A00Z&to=2026-12-01T00%3A00%3A00Z&groupBy=tenant";
        String berlin = "/api/v1/gpu-hours?from=2026-10-31T23%3A00%3A00Z&to=2026-11-30T23%3A00%3A00Z&groupBy=tenant";
        try {
            page("/hours?month=2026-11&view=month", Fixtures.ADMIN); // billing names its UTC month
            StandIn.forget();
            StandIn.override(Backend.BILLING, "/api/v1/reports/series", StandIn.Reply.json("""
                    {"month":"2026-11","bucket":"month","groupBy":"tenant","timeZone":"Europe/Berlin","currency":"EUR",
                     "buckets":[{"label":"2026-11","start":"2026-10-31T23:00:00Z","end":"2026-11-30T23:00:00Z"}],"lines":[]}"""));
            // the UTC month is asked for before billing's series answers; the series then says Berlin, which is asked
            // for again, and the page names that call alone
            String html = page("/hours?month=2026-11&view=month", Fixtures.ADMIN);
            assertEquals(List.of(berlin, utc), gpuHoursAsked());
            assertTrue(html.contains(berlin.replace("&", "&amp;")) && !html.contains(utc.replace("&", "&amp;")), html);
            StandIn.forget();
            // now Berlin's window is the one asked for beside billing's reads, and the series confirms it
            page("/hours?month=2026-11&view=month", Fixtures.ADMIN);
            assertEquals(List.of(berlin), gpuHoursAsked());
        } finally {
            StandIn.reset();
            page("/hours?month=2026-11&view=month", Fixtures.ADMIN); // billing's UTC month again, for the other tests
            StandIn.forget();
        }
    }

    private static List<String> gpuHoursAsked() {
        return StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).filter(p -> p.startsWith("/api/v1/gpu-hours")).sorted().toList();
    }

    @Test
    void hoursShowTheEnergyEachGroupDrewBesideItsCostAndBillingsPriceOfIt() {
        String html = page("/hours?month=" + Fixtures.MONTH + "&view=month", Fixtures.ADMIN);
        assertTrue(html.contains("<th class=\"num\" title=\"what the group's units drew: each minute of a card's energy split among "
                + "the units on it\">Energy kWh</th><th class=\"num\">Energy cost</th><th class=\"num\">CO2e kg</th>"), html);
        // globex drew 12.25 kWh in a cluster billing prices no energy for: no cost and no CO2e, rather than zero
        assertTrue(html.contains("<td class=\"num\">0.00</td><td class=\"num\">60.00</td><td class=\"num\">12.25</td>"
                + "<td class=\"num\"></td><td class=\"num\"></td></tr>"), html);
        // the month's foot: 96.4 + 12.25 kWh, and the only priced energy, acme's
        assertTrue(html.contains("<th class=\"num\">180.75</th><th class=\"num\">108.65</th><th class=\"num\">19.28</th>"
                + "<th class=\"num\">33.74</th></tr>"), html);
    }

    @Test
    void hoursPerWeekPerMonthAndPerTeamAskTheServicesSo() {
        page("/hours?month=2026-11&view=week&groupBy=team", Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/gpu-hours?from=2026-11-01T00%3A00%3A00Z&to=2026-12-01T00%3A00%3A00Z&groupBy=team",
                        "/api/v1/reports/monthly?month=2026-11&format=json&groupBy=team", "/api/v1/reports/series?month=2026-11&bucket=week&groupBy=team"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList());
        StandIn.forget();
        String month = page("/hours?month=2026-11&view=month", Fixtures.ADMIN);
        // the month whole is one bucket of billing's series: asked only for where billing's month begins and ends
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals(
                "/api/v1/reports/series?month=2026-11&bucket=month&groupBy=tenant")), StandIn.seen().toString());
        assertTrue(month.contains("id=\"hours-chart-option\"") && !month.contains("id=\"series-table\""), month);
        assertTrue(page("/hours?month=2026-11&view=hour", Fixtures.ADMIN).contains("view must be one of day, week, month, got &#39;hour&#39;."));
    }

    @Test
    void anAnswerThatIsNotJsonIsShownAsAProblemNotAFailure() {
        StandIn.override(Backend.BILLING, "/api/v1/reports/monthly", new StandIn.Reply(200, "text/html", "<html>a proxy's sign-in page</html>"));
        String html = page("/hours?month=" + Fixtures.MONTH, Fixtures.ADMIN);
        assertTrue(html.contains("billing-service answered something the console cannot read")
                && html.contains("was text/html, not JSON.") && html.contains("gpumeter.console.billing-url"), html);
        assertFalse(html.contains("proxy&#39;s sign-in page") || html.contains("proxy's sign-in page"), html);
        // the ledger's hours are still shown, without cost
        assertTrue(html.contains("<tr data-tenant=\"acme\"><td>acme</td><td class=\"num\">120.50</td>"), html);
    }

    @Test
    void theCsvComesFromBillingWithTheUsersToken() {
        StandIn.override(Backend.BILLING, "/api/v1/reports/monthly", new StandIn.Reply(200, "text/csv", Fixtures.CSV));
        String csv = given().cookie(Session.COOKIE, Fixtures.session(Fixtures.ADMIN)).get("/hours/report.csv?month=2026-11").then().statusCode(200)
                .header("Content-Type", startsWith("text/csv")).header("Content-Disposition", containsString("gpumeter-tenant-2026-11.csv"))
                .extract().asString();
        assertEquals(Fixtures.CSV, csv);
        assertEquals("/api/v1/reports/monthly?month=2026-11&format=csv&groupBy=tenant", StandIn.seen().get(0).pathAndQuery());
        assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void theFocusExportComesFromBillingInFocusColumns() {
        assertTrue(page("/hours?month=2026-11", Fixtures.ADMIN).contains("href=\"/hours/focus.csv?month=2026-11\""));
        String focus = "BilledCost,BillingPeriodStart,SubAccountName\n361.50,2026-11-01T00:00:00Z,acme\n";
        StandIn.override(Backend.BILLING, "/api/v1/reports/monthly", new StandIn.Reply(200, "text/csv", focus));
        StandIn.forget();
        String body = given().cookie(Session.COOKIE, Fixtures.session(Fixtures.ACME)).get("/hours/focus.csv?month=2026-11").then().statusCode(200)
                .header("Content-Type", startsWith("text/csv")).header("Content-Disposition", containsString("gpumeter-focus-tenant-2026-11.csv"))
                .extract().asString();
        assertEquals(focus, body);
        assertEquals("/api/v1/reports/monthly?month=2026-11&format=focus&groupBy=tenant", StandIn.seen().get(0).pathAndQuery());
        assertForwarded(Fixtures.ACME);
    }

    @Test
    void aTenantSeesNoFleetAndNoOtherTenant() {
        String hours = page("/hours?month=" + Fixtures.MONTH, Fixtures.ACME);
        assertFalse(nav(hours).contains("/fleet"), "no fleet menu for a tenant");
        assertTrue(hours.contains("data-tenant=\"acme\""), hours);
        assertFalse(hours.contains("globex"), "no other tenant's name");
        assertTrue(hours.contains("tenant acme"), "the header says who is signed in");
        assertForwarded(Fixtures.ACME);

        given().redirects().follow(false).cookie(Session.COOKIE, Fixtures.session(Fixtures.ACME)).get("/").then().statusCode(303)
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
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        assertForwarded(Fixtures.ADMIN);

        StandIn.reset();
        String tenant = page("/idle?from=2026-11-23&to=2026-11-30", Fixtures.ACME);
        assertFalse(nav(tenant).contains("/idle"), "no idle menu for a tenant");
        assertTrue(tenant.contains("ledger-service refused: you may not see this"), tenant);
        assertFalse(tenant.contains("unallocated"), tenant);

        StandIn.reset();
        html = page("/idle?from=2026-11-30&to=2026-11-23", Fixtures.ADMIN);
        assertTrue(html.contains("The window is empty"), html);
        html = page("/idle?groupBy=pool", Fixtures.ADMIN);
        assertTrue(html.contains("groupBy must be tenant, node or pod"), html);
        assertTrue(StandIn.seen().isEmpty());
    }

    @Test
    void queuesShowTheWaitsPercentilesInWords() {
        String html = page("/queues?from=2026-11-23&to=2026-11-30&groupBy=clusterQueue", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-group=\"team-a-cq\"><td>team-a-cq</td><td class=\"num\">12</td><td class=\"num\">1 min 30 s</td>"
                + "<td class=\"num\">30 min</td><td class=\"num\">1 h 2 min</td><td class=\"num\">2 h 1 min</td></tr>"), html);
        assertTrue(html.contains("<td>team-b-cq</td><td class=\"num\">3</td><td class=\"num\">30 s</td>"), html);
        assertEquals(List.of("/api/v1/queue-wait/pending?at=2026-11-30T00%3A00%3A00Z",
                        "/api/v1/queue-wait?from=2026-11-23T00%3A00%3A00Z&to=2026-11-30T00%3A00%3A00Z&groupBy=clusterQueue",
                        "/api/v1/volcano-jobs?from=2026-11-23T00%3A00%3A00Z&to=2026-11-30T00%3A00%3A00Z&groupBy=queue&jobsPerGroup=10"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList());
        assertForwarded(Fixtures.ADMIN);
        StandIn.reset();
        String tenant = page("/queues?from=2026-11-23&to=2026-11-30", Fixtures.ACME);
        assertFalse(nav(tenant).contains("/queues"));
        assertTrue(tenant.contains("ledger-service refused: you may not see this") && !tenant.contains("team-a-cq"), tenant);
    }

    @Test
    void queuesListWhatWaitsWithItsPlaceAndAPodsDecisionsOnATimeline() {
        String html = page("/queues?from=2026-11-23&to=2026-11-30&groupBy=clusterQueue", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-object=\"acme-ml/job-train-9-3f2a1\"><td><a href=\"/queues?from=2026-11-23&amp;to=2026-11-30&amp;"
                + "groupBy=clusterQueue&amp;workload=acme-ml%2Fjob-train-9-3f2a1\" title=\"its scheduling decisions\">acme-ml/job-train-9-3f2a1</a> "
                + "<span class=\"sub\">workload</span></td><td>team-a-cq · acme-lq</td><td>pending</td><td>2026-11-30T11:00:00Z</td>"
                + "<td class=\"num\">1 h</td><td>quota</td><td class=\"num\">1</td><td class=\"num\">1</td><td class=\"num\">100</td>"
                + "<td class=\"num\">2</td><td><a class=\"triage\" href=\"/triage?namespace=acme-ml&amp;workload=job-train-9-3f2a1&amp;"
                + "cluster=lab&amp;at=2026-11-30T00%3A00%3A00Z\" title=\"why it waits: the diagnosis, its evidence and the fix\">triage</a></td></tr>"), html);
        assertTrue(html.contains("<td>default-scheduler</td><td>Pending</td><td>2026-11-30T11:50:00Z</td><td class=\"num\">10 min</td>"
                + "<td>insufficient_gpu</td><td class=\"num\"></td>"), html);
        assertFalse(html.contains("decisions-chart-option"), "no timeline before a pod is chosen");

        StandIn.reset();
        html = page("/queues?from=2026-11-23&to=2026-11-30&groupBy=clusterQueue&pod=globex-lab/notebook-3", Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/scheduling-decisions?namespace=globex-lab&pod=notebook-3")),
                StandIn.seen().toString());
        assertTrue(html.contains("<h2>pod globex-lab/notebook-3: Pending</h2>"), html);
        assertTrue(html.contains("<tr><td>2026-11-30T11:50:01Z</td><td>scheduling</td><td></td><td>FailedScheduling</td>"
                + "<td>0/2 nodes are available: 2 Insufficient nvidia.com/gpu.</td></tr>"), html);
        String timeline = option(html, "decisions-chart");
        assertTrue(timeline.contains("[\"2026-11-30T11:55:00Z\",\"scheduling\"]") && timeline.contains("\"created\""), timeline);
        assertForwarded(Fixtures.ADMIN);

        StandIn.reset();
        StandIn.override(Backend.LEDGER, "/api/v1/queue-wait/pending", StandIn.Reply.json("[]"));
        assertTrue(page("/queues?from=2026-11-23&to=2026-11-30", Fixtures.ADMIN).contains("Nothing is waiting in a queue."));
    }

    @Test
    void failuresShowCountsRatesAndTimeToRecover() {
        String html = page("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-group=\"XID_79\"><td>XID_79</td><td class=\"num\">4</td><td class=\"num\">3</td>"
                + "<td class=\"num\">1</td><td class=\"num\">3.33</td><td class=\"num\">10 min</td><td class=\"num\">12 min 30 s</td>"
                + "<td class=\"\">hardware</td></tr>"), html);
        assertTrue(html.contains("<td>OOMKilled</td><td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">0</td>"
                + "<td class=\"num\">1.67</td><td class=\"num\"></td><td class=\"num\"></td><td class=\"\">workload</td>"), html);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().endsWith("&groupBy=cause")), StandIn.seen().toString());
        assertForwarded(Fixtures.ADMIN);
        StandIn.reset();
        html = page("/failures?groupBy=pod", Fixtures.ADMIN);
        assertTrue(html.contains("groupBy must be one of cause, rootCause, node, tenant"), html);
        assertTrue(StandIn.seen().isEmpty());
    }

    @Test
    void capacitySetsUsableCardsAgainstTheCardsNeeded() {
        String html = page("/capacity?horizon=30d", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-model=\"NVIDIA-H100-80GB-HBM3\" class=\"short\"><td>NVIDIA-H100-80GB-HBM3</td>"
                + "<td>16 cards, 1 cordoned, 0 failed</td><td class=\"num\">15</td><td class=\"num\">15.92</td>"
                + "<td class=\"num\">15.18 – 16.65</td><td class=\"num\">10.0 % (measured)</td><td class=\"num\">2.0 % (floor)</td>"
                + "<td class=\"num\">5.0 % (measured)</td><td class=\"num gap\">-0.92</td><td class=\"num\">-1.65 – -0.18</td>"), html);
        assertTrue(html.contains("<tr data-shape=\"whole\" data-rule=\"acceptance\">"), html);
        // the margins are stacked on the base per model, beside the usable cards
        assertTrue(html.contains("\"name\":\"demand (base)\",\"type\":\"bar\"") || html.contains("demand (base)"), html);
        assertTrue(html.contains("\"stack\":\"needed\"") && html.contains("[1.6]") && html.contains("[0.32]")
                && html.contains("[0.8]") && html.contains("[13.2]"), html);
        assertEquals(List.of("/api/v1/capacity/plan?horizon=30d"), StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        assertForwarded(Fixtures.ADMIN);
        StandIn.reset();
        String tenant = page("/capacity", Fixtures.ACME);
        assertFalse(nav(tenant).contains("/capacity"));
        assertTrue(tenant.contains("slo-service refused: you may not see this") && !tenant.contains("H100"), tenant);
    }

    @Test
    void alertsListEachEpisodeWithWhatItIsAbout() {
        String html = page("/alerts?state=all&since=2026-11-29T12:00:00Z", Fixtures.ADMIN);
        assertTrue(html.contains("<tr><td>GpuXidFatal</td><td>critical</td><td>firing</td><td>2026-11-30T10:00:00Z</td><td></td>"
                + "<td>node=gpu-a, gpu_uuid=GPU-aaaa-0001</td><td>Xid 79 on GPU-aaaa-0001: the card fell off the bus</td>"
                + "<td><a href=\"http://alert-service:8084/api/v1/runbook#GpuXidFatal\" rel=\"noopener\" hx-boost=\"false\">runbook</a></td></tr>"), html);
        assertTrue(html.contains("<td>SloBurnRateHigh</td><td>warning</td><td>resolved</td>"), html);
        assertEquals(List.of("/api/v1/actions?from=2026-11-29T12%3A00%3A00Z&limit=200",
                        "/api/v1/alerts?state=all&since=2026-11-29T12%3A00%3A00Z"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList());
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
    void alertsShowTheActionsTakenAndThoseOnlyPlanned() {
        String html = page("/alerts?state=all&since=2026-11-29T12:00:00Z", Fixtures.ADMIN);
        assertTrue(html.contains("<tr class=\"enforced\"><td>GpuXidFatal</td><td>cordon</td><td><span class=\"mode\">enforce</span></td>"
                + "<td>gpu-a</td><td>APPLIED</td><td>2026-11-30T10:00:30Z</td><td></td><td>cordoned gpu-a</td></tr>"), html);
        assertTrue(html.contains("<tr class=\"dry-run\"><td>SloBurnRateHigh</td><td>ticket</td><td><span class=\"mode\">dry-run</span></td>"
                + "<td>llm</td><td>DRY_RUN</td><td>2026-11-30T08:00:20Z</td><td>DRY_RUN at 2026-11-30T09:00:05Z</td>"
                + "<td>dry-run: would open a ticket for llm</td></tr>"), html);
        StandIn.reset();
        StandIn.override(Backend.ALERT, "/api/v1/actions", StandIn.Reply.json("[]"));
        assertTrue(page("/alerts?state=all&since=2026-11-29T12:00:00Z", Fixtures.ADMIN)
                .contains("No runbook action was taken or planned since 2026-11-29T12:00:00Z."));
    }

    @Test
    void failuresListTheOpenIncidentsWithTheirEvidence() {
        String html = page("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause", Fixtures.ADMIN);
        assertTrue(html.contains("<tr><td>XID_79</td><td>hardware</td><td>lab · gpu-a · GPU-aaaa-0001 · 00000000:3B:00.0</td>"
                + "<td>2026-11-30T10:00:00Z</td>"), html);
        assertTrue(html.contains("<td class=\"num\">3</td><td class=\"evidence\">kmsg: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus</td>"
                + "<td class=\"links\"><a class=\"triage\" href=\"/triage?node=gpu-a&amp;cluster=lab&amp;at=2026-11-30T10%3A00%3A00Z\">triage</a>"), html);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/failures/incidents?open=true&limit=100")));
        assertForwarded(Fixtures.ADMIN);
        StandIn.reset();
        StandIn.override(Backend.LEDGER, "/api/v1/failures/incidents", StandIn.Reply.json("[]"));
        assertTrue(page("/failures?from=2026-11-23&to=2026-11-30", Fixtures.ADMIN).contains("No incident is open"));
    }

    @Test
    void budgetsSetEachTenantsForecastAgainstItsBudgetAndWatchTheDaysCost() {
        String html = page("/budgets?month=2026-11", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-tenant=\"acme\" class=\"\"><td>acme</td><td class=\"num\">1,000.00</td><td class=\"num\">900.00</td>"
                + "<td class=\"num\">98.3 %</td><td class=\"num\">915.25</td><td class=\"num\">100.00</td><td class=\"num\"></td></tr>"), html);
        assertTrue(html.contains("<tr data-tenant=\"globex\" class=\"over\"><td>globex</td><td class=\"num\">50.00</td><td class=\"num\">60.00</td>"
                + "<td class=\"num\">98.3 %</td><td class=\"num\">61.02</td><td class=\"num\">-10.00</td><td class=\"num\">11.02</td></tr>"), html);
        assertTrue(html.contains("<tr data-tenant=\"acme\" class=\"over\"><td>acme</td><td class=\"num\">96.00</td><td class=\"num\">40.00</td>"
                + "<td class=\"num\">5.00</td><td class=\"num\">55.00</td><td>yes</td></tr>"), html);
        assertTrue(html.contains("Cost anomalies, 2026-11-29"), html);
        assertTrue(html.contains("id=\"budget-chart-option\"") && html.contains("id=\"anomaly-chart-option\""));
        assertEquals(List.of("/api/v1/budget-forecasts?month=2026-11", "/api/v1/cost-anomalies",
                        "/api/v1/reports/series?month=2026-11&bucket=day&groupBy=tenant"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList());
        // the month against the budget: acme's spend by the 28th is nil, on the 30th (the forecast's day) its 900.00 of
        // 1,000.00 = 90 %; globex's 60.00 of 50.00 = 120 %, from its 60.00 on the 29th
        String burn = option(html, "burn-chart");
        assertTrue(burn.contains("\"name\":\"acme\",\"type\":\"line\"") && burn.contains("0.0,0.0,1.8,90.0]"), burn);
        assertTrue(burn.contains("0.0,120.0,120.0]") && burn.contains("\"name\":\"globex forecast\""), burn);
        assertForwarded(Fixtures.ADMIN);

        StandIn.reset();
        String tenant = page("/budgets?month=2026-11", Fixtures.ACME);
        assertTrue(nav(tenant).contains("href=\"/budgets\""), "a tenant has its budget in the menu");
        assertTrue(tenant.contains("<td>acme</td><td class=\"num\">1,000.00</td>"), tenant);
        assertFalse(tenant.contains("globex") || tenant.contains("Cost anomalies") || tenant.contains("anomaly watch"), tenant);
        assertEquals(List.of("/api/v1/budgets/acme/forecast?month=2026-11", "/api/v1/reports/series?month=2026-11&bucket=day&groupBy=tenant"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList());
        assertForwarded(Fixtures.ACME);

        StandIn.reset();
        StandIn.override(Backend.BILLING, "/api/v1/budgets/acme/forecast", StandIn.Reply.problem(404, "Not Found", "tenant 'acme' has no budget"));
        assertTrue(page("/budgets?month=2026-11", Fixtures.ACME).contains("acme has no budget."));
        StandIn.override(Backend.BILLING, "/api/v1/budget-forecasts", StandIn.Reply.json("[]"));
        StandIn.override(Backend.BILLING, "/api/v1/cost-anomalies", StandIn.Reply.json("""
                {"day":"2026-11-29","from":"2026-11-22","to":"2026-11-29","currency":"USD","trailingDays":7,"sigmas":3,
                 "minimumCost":10.00,"method":"trailing mean + 3 sigma","tenants":[]}"""));
        String empty = page("/budgets?month=2026-11", Fixtures.ADMIN);
        assertTrue(empty.contains("No tenant has a budget for 2026-11.") && empty.contains("No tenant had a cost on the last whole day"), empty);
    }

    @Test
    void slosShowAttainmentBudgetAndTheCurveAgainstTheObjective() {
        String html = page("/slos?to=2026-11-30T12:00:00Z&window=6h", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-slo=\"chat-ttft\" class=\"breached\"><td>chat-ttft</td><td>service=llm</td><td>TTFT</td>"
                + "<td>p99 ≤ 500 ms per minute</td><td class=\"num\">99.0 %</td><td>P7D</td><td>TICKET</td><td class=\"num\">98.5 %</td>"
                + "<td class=\"num\">9850 / 10000</td><td class=\"num\">-50.0 %</td><td class=\"num\">1</td></tr>"), html);
        assertTrue(html.contains("<tr data-slo=\"acme-availability\" class=\"\"><td>acme-availability</td><td>tenant=acme</td>"
                + "<td>AVAILABILITY</td><td></td><td class=\"num\">99.5 %</td><td>P7D</td><td>OK</td><td class=\"num\">99.9 %</td>"
                + "<td class=\"num\">4995 / 5000</td><td class=\"num\">80.0 %</td><td class=\"num\"></td></tr>"), html);
        String curve = option(html, "slo-0-chart");
        assertTrue(curve.contains("[\"2026-11-30T10:01:00Z\",720.0]") && curve.contains("\"yAxis\":500.0"), curve);
        String burn = option(html, "burn-chart");
        assertTrue(burn.contains("[[\"2026-11-30T06:00:00Z\",60.0],[\"2026-11-30T07:00:00Z\",55.0]"), burn);
        assertTrue(burn.contains("[\"2026-11-30T11:00:00Z\",-20.0],[\"2026-11-30T12:00:00Z\",-50.0]]") && burn.contains("[\"2026-11-30T12:00:00Z\",80.0]"), burn);
        assertEquals(List.of("/api/v1/slo-states?from=2026-11-30T06%3A00%3A00Z&to=2026-11-30T12%3A00%3A00Z&budgetPoints=7"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList(), "one read: the states with their budget left across the window");
        assertForwarded(Fixtures.ADMIN);

        StandIn.reset();
        String tenant = page("/slos?to=2026-11-30T12:00:00Z&window=6h", Fixtures.ACME);
        assertTrue(nav(tenant).contains("href=\"/slos\""));
        assertTrue(tenant.contains("<td>acme-availability</td>") && !tenant.contains("chat-ttft"), tenant);
        assertFalse(tenant.contains("burn-chart-option"), "no burn-down for a tenant");
        assertEquals(List.of("/api/v1/slo-states?from=2026-11-30T06%3A00%3A00Z&to=2026-11-30T12%3A00%3A00Z"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        assertForwarded(Fixtures.ACME);

        StandIn.reset();
        assertTrue(page("/slos?window=3w", Fixtures.ADMIN).contains("window must be one of 1h, 6h, 24h, 7d"));
        assertTrue(StandIn.seen().isEmpty());
        StandIn.override(Backend.SLO, "/api/v1/slo-states", StandIn.Reply.json("[]"));
        assertTrue(page("/slos", Fixtures.ADMIN).contains("No SLO is defined."));
        // an SLO stored before services belonged to a namespace, whose service's name two namespaces now report
        StandIn.override(Backend.SLO, "/api/v1/slo-states", StandIn.Reply.json("""
                [{"slo":{"name":"legacy-chat","selector":{"service":"chat"},"sli":"TTFT","target":0.99,"window":"PT1H"},
                  "status":null,"latency":null,"budgetLeft":null,"problem":{"status":400,"field":"selector.namespace",
                  "detail":"its name is reported by the pods of 2 namespaces: a-ns, b-ns"}}]"""));
        String legacy = page("/slos", Fixtures.ADMIN);
        assertTrue(legacy.contains("SLO legacy-chat has no status") && legacy.contains("2 namespaces: a-ns, b-ns")
                && legacy.contains("<td>legacy-chat</td><td>service=chat</td>"), legacy);
    }

    @Test
    void jitterShowsEachEventWithItsNeighboursSuspectsAndTheInterferenceFactor() {
        String html = page("/jitter?window=24h&to=2026-11-30T12:00:00Z", Fixtures.ADMIN);
        assertTrue(html.contains("<tr data-event=\"42\" class=\"chosen\"><td class=\"num\"><a href=\"/jitter?window=24h&amp;"
                + "to=2026-11-30T12%3A00%3A00Z&amp;offset=0&amp;event=42\">42</a></td><td>acme-serve/llm</td><td>chat-ttft</td><td>TTFT</td>"
                + "<td>2026-11-30T10:20:00Z</td><td>2026-11-30T10:26:00Z</td><td class=\"num\">6</td><td class=\"num\">1840 ms</td>"
                + "<td class=\"num\">1000 ms</td><td>globex-lab/notebook-2 (0.81)</td><td><a class=\"triage\" href=\"/triage?"
                + "namespace=acme-serve&amp;service=llm&amp;at=2026-11-30T10%3A20%3A00Z\">triage</a></td></tr>"), html);
        // an event stored before services belonged to a namespace shows its service's name alone
        assertTrue(html.contains("<tr data-event=\"41\" class=\"\"><td class=\"num\"><a href=\"/jitter?window=24h&amp;"
                + "to=2026-11-30T12%3A00%3A00Z&amp;offset=0&amp;event=41\">41</a></td><td>llm</td>"), html);
        assertTrue(html.contains("Event 42: acme-serve/llm, chat-ttft (TTFT), 2026-11-30T10:20:00Z – 2026-11-30T10:26:00Z"), html);
        assertTrue(html.contains("<tr><td class=\"num\">1</td><td>globex-lab/notebook-2</td><td class=\"num\">0.81</td>"
                + "<td class=\"num\">5.00 min</td><td class=\"num\">0.75</td><td>SM_ACTIVE 0.10 → 0.85</td>"
                + "<td>arrived 5 min before; SM_ACTIVE rose 0.75</td></tr>"), html);
        assertTrue(html.contains("<tr data-bucket=\"2\"><td>2</td><td class=\"num\">180</td><td class=\"num\">1215 ms</td>"
                + "<td class=\"num\">2.70</td><td class=\"num\">0.83</td></tr>"), html);
        // by neighbour kind: the slo-service's factors, rounded to the hundredth
        assertTrue(html.contains("<tr data-kind=\"training\"><td>training</td><td class=\"num\">500</td><td class=\"num\">900 ms</td>"
                + "<td class=\"num\">2.00</td><td class=\"num\">0.83</td></tr>"), html);
        assertTrue(html.contains("<tr data-kind=\"inference\"><td>inference</td><td class=\"num\">380</td><td class=\"num\">600 ms</td>"
                + "<td class=\"num\">1.33</td><td class=\"num\">1.00</td></tr>"), html);
        String arrivals = option(html, "jitter-arrivals");
        assertTrue(arrivals.contains("[[\"2026-11-30T10:15:00Z\",\"globex-lab/notebook-2\"],[\"2026-11-30T10:40:00Z\",\"globex-lab/notebook-2\"]]"), arrivals);
        String resources = option(html, "jitter-resources");
        assertTrue(resources.contains("[\"2026-11-30T10:20:00Z\",85.0]") && resources.contains("acme-ml/train-7 GPU_UTIL"), resources);
        // GPU_UTIL is stored as every activity is, a ratio 0..1 (the collector divides DCGM's percent by 100)
        assertTrue(resources.contains("[\"2026-11-30T10:00:00Z\",40.0]"), resources);
        assertTrue(option(html, "jitter-latency").contains("[\"2026-11-30T10:20:00Z\",1840.5]"));
        // the interference factor of the event's service in its namespace, never the name across namespaces
        assertEquals(List.of("/api/v1/changes/bulk", "/api/v1/fleet/occupants?at=2026-11-30T10%3A20%3A00Z&namespace=acme-serve",
                        "/api/v1/interference?service=llm&namespace=acme-serve&from=2026-11-29T12%3A00%3A00Z"
                        + "&to=2026-11-30T12%3A00%3A00Z&sli=TTFT&narrow=true",
                        "/api/v1/jitter-events/42",
                        "/api/v1/jitter-events?from=2026-11-29T12%3A00%3A00Z&to=2026-11-30T12%3A00%3A00Z&limit=21&offset=0"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).sorted().toList());
        assertForwarded(Fixtures.ADMIN);

        StandIn.reset();
        String tenant = page("/jitter", Fixtures.ACME);
        assertFalse(nav(tenant).contains("/jitter"));
        assertTrue(tenant.contains("slo-service refused: you may not see this") && !tenant.contains("notebook-2"), tenant);

        StandIn.reset();
        StandIn.override(Backend.SLO, "/api/v1/jitter-events", StandIn.Reply.json("[]"));
        assertTrue(page("/jitter?window=1h&to=2026-11-30T12:00:00Z", Fixtures.ADMIN)
                .contains("No jitter event between 2026-11-30T11:00:00Z and 2026-11-30T12:00:00Z."));
        assertTrue(page("/jitter?event=x", Fixtures.ADMIN).contains("event must be a whole number from 0"));
    }

    /**
     * The interference factor is read over the window shown; slo-service reads at most its own configured window and,
     * asked to narrow, says which part it read: the page takes the window from the answer, not from a copy of the
     * configuration.
     */
    @Test
    void theInterferenceFactorsWindowIsTheOneSloServiceSaysItRead() {
        String html = page("/jitter?window=24h&to=2026-11-30T12:00:00Z", Fixtures.ADMIN);
        assertTrue(html.contains("<p class=\"note\" id=\"interference-window\">Over 2026-11-29T12:00:00Z – 2026-11-30T12:00:00Z.</p>"), html);

        StandIn.reset();
        StandIn.override(Backend.SLO, "/api/v1/interference", StandIn.Reply.json("""
                {"service":"llm","namespace":"acme-serve","sli":"TTFT","from":"2026-11-29T12:00:00Z","to":"2026-11-30T12:00:00Z",
                 "maxWindow":"PT24H","narrowed":true,"podMinutes":60,"unplacedPodMinutes":0,"precision":"histogram",
                 "byNeighbours":[{"bucket":"0","podMinutes":60,"p99Ms":450,"ifLatency":1,"ifThroughput":1}],"byKind":[]}"""));
        html = page("/jitter?window=7d&to=2026-11-30T12:00:00Z", Fixtures.ADMIN);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/interference?service=llm&namespace=acme-serve"
                + "&from=2026-11-23T12%3A00%3A00Z&to=2026-11-30T12%3A00%3A00Z&sli=TTFT&narrow=true")), StandIn.seen().toString());
        assertTrue(html.contains("Over 2026-11-29T12:00:00Z – 2026-11-30T12:00:00Z: slo-service reads at most PT24H at a time, so the"
                + " latest PT24H of the 7d shown."), html);
        assertTrue(html.contains("<tr data-bucket=\"0\"><td>0</td><td class=\"num\">60</td><td class=\"num\">450 ms</td>"), html);
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
    void theFleetColouredByUseShowsEachCardsMeanActivity() {
        String html = page("/fleet?at=" + Fixtures.AT + "&colour=used", Fixtures.ADMIN);
        // GPU-aaaa-0001, gpu-a's first card (row 0, slot 0): the ledger's mean of its five minutes, 0.4; the other held
        // card has no usage
        String option = option(html, "fleet-chart");
        assertTrue(option.contains("\"value\":[0,0,0.4]") && option.contains("active 40 %"), option);
        assertTrue(option.contains("\"value\":[1,0,\"-\"]") && option.contains("no usage known"), option);
        assertTrue(html.contains("<strong>used</strong>") && html.contains("href=\"/fleet?at=2026-11-30T12:00:00Z\" id=\"colour-held\""), html);
        // one read of the activity fields of the named cards' five minutes, each minute judged by the one activity rule
        StandIn.Seen usage = StandIn.seen().stream().filter(s -> s.pathAndQuery().equals("/api/v1/usage/series")).findFirst().orElseThrow();
        assertTrue(!usage.body().contains("\"field\"") && usage.body().contains("\"from\":\"2026-11-30T11:55:00Z\"")
                && usage.body().contains("\"fields\":[\"SM_ACTIVE\",\"GR_ENGINE_ACTIVE\",\"GPU_UTIL\"]")
                && usage.body().contains("\"gpus\":[\"GPU-aaaa-0001\",\"GPU-aaaa-0002\"]"), usage.body());
        // coloured by held, the default, no usage is read
        StandIn.forget();
        html = page("/fleet?at=" + Fixtures.AT, Fixtures.ADMIN);
        assertTrue(html.contains("id=\"colour-used\""), html);
        assertFalse(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().contains("usage")), StandIn.seen().toString());
    }

    @Test
    void nodesHeldBeforeTheInventoryKnewThemAreDrawnWithTheCardsHeld() {
        // the inventory has no node yet at the instant (the collector started later): the ledger lays the nodes out
        // with the cards their units hold
        String h100 = "NVIDIA-H100-80GB-HBM3";
        StandIn.override(Backend.LEDGER, "/api/v1/fleet/occupants", StandIn.Reply.json(Fixtures.layout(List.of(
                Fixtures.node("gpu-a", h100, false, 2, 2, "1.75",
                        Fixtures.card("GPU-aaaa-0001", h100, "HELD", "0.75", Fixtures.TRAIN + "," + Fixtures.NOTEBOOK),
                        Fixtures.card("GPU-aaaa-0002", h100, "HELD", "1", Fixtures.SERVE)),
                Fixtures.node("gpu-b", "unknown", false, 1, 1, "0.857142857142",
                        Fixtures.card(null, null, "HELD", "0.857142857142", Fixtures.MIG.formatted("acme-eval", "eval-1", "u4", "acme")
                                + "," + Fixtures.MIG.formatted("globex-eval", "eval-2", "u5", "globex")))),
                List.of(Fixtures.group(h100, 1, 2, 2, "1.75"), Fixtures.group("unknown", 1, 1, 1, "0.857142857142")))));
        String html = page("/fleet?at=" + Fixtures.AT, Fixtures.ADMIN);
        assertTrue(html.contains("Not in the inventory at this instant"), html);
        // gpu-a: its 2 held cards and no free one known; gpu-b: the card its MIG slices fill
        assertTrue(html.contains("Showing 2026-11-30T12:00:00Z: 3 card(s), 3 held."), html);
        assertTrue(html.contains("<tr data-node=\"gpu-a\"><td>gpu-a<span class=\"sub\">lab</span></td><td class=\"num\">2</td>"
                + "<td class=\"num\">2</td><td class=\"num\">0</td><td class=\"num\">1.75</td></tr>"), html);
        assertFalse(html.contains("No GPU node was known"), html);
    }

    @Test
    void emptyAnswersSayWhatToDo() {
        StandIn.override(Backend.LEDGER, "/api/v1/gpu-hours", StandIn.Reply.json("[]"));
        String html = page("/hours?month=2020-01", Fixtures.ADMIN);
        assertTrue(html.contains("No GPU-hours were allocated in 2020-01.") && html.contains("Pick another month"), html);

        StandIn.override(Backend.LEDGER, "/api/v1/fleet/occupants", StandIn.Reply.json(Fixtures.layout(List.of(), List.of())));
        html = page("/fleet?at=2020-01-01T00:00:00Z", Fixtures.ADMIN);
        assertTrue(html.contains("No GPU node was known at 2020-01-01T00:00:00Z.") && html.contains("./gpumeter up --demo"), html);
    }

    @Test
    void anUnreadableInstantOrMonthIsSaidSoAndNothingIsAsked() {
        String html = page("/fleet?at=yesterday", Fixtures.ADMIN);
        assertTrue(html.contains("That instant is not readable") && html.contains("got &#39;yesterday&#39;"), html);
        html = page("/hours?month=13-2026", Fixtures.ADMIN);
        assertTrue(html.contains("That month is not readable"), html);
        assertTrue(StandIn.seen().isEmpty(), StandIn.seen().toString());
    }

    @Test
    void pagesAreNeitherCachedNorFramedAndLoadNothingFromElsewhere() {
        given().cookie(Session.COOKIE, Fixtures.session(Fixtures.ADMIN)).get("/hours?month=" + Fixtures.MONTH).then().statusCode(200)
                .header("Content-Security-Policy", containsString("default-src 'self'"))
                .header("X-Frame-Options", "DENY")
                .header("Cache-Control", "no-store")
                .body(not(containsString("https://")));
        given().get("/webjars/echarts/dist/echarts.min.js").then().statusCode(200);
        given().get("/webjars/htmx.org/dist/htmx.min.js").then().statusCode(200);
        given().get("/static/console.js").then().statusCode(200);
    }

    @Test
    void noPageIsKeptByTheBrowserOrAProxy() {
        // every page a signed-in user opens, the downloads, the sign-in page and the redirects
        List<String> pages = List.of("/", "/fleet?at=" + Fixtures.AT, "/fleet/card?uuid=GPU-aaaa-0001&at=" + Fixtures.AT,
                "/hours?month=" + Fixtures.MONTH, "/hours/report.csv?month=" + Fixtures.MONTH, "/hours/focus.csv?month=" + Fixtures.MONTH,
                "/idle?from=2026-11-23&to=2026-11-30", "/queues?from=2026-11-23&to=2026-11-30", "/failures?from=2026-11-23&to=2026-11-30",
                "/jitter?window=24h&to=2026-11-30T12:00:00Z", "/changes?from=2026-11-23&to=2026-12-01", "/capacity", "/alerts?state=all", "/slos?window=6h", "/budgets?month=2026-11",
                "/signin", "/signin?code=not-the-code-0123456789", "/no-such-page");
        for (String signedIn : List.of("admin", "nobody")) {
            for (String path : pages) {
                var request = given().redirects().follow(false);
                if (signedIn.equals("admin")) {
                    request.cookie(Session.COOKIE, Fixtures.session(Fixtures.ADMIN));
                }
                var response = request.get(path);
                assertTrue(response.statusCode() < 500, path + " answered " + response.statusCode());
                assertEquals(List.of("no-store"), response.headers().getValues("Cache-Control"),
                        signedIn + " " + path + " (" + response.statusCode() + ")");
            }
        }
        // what holds no one's figures stays cacheable
        for (String asset : List.of("/static/console.js", "/static/signin.js", "/webjars/echarts/dist/echarts.min.js")) {
            String cache = given().get(asset).then().statusCode(200).extract().header("Cache-Control");
            assertTrue(cache != null && cache.contains("max-age"), asset + ": " + cache);
        }
        given().redirects().follow(false).formParam("token", "hunter2").post("/signin").then().statusCode(400)
                .header("Cache-Control", "no-store");
        given().redirects().follow(false).formParam("token", Fixtures.ADMIN).post("/signin/verify").then().statusCode(200)
                .header("Cache-Control", "no-store");
        given().redirects().follow(false).post("/signout").then().statusCode(303).header("Cache-Control", "no-store");
    }

    static String page(String path, String token) {
        return given().redirects().follow(false).cookie(Session.COOKIE, Fixtures.session(token)).get(path).then().statusCode(200)
                .extract().asString();
    }

    /** A chart's option as the page carries it. */
    static String option(String html, String chart) {
        int start = html.indexOf("id=\"" + chart + "-option\">");
        assertTrue(start >= 0, "no option for " + chart);
        return html.substring(start, html.indexOf("</script>", start));
    }

    static String nav(String html) {
        return html.substring(html.indexOf("<nav>"), html.indexOf("</nav>"));
    }

    private static void assertForwarded(String token) {
        assertFalse(StandIn.seen().isEmpty());
        for (StandIn.Seen s : StandIn.seen()) {
            assertEquals("Bearer " + token, s.authorization(), s.backend() + " " + s.pathAndQuery() + " got the user's token");
        }
    }
}
