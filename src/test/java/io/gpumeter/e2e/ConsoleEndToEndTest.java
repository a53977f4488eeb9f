package io.gpumeter.e2e;

import io.gpumeter.launcher.demo.DemoSignals;
import io.gpumeter.launcher.simulator.Rfc3339;
import io.gpumeter.launcher.suite.ConsoleLinks;
import io.gpumeter.launcher.suite.Service;
import io.gpumeter.launcher.suite.Suite;
import io.restassured.path.json.JsonPath;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.openqa.selenium.By;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The console on the demo's suite, in a real browser: every page draws something true of the simulated fleet, its
 * figures are the APIs' answers, a tenant sees only its own, no page logs an error, and each page is kept as a
 * screenshot under src/test/target/console-screenshots for review.
 */
@ExtendWith(DemoSuite.Start.class)
@Order(DemoSuite.ORDER)
class ConsoleEndToEndTest {

    static final List<String> TENANTS = List.of("acme", "globex", "initech", "umbrella");
    static final String TENANT = "acme";

    static Suite suite;
    static DemoSignals signals;
    static Browser browser;

    @BeforeAll
    static void openABrowser() throws IOException {
        Assumptions.assumeTrue(Browser.installed(),
                "Chromium is not installed (apt-get install -y chromium chromium-driver): console test skipped");
        suite = DemoSuite.started().suite;
        signals = DemoSuite.started().signals;
        browser = new Browser(suite.url(Service.CONSOLE).toString(), SuiteExtension.repoRoot().resolve("src/test/target/console-screenshots"));
    }

    @AfterAll
    static void closeTheBrowser() throws IOException {
        if (browser != null) {
            browser.close();
        }
    }

    @BeforeEach
    void signedOut() {
        browser.go("/signin");
        browser.driver.manage().deleteAllCookies();
    }

    @Test
    void theAdminsPagesShowWhatTheApisAnswer() throws IOException, InterruptedException {
        // the one-time link the launcher prints signs the admin in, once
        browser.open(suite.consoleSigninUrl().orElseThrow().toString());
        assertFalse(browser.driver.getCurrentUrl().contains("/signin"), browser.driver.getCurrentUrl());

        Instant at = signals.usageTo().minus(Duration.ofMinutes(20));
        fleetAt(at);
        cardAt(signals.sharedCard(), at);
        hoursOf(YearMonth.from(signals.usageTo().atZone(ZoneOffset.UTC)), false);
        queueP95();

        LocalDate today = LocalDate.ofInstant(signals.usageTo(), ZoneOffset.UTC);
        String days = "from=" + today.minusDays(6) + "&to=" + today.plusDays(1);
        for (String[] page : new String[][]{
                {"idle", "/idle?" + days + "&groupBy=tenant"},
                {"failures", "/failures?" + days + "&groupBy=cause"},
                {"jitter", "/jitter?window=6h&to=" + Rfc3339.format(signals.usageTo())},
                {"slos", "/slos?window=6h&to=" + Rfc3339.format(signals.usageTo())},
                {"capacity", "/capacity"},
                {"budgets", "/budgets?month=" + YearMonth.from(signals.usageTo().atZone(ZoneOffset.UTC))},
                {"alerts", "/alerts?state=all"}}) {
            browser.go(page[1]);
            assertEquals(List.of(), browser.texts(".message.error"), page[0] + ": the APIs answered");
            assertTrue(browser.chartsDrawn() > 0, page[0] + " draws a chart of the demo's data");
            browser.noConsoleErrors(page[0]);
            browser.shoot(page[0]);
        }
        dryRunActions();
        triageOfTheEmbeddingJob();
        capacityOfTheDemo();
    }

    /** Q10: the Capacity page draws slo-service's plan of the demo — its real cards, its margins, each shape's rule. */
    private void capacityOfTheDemo() throws IOException {
        JsonPath plan = api(Service.SLO, "/api/v1/capacity/plan", Map.of("horizon", "30d"));
        browser.go("/capacity?horizon=30d");
        assertEquals(plan.getList("models.model"), browser.attributes("#capacity-table tbody tr", "data-model"));
        assertEquals(plan.getList("models.supply.usable").stream().map(String::valueOf).toList(),
                browser.texts("#capacity-table tbody tr td:nth-child(3)"));
        assertTrue(plan.getList("models.supply.usable", Integer.class).stream().allMatch(u -> u > 0), plan.prettify());
        assertEquals(plan.getList("models.shapes.flatten().rule"), browser.attributes("#shape-table tbody tr", "data-rule"));
        browser.chartDrawn("capacity-chart");
        browser.shoot("capacity-plan");
    }

    /** The Triage page of the demo's out-of-memory draws the path alert-service's triage answers, with its fix. */
    private void triageOfTheEmbeddingJob() throws IOException {
        String[] pod = signals.oomPodKey().split("/");
        String at = Rfc3339.format(signals.oomAt().plus(Duration.ofMinutes(1)));
        JsonPath answer = api(Service.ALERT, "/api/v1/triage", Map.of("namespace", pod[0], "pod", pod[1], "cluster",
                io.gpumeter.launcher.demo.Demo.CLUSTER, "at", at));
        browser.go("/triage?namespace=" + pod[0] + "&pod=" + pod[1] + "&cluster=" + io.gpumeter.launcher.demo.Demo.CLUSTER
                + "&at=" + at);
        assertEquals(List.of(), browser.texts(".message.error"), "triage: the APIs answered");
        assertEquals(List.of(answer.getString("symptom")), browser.texts("#node-symptom .value"));
        assertEquals(List.of(answer.getString("cause")), browser.texts("#node-cause .value"));
        assertEquals(answer.getList("alternatives.cause"), browser.attributes(".node.ruled-out", "data-cause"));
        assertEquals(List.of(answer.getString("fix.action")), browser.texts("#triage-fix .action"));
        assertEquals(answer.getList("evidence").size(), browser.texts("#evidence-table tbody tr").size());
        browser.chartDrawn("evidence-chart");
        browser.noConsoleErrors("triage");
        browser.shoot("triage-oom");
    }

    /** Q1: the cards held at the instant and who held them are the fleet's occupants the ledger answers. */
    private void fleetAt(Instant at) throws IOException {
        browser.go("/fleet?at=" + Rfc3339.format(at));
        browser.chartDrawn("fleet-chart");
        JsonPath occupants = api(Service.LEDGER, "/api/v1/fleet/occupants", Map.of("at", Rfc3339.format(at)));
        List<String> heldCards = occupants.getList("gpuUuid", String.class).stream().filter(Objects::nonNull).distinct().sorted().toList();
        assertFalse(heldCards.isEmpty(), occupants.prettify());
        assertEquals(heldCards, browser.texts("li.card.held a.uuid").stream().sorted().toList());
        List<String> pods = new ArrayList<>();
        occupants.getList("$", Map.class).forEach(o -> pods.add(o.get("namespace") + "/" + o.get("pod")));
        assertEquals(pods.stream().sorted().toList(), browser.texts(".node .occupants .pod").stream().sorted().toList());
        // the DRA node pool's pods are drawn like any others
        List<String> dra = DraDemoCheck.pods(DemoSuite.started().plan).all().stream().map(p -> p.namespace() + "/" + p.name()).toList();
        assertTrue(pods.containsAll(dra), "the DRA pool's pods " + dra + " at " + at + ": " + pods);
        browser.noConsoleErrors("fleet");
        browser.shoot("fleet");

        // the same instant coloured by use: the demo's cards were busy, so some card has its activity (the one rule)
        browser.go("/fleet?at=" + Rfc3339.format(at) + "&colour=used");
        browser.chartDrawn("fleet-chart");
        assertEquals(List.of(), browser.texts(".message"), "the ledger had the cards' usage");
        assertTrue(browser.driver.findElement(By.id("fleet-chart-option")).getAttribute("textContent").contains(", active "));
        browser.noConsoleErrors("fleet by use");
        browser.shoot("fleet-used");
    }

    /** Q1 for one card: its occupants' pods and tenants in the ledger's order. */
    private void cardAt(String uuid, Instant at) throws IOException {
        browser.go("/fleet/card?uuid=" + uuid + "&at=" + Rfc3339.format(at));
        browser.chartDrawn("card-chart");
        JsonPath occupants = api(Service.LEDGER, "/api/v1/gpus/" + uuid + "/occupants", Map.of("at", Rfc3339.format(at)));
        List<String> rows = new ArrayList<>();
        occupants.getList("$", Map.class).forEach(o -> rows.add(o.get("namespace") + "/" + o.get("pod") + " " + o.get("tenant")));
        assertTrue(rows.size() >= 2, "the shared card has a neighbour at " + at + ": " + occupants.prettify());
        List<String> shown = new ArrayList<>();
        for (var row : browser.driver.findElements(By.cssSelector("#occupants-table tbody tr"))) {
            var cells = row.findElements(By.tagName("td"));
            shown.add(cells.get(0).getText() + " " + cells.get(1).getText());
        }
        assertEquals(rows, shown);
        browser.noConsoleErrors("card");
        browser.shoot("card");
    }

    /**
     * Q2: a tenant's allocated, used and idle GPU-hours of the month, to the hundredth shown. Hours still running grow
     * while the page loads, so each figure lies between the ledger's answers just before and just after it.
     */
    private void hoursOf(YearMonth month, boolean tenantOnly) throws IOException {
        Map<String, String> window = Map.of("from", month.atDay(1) + "T00:00:00Z", "to", month.plusMonths(1).atDay(1) + "T00:00:00Z",
                "groupBy", "tenant");
        JsonPath before = api(Service.LEDGER, "/api/v1/gpu-hours", window);
        browser.go("/hours?month=" + month);
        browser.chartDrawn("hours-chart");
        JsonPath after = api(Service.LEDGER, "/api/v1/gpu-hours", window);
        List<String> cells = browser.texts("#hours-table tbody tr[data-tenant='" + TENANT + "'] td");
        assertEquals(TENANT, cells.get(0));
        String row = "find { it.key == '" + TENANT + "' }.";
        List<String> fields = List.of("allocatedGpuHours", "usedGpuHours", "idleGpuHours");
        for (int i = 0; i < fields.size(); i++) {
            double shown = number(cells.get(i + 1));
            double low = before.getDouble(row + fields.get(i));
            double high = after.getDouble(row + fields.get(i));
            assertTrue(shown >= Math.min(low, high) - 0.005 && shown <= Math.max(low, high) + 0.005,
                    fields.get(i) + " shown " + shown + ", the ledger answered " + low + " before and " + high + " after");
        }
        assertTrue(number(cells.get(2)) > 0, "the demo's usage made used hours: " + cells);
        browser.noConsoleErrors("hours");
        browser.shoot(tenantOnly ? "tenant-hours" : "hours");
        if (!tenantOnly) {
            daysOf(month);
        }
    }

    /**
     * The day view: each of the tenant's days shows billing's cost series for that day (hours still running grow, so
     * between its answers just before and after), and its days' allocated hours add up to the month's in the ledger.
     */
    private void daysOf(YearMonth month) throws IOException {
        Map<String, String> query = Map.of("month", month.toString(), "bucket", "day", "groupBy", "tenant");
        JsonPath before = api(Service.BILLING, "/api/v1/reports/series", query);
        browser.go("/hours?month=" + month + "&view=day");
        browser.chartDrawn("cost-chart");
        JsonPath after = api(Service.BILLING, "/api/v1/reports/series", query);
        List<String> days = browser.attributes("#series-table tbody tr[data-group='" + TENANT + "']", "data-bucket");
        assertFalse(days.isEmpty(), "the demo's days of " + TENANT);
        assertEquals(before.getList("lines.findAll { it.group == '" + TENANT + "' }.bucket"), days, "one row per day with hours");
        List<String> fields = List.of("allocatedGpuHours", "usedGpuHours", "idleGpuHours", "allocatedCost", "usedCost", "idleCost");
        double allocated = 0;
        for (String day : days) {
            List<String> cells = browser.texts("#series-table tbody tr[data-bucket='" + day + "'][data-group='" + TENANT + "'] td");
            String line = "lines.find { it.bucket == '" + day + "' && it.group == '" + TENANT + "' }.";
            for (int i = 0; i < fields.size(); i++) {
                double shown = number(cells.get(i + 2));
                double low = before.getDouble(line + fields.get(i));
                double high = after.getDouble(line + fields.get(i));
                assertTrue(shown >= Math.min(low, high) - 0.005 && shown <= Math.max(low, high) + 0.005,
                        day + " " + fields.get(i) + " shown " + shown + ", billing answered " + low + " before and " + high + " after");
            }
            allocated += after.getDouble(line + "allocatedGpuHours");
        }
        double month0 = api(Service.LEDGER, "/api/v1/gpu-hours", Map.of("from", month.atDay(1) + "T00:00:00Z",
                "to", month.plusMonths(1).atDay(1) + "T00:00:00Z", "groupBy", "tenant", "tenant", TENANT))
                .getDouble("find { it.key == '" + TENANT + "' }.allocatedGpuHours");
        // each day printed to the millionth, and the month still growing by the seconds between the two reads
        assertEquals(month0, allocated, 0.001 * days.size() + 0.05, "the days add up to the month");
        browser.noConsoleErrors("hours per day");
        browser.shoot("hours-days");
    }

    /** The demo sends the alerts its rules fire back as Alertmanager would: the runbook's dry-run actions are audited. */
    private void dryRunActions() throws IOException, InterruptedException {
        DemoEndToEndTest.eventually(Duration.ofSeconds(60), () -> api(Service.ALERT, "/api/v1/actions", Map.of()),
                actions -> !actions.getList("$").isEmpty());
        browser.go("/alerts?state=all");
        List<String> modes = browser.texts("#actions-table tbody tr td");
        assertTrue(modes.stream().anyMatch(c -> c.contains("dry-run") || c.contains("DRY_RUN")), modes.toString());
        browser.shoot("alerts-actions");
    }

    /** Q6: the training queue's p95 wait is the ledger's, to the precision shown. */
    private void queueP95() throws IOException {
        LocalDate end = LocalDate.ofInstant(signals.usageTo(), ZoneOffset.UTC);
        browser.go("/queues?from=" + end.minusDays(2) + "&to=" + end.plusDays(1) + "&groupBy=clusterQueue");
        browser.chartDrawn("window-chart");
        // the page's window ends now; the API call it lists is the one to compare with
        String call = browser.attributes("details.calls a", "href").stream().filter(h -> h.contains("/api/v1/queue-wait?"))
                .findFirst().orElseThrow();
        assertTrue(call.contains("from=" + end.minusDays(2) + "T00%3A00%3A00Z") || call.contains("from=" + end.minusDays(2) + "T00:00:00Z"), call);
        JsonPath waits = given().header("Authorization", "Bearer " + suite.adminToken()).urlEncodingEnabled(false).get(call)
                .then().statusCode(200).extract().jsonPath();
        List<String> cells = browser.texts("#window-table tbody tr[data-group='cq-training'] td");
        assertEquals(waits.getInt("find { it.key == 'cq-training' }.count"), Integer.parseInt(cells.get(1)), waits.prettify());
        double p95 = waits.getDouble("find { it.key == 'cq-training' }.p95Seconds");
        assertTrue(p95 > 0, waits.prettify());
        assertEquals(p95, seconds(cells.get(3)), precision(cells.get(3)), cells + " against " + waits.prettify());
        // below, the Volcano Jobs that finished in the window, per queue, as the ledger counts them
        String jobsCall = browser.attributes("details.calls a", "href").stream().filter(h -> h.contains("/api/v1/volcano-jobs?"))
                .findFirst().orElseThrow();
        JsonPath jobs = given().header("Authorization", "Bearer " + suite.adminToken()).urlEncodingEnabled(false).get(jobsCall)
                .then().statusCode(200).extract().jsonPath();
        List<String> vision = browser.texts("#volcano-queues-table tbody tr[data-queue='vision'] td");
        assertEquals(List.of("vision", String.valueOf(jobs.getInt("find { it.key == 'vision' }.finished")),
                String.valueOf(jobs.getInt("find { it.key == 'vision' }.states.Completed"))), vision.subList(0, 3), jobs.prettify());
        assertTrue(browser.texts("#volcano-jobs-table tbody tr td").contains("umbrella-research/detr-train"),
                browser.texts("#volcano-jobs-table tbody tr td").toString());
        browser.noConsoleErrors("queues");
        browser.shoot("queues");
    }

    @Test
    void aTenantSeesItsOwnTenantOnlyAndNoFleetPages() throws IOException {
        // the link ./gpumeter token --console prints: the token rides in the fragment, the page shows whose it is once
        // the console has verified it, and a click signs in
        browser.open(ConsoleLinks.withToken(suite.url(Service.CONSOLE), suite.token("ana", List.of("tenant:" + TENANT), Duration.ofHours(1))).toString());
        new WebDriverWait(browser.driver, Duration.ofSeconds(20)).until(ExpectedConditions.elementToBeClickable(By.id("link-accept"))).click();
        new WebDriverWait(browser.driver, Duration.ofSeconds(20)).until(d -> !d.getCurrentUrl().contains("/signin"));
        assertEquals(List.of(), browser.texts("nav a[href='/fleet'], nav a[href='/idle'], nav a[href='/queues'], nav a[href='/alerts']"));
        YearMonth month = YearMonth.from(signals.usageTo().atZone(ZoneOffset.UTC));
        hoursOf(month, true);
        assertEquals(List.of(TENANT), browser.texts("#hours-table tbody tr td:first-child"));
        for (String[] page : new String[][]{{"tenant-hours", "/hours?month=" + month}, {"tenant-budgets", "/budgets?month=" + month},
                {"tenant-slos", "/slos?window=6h&to=" + Rfc3339.format(signals.usageTo())}}) {
            browser.go(page[1]);
            String source = browser.source();
            for (String other : TENANTS) {
                assertTrue(other.equals(TENANT) || !source.contains(other), page[0] + " names " + other);
            }
            browser.noConsoleErrors(page[0]);
            browser.shoot(page[0]);
        }
        myWorkloads();
        browser.go("/fleet");
        assertTrue(browser.texts(".message.error").stream().anyMatch(m -> m.contains("refused")), browser.texts(".message").toString());
        assertEquals(List.of(), browser.texts("li.card.held"));
        browser.noConsoleErrors("tenant fleet");
        browser.shoot("tenant-fleet-refused");
    }

    /** My workloads: the tenant's own pods only, each a click from its triage, which names no other tenant. */
    private void myWorkloads() throws IOException {
        browser.go("/workloads");
        assertEquals(List.of(), browser.texts(".message.error"), "my workloads: the ledger answered");
        List<String> rows = browser.attributes("#waiting-table tbody tr, #holding-table tbody tr", "data-object");
        assertFalse(rows.isEmpty(), "the tenant's pods now");
        assertTrue(rows.stream().allMatch(r -> r.startsWith(TENANT + "-")), "only the tenant's namespaces: " + rows);
        String source = browser.source();
        for (String other : TENANTS) {
            assertTrue(other.equals(TENANT) || !source.contains(other), "my workloads names " + other);
        }
        browser.shoot("tenant-workloads");
        String triage = browser.attributes("#holding-table a.triage, #waiting-table a.triage", "href").get(0);
        if (triage.startsWith("http")) {
            browser.open(triage);
        } else {
            browser.go(triage);
        }
        assertEquals(List.of(), browser.texts(".message.error"), "the tenant's own triage: " + triage);
        String page = browser.source();
        for (String other : TENANTS) {
            assertTrue(other.equals(TENANT) || !page.contains(other), "the tenant's triage names " + other);
        }
        browser.noConsoleErrors("tenant triage");
        browser.shoot("tenant-triage");
    }

    private static JsonPath api(Service service, String path, Map<String, ?> params) {
        return given().header("Authorization", "Bearer " + suite.adminToken()).queryParams(params)
                .get(suite.url(service).resolve(path).toString()).then().statusCode(200).extract().jsonPath();
    }

    /** {@code 1,234.56} as a number. */
    static double number(String shown) {
        return Double.parseDouble(shown.replace(",", ""));
    }

    /** {@code 2 h 5 min}, {@code 12 min 30 s}, {@code 1 d 3 h} as seconds. */
    static double seconds(String shown) {
        String[] parts = shown.trim().split(" ");
        double s = 0;
        for (int i = 0; i + 1 < parts.length; i += 2) {
            long n = Long.parseLong(parts[i]);
            s += n * switch (parts[i + 1]) {
                case "d" -> 86_400;
                case "h" -> 3600;
                case "min" -> 60;
                case "s" -> 1;
                default -> throw new AssertionError("not a duration: " + shown);
            };
        }
        return s;
    }

    /** Half the smallest unit the duration shows, plus rounding: days show hours, hours show minutes. */
    static double precision(String shown) {
        return shown.contains(" d") ? 3600 : shown.contains(" h") ? 60 : shown.contains(" min") && !shown.contains(" s") ? 1 : 0.51;
    }
}
