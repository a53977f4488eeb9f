package io.gpumeter.console;

import io.gpumeter.common.testing.TestTokens;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.IOException;
import java.net.URL;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The pages in a real browser (headless Chromium) against the stand-in services: each draws its chart, shows the
 * stand-in's figures, logs no error to the browser console, and is saved as a screenshot under target/screenshots/.
 */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class BrowserTest {

    private static Chromium chromium;
    private static WebDriver browser;

    @TestHTTPResource("/")
    URL base;

    @BeforeAll
    static void open() throws IOException {
        chromium = Chromium.start();
        browser = chromium.browser;
    }

    @AfterAll
    static void close() throws IOException {
        if (chromium != null) {
            chromium.quit();
        }
    }

    @BeforeEach
    void signedOut() {
        StandIn.reset();
        chromium.signedOut();
    }

    @Test
    void anAdminSeesTheFleetACardAndTheHours() throws IOException {
        go("/fleet?at=" + Fixtures.AT);
        assertTrue(browser.getCurrentUrl().contains("/signin?next="), "a browser without a session signs in first");
        shoot("signin");
        signIn(Fixtures.ADMIN);
        assertTrue(browser.getCurrentUrl().endsWith("/fleet?at=" + Fixtures.AT), "back where it was going: " + browser.getCurrentUrl());

        chartDrawn("fleet-chart");
        assertEquals(List.of("gpu-a", "4", "2", "2", "1.75"), cells("#fleet-table tbody tr[data-node='gpu-a'] td", true));
        assertEquals(List.of("gpu-b", "2", "1", "1", "0.86"), cells("#fleet-table tbody tr[data-node='gpu-b'] td", true));
        assertEquals(2 + 2 + 1 + 1, browser.findElements(By.cssSelector("li.card")).size(), "held and free cards, and the unnamed ones");
        assertEquals(3, browser.findElements(By.cssSelector("li.card.free")).size());
        assertEquals(1, browser.findElements(By.cssSelector("li.card.unnamed")).size());
        assertTrue(browser.findElements(By.cssSelector("#fleet-chart svg path")).size() >= 6, "the heatmap draws a cell per card");
        noConsoleErrors("fleet");
        shoot("fleet");

        browser.findElement(By.linkText("GPU-aaaa-0001")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/fleet/card?uuid=GPU-aaaa-0001"));
        chartDrawn("card-chart");
        chartDrawn("usage-chart");
        assertEquals(List.of("acme-ml/train-7", "acme", "vision", "vGPU 50 % cores, 40960 MiB", "0.50", "2026-11-30T09:00:00Z"),
                cells("#occupants-table tbody tr:nth-child(1) td", false));
        assertEquals(List.of("globex-lab/notebook-2", "globex", "research", "vGPU 25 % cores, 20480 MiB", "0.25", "2026-11-30T10:30:00Z"),
                cells("#occupants-table tbody tr:nth-child(2) td", false));
        noConsoleErrors("card");
        shoot("card");

        browser.findElement(By.linkText("Hours and cost")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/hours"));
        go("/hours?month=" + Fixtures.MONTH);
        chartDrawn("hours-chart");
        chartDrawn("cost-chart");
        assertEquals(List.of("acme", "120.50", "80.25", "40.25", "90.0 %", "HIGH", "361.50", "240.75", "120.75", "96.40", "19.28",
                        "33.74"),
                cells("#hours-table tbody tr[data-tenant='acme'] td", false));
        assertEquals(List.of("globex", "30.00", "0.00", "30.00", "0.0 %", "NONE", "60.00", "0.00", "60.00", "12.25", "", ""),
                cells("#hours-table tbody tr[data-tenant='globex'] td", false));
        assertEquals(List.of("2026-11-29", "acme", "4.50", "3.00", "1.50", "18.45", "12.30", "6.15", "3.60"),
                cells("#series-table tbody tr[data-bucket='2026-11-29'][data-group='acme'] td", false));
        assertTrue(browser.findElements(By.cssSelector("#hours-chart svg path")).size() >= 3, "the day chart draws its bars");
        noConsoleErrors("hours");
        shoot("hours");
        browser.findElement(By.id("view-month")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("view=month"));
        chartDrawn("hours-chart");
        assertTrue(browser.findElements(By.id("series-table")).isEmpty(), "the month view has no table per day");
        noConsoleErrors("hours per month");

        browser.findElement(By.linkText("Idle")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/idle"));
        go("/idle?from=2026-11-23&to=2026-11-30&groupBy=tenant");
        chartDrawn("idle-chart");
        assertEquals(List.of("acme", "80.00", "40.25", "0.00", "0.00", "0.00", "120.25", "33.5 %"),
                cells("#idle-table tbody tr[data-group='acme'] td", false));
        noConsoleErrors("idle");
        shoot("idle");

        go("/queues?from=2026-11-23&to=2026-11-30&groupBy=clusterQueue");
        chartDrawn("window-chart");
        assertEquals(List.of("team-a-cq", "12", "1 min 30 s", "30 min", "1 h 2 min", "2 h 1 min"),
                cells("#window-table tbody tr[data-group='team-a-cq'] td", false));
        assertEquals(List.of("research", "3", "2", "66.7 %", "4.52", "6.78", "2", "3 h", "3 h", "globex-lab/eval-c"),
                cells("#volcano-queues-table tbody tr[data-queue='research'] td", false));
        // a job named like markup stays text: no element is made of it
        assertTrue(browser.findElements(By.cssSelector("#volcano-jobs-table img")).isEmpty(), "a job name is text");
        assertEquals("umbrella-cv/<img src=x onerror=alert(1)>",
                browser.findElement(By.cssSelector("#volcano-jobs-table tbody tr:last-child td")).getText());
        noConsoleErrors("queues");
        shoot("queues");

        browser.findElement(By.linkText("Failures")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/failures"));
        go("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause");
        chartDrawn("window-chart");
        assertEquals(List.of("XID_79", "4", "3", "1", "3.33", "10 min", "12 min 30 s", "hardware"),
                cells("#window-table tbody tr[data-group='XID_79'] td", false));
        noConsoleErrors("failures");
        shoot("failures");

        browser.findElement(By.linkText("Capacity")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/capacity"));
        chartDrawn("capacity-chart");
        assertEquals(List.of("NVIDIA-H100-80GB-HBM3", "16 cards, 1 cordoned, 0 failed", "15", "15.92", "15.18 – 16.65", "10.0 % (measured)",
                "2.0 % (floor)", "5.0 % (measured)", "-0.92", "-1.65 – -0.18",
                "NVIDIA-H100-80GB-HBM3: 15 usable cards, 15.92 needed by 1 shape with margins; short by ~1 card over the next 30 days"), cells("#capacity-table tbody tr td", false));
        assertEquals(List.of("NVIDIA-H100-80GB-HBM3", "inference", "whole", "acme-prod/llm-chat", "chat-ttft (TTFT ≤ 800 ms)",
                "acceptance", "5.00 → 4.15 requests/s per GPU", "66.00 requests/s on 2026-12-30 (56 days fitted)", "13.20",
                "15.92", "-0.92", "7 min 30 s", "throttle"), cells("#shape-table tbody tr td", false));
        noConsoleErrors("capacity");
        shoot("capacity");

        browser.findElement(By.linkText("Alerts")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/alerts"));
        go("/alerts?state=all&since=2026-11-29T12:00:00Z");
        chartDrawn("alerts-chart");
        assertEquals(List.of("GpuXidFatal", "critical", "firing", "2026-11-30T10:00:00Z", "", "node=gpu-a, gpu_uuid=GPU-aaaa-0001",
                "Xid 79 on GPU-aaaa-0001: the card fell off the bus", "runbook"), cells("#alerts-table tbody tr:nth-child(1) td", false));
        noConsoleErrors("alerts");
        shoot("alerts");
    }

    @Test
    void anAdminSeesTheSlosBudgetsIncidentsAndActions() throws IOException {
        go("/signin");
        signIn(Fixtures.ADMIN);

        browser.findElement(By.linkText("SLOs")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/slos"));
        go("/slos?to=2026-11-30T12:00:00Z&window=6h");
        chartDrawn("attainment-chart");
        chartDrawn("burn-chart");
        chartDrawn("slo-0-chart");
        assertEquals(List.of("chat-ttft", "service=llm", "TTFT", "p99 ≤ 500 ms per minute", "99.0 %", "P7D", "TICKET", "98.5 %",
                "9850 / 10000", "-50.0 %", "1"), cells("#slos-table tbody tr[data-slo='chat-ttft'] td", false));
        noConsoleErrors("slos");
        shoot("slos");

        browser.findElement(By.linkText("Budgets")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/budgets"));
        go("/budgets?month=2026-11");
        chartDrawn("budget-chart");
        chartDrawn("burn-chart");
        chartDrawn("anomaly-chart");
        assertEquals(List.of("globex", "50.00", "60.00", "98.3 %", "61.02", "-10.00", "11.02"),
                cells("#budgets-table tbody tr[data-tenant='globex'] td", false));
        assertEquals(List.of("acme", "96.00", "40.00", "5.00", "55.00", "yes"), cells("#anomalies-table tbody tr[data-tenant='acme'] td", false));
        noConsoleErrors("budgets");
        shoot("budgets");

        go("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause");
        chartDrawn("window-chart");
        List<String> incident = cells("#incidents-table tbody tr td", false);
        assertEquals(List.of("XID_79", "hardware", "lab · gpu-a · GPU-aaaa-0001 · 00000000:3B:00.0", "2026-11-30T10:00:00Z"), incident.subList(0, 4));
        assertEquals("kmsg: NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus", incident.get(6));
        noConsoleErrors("failures with incidents");
        shoot("failures-incidents");

        go("/queues?from=2026-11-23&to=2026-11-30&groupBy=clusterQueue");
        chartDrawn("window-chart");
        assertEquals(List.of("acme-ml/job-train-9-3f2a1\nworkload", "team-a-cq · acme-lq", "pending", "2026-11-30T11:00:00Z", "1 h", "quota",
                "1", "1", "100", "2", "triage"), cells("#pending-table tbody tr:nth-child(1) td", false));
        browser.findElement(By.linkText("globex-lab/notebook-3")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("pod=globex-lab%2Fnotebook-3"));
        chartDrawn("decisions-chart");
        assertEquals(3, browser.findElements(By.cssSelector("#decisions-table tbody tr")).size());
        noConsoleErrors("queues with a pod's decisions");
        shoot("queues-decisions");

        browser.findElement(By.linkText("Jitter")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/jitter"));
        go("/jitter?window=24h&to=2026-11-30T12:00:00Z");
        for (String chart : List.of("jitter-latency", "jitter-arrivals", "jitter-resources", "interference-chart")) {
            chartDrawn(chart);
        }
        assertEquals(List.of("1", "globex-lab/notebook-2", "0.81", "5.00 min", "0.75", "SM_ACTIVE 0.10 → 0.85",
                "arrived 5 min before; SM_ACTIVE rose 0.75"), cells("#suspects-table tbody tr:nth-child(1) td", false));
        assertEquals(List.of("1", "700", "720 ms", "1.60", "0.93"), cells("#interference-table tbody tr[data-bucket='1'] td", false));
        assertEquals(List.of("42", "41"), cells("#jitter-table tbody tr td:first-child", false));
        noConsoleErrors("jitter");
        shoot("jitter");
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("document.getElementById('suspects-table').scrollIntoView()");
        shoot("jitter-suspects");

        go("/alerts?state=all&since=2026-11-29T12:00:00Z");
        chartDrawn("alerts-chart");
        assertEquals(List.of("GpuXidFatal", "cordon", "enforce", "gpu-a", "APPLIED", "2026-11-30T10:00:30Z", "", "cordoned gpu-a"),
                cells("#actions-table tbody tr:nth-child(1) td", false));
        assertEquals("http://alert-service:8084/api/v1/runbook#GpuXidFatal",
                browser.findElement(By.cssSelector("#alerts-table tbody tr:nth-child(1) a")).getAttribute("href"));
        noConsoleErrors("alerts with actions");
        shoot("alerts-actions");
    }

    @Test
    void anAdminSeesWhatChangedOnTheFleetANodeAndWhatAChangeDid() throws IOException {
        go("/signin");
        signIn(Fixtures.ADMIN);
        browser.findElement(By.linkText("Changes")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/changes"));
        go("/changes?from=2026-11-23&to=2026-12-01");
        chartDrawn("changes-chart");
        assertEquals(List.of("training", "NODE_CORDONED", "1", "1", "1", "2026-11-30T10:00:30Z", "2026-11-30T10:00:30Z"),
                cells("#counts-table tbody tr[data-pool='training'][data-kind='NODE_CORDONED'] td", false));
        assertEquals(14, browser.findElements(By.cssSelector("#changes-table tbody tr")).size());
        assertTrue(browser.findElements(By.cssSelector("#changes-chart svg path")).size() >= 14, "a mark per change");
        List<String> cordon = cells("#changes-table tbody tr.by-suite td", false);
        assertEquals("made by gpumeter gpumeter alert-service: cordon (Xid 79)", cordon.get(7), cordon.toString());
        noConsoleErrors("changes");
        shoot("changes");

        browser.findElement(By.cssSelector("#changes-table tbody tr:first-child td:nth-child(2) a")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("node=gpu-a"));
        chartDrawn("changes-chart");
        assertEquals(List.of("device-plugin", "v0.15.0", "gpu-operator/nvidia-device-plugin-daemonset-x7k2p", "Ready", "0"),
                cells("#stack-components tbody tr[data-component='device-plugin'] td", false));
        String driver = ChangeBookStandIn.LAB.stream().filter(c -> c.kind().equals("DRIVER_VERSION")).findFirst().orElseThrow().id();
        browser.findElement(By.cssSelector("#changes-table tbody tr[data-change='" + driver + "'] a[href*='change=']")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("change=" + driver));
        chartDrawn("impact-chart");
        assertEquals(List.of("after", "2026-11-30T09:40:00Z", "2026-12-01T09:40:00Z", "20.00", "10", "2", "100.00", "10 min", "10 min"),
                cells("#impact-table tbody tr[data-side='after'] td", false));
        assertEquals(List.of("Xid 79", "0", "2", "", ""), cells("#impact-causes tbody tr[data-xid='Xid 79'] td", false));
        noConsoleErrors("a node's changes and a change's impact");
        shoot("changes-node-impact");

        // 2,000 nodes: counted per pool, kind and hour, the table a page at a time
        ChangeBookStandIn.use(ChangeBookStandIn.fleet(2000, java.time.Instant.parse("2026-11-23T06:00:00Z")));
        go("/changes?from=2026-11-23&to=2026-11-30");
        chartDrawn("changes-chart");
        assertEquals(List.of("NVIDIA-A10", "DRIVER_VERSION", "500", "500", "0"),
                cells("#counts-table tbody tr[data-pool='NVIDIA-A10'][data-kind='DRIVER_VERSION'] td", false).subList(0, 5));
        assertEquals(50, browser.findElements(By.cssSelector("#changes-table tbody tr")).size());
        noConsoleErrors("changes at 2,000 nodes");
        shoot("changes-2000-nodes");
        browser.findElement(By.linkText("older →")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("offset=50"));
        assertTrue(browser.findElement(By.cssSelector("#changes h2")).getText().startsWith("Changes 51–100 of "));
        ChangeBookStandIn.reset();

        go("/failures?from=2026-11-23&to=2026-12-01&groupBy=cause");
        chartDrawn("failures-timeline");
        assertTrue(browser.findElements(By.cssSelector("#failures-timeline svg text")).stream()
                .anyMatch(t -> t.getText().contains("DRIVER_VERSION")), "the driver upgrade is marked and labelled");
        noConsoleErrors("failures with changes");
        shoot("failures-changes");

        go("/jitter?window=24h&to=2026-11-30T12:00:00Z");
        chartDrawn("jitter-latency");
        assertEquals(List.of("5 min before", "2026-11-30T10:15:00Z", "gpu-a", "COMPONENT_VERSION", "dcgm-exporter"),
                cells("#event-changes tbody tr:first-child td", false).subList(0, 5));
        noConsoleErrors("jitter with changes");
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("document.getElementById('event-changes').scrollIntoView()");
        shoot("jitter-changes");

        go("/fleet/card?uuid=GPU-aaaa-0001&at=" + Fixtures.AT);
        chartDrawn("usage-chart");
        assertEquals(5, browser.findElements(By.cssSelector("#card-changes tbody tr")).size());
        noConsoleErrors("card with changes");
        ((org.openqa.selenium.JavascriptExecutor) browser).executeScript("document.getElementById('usage-chart').scrollIntoView()");
        shoot("card-changes");
    }

    @Test
    void aTenantSeesItsOwnSlosAndBudget() throws IOException {
        go("/signin");
        signIn(Fixtures.ACME);
        go("/slos?to=2026-11-30T12:00:00Z&window=6h");
        chartDrawn("attainment-chart");
        assertEquals(List.of("acme-availability"), cells("#slos-table tbody tr td:first-child", false));
        assertFalse(browser.getPageSource().contains("chat-ttft"));
        noConsoleErrors("tenant slos");
        shoot("tenant-slos");
        go("/budgets?month=2026-11");
        chartDrawn("budget-chart");
        assertEquals(List.of("acme", "1,000.00", "900.00", "98.3 %", "915.25", "100.00", ""), cells("#budgets-table tbody tr td", false));
        assertFalse(browser.getPageSource().contains("globex"));
        noConsoleErrors("tenant budgets");
        shoot("tenant-budgets");
    }

    @Test
    void aTenantSeesItsOwnRowsAndAReadableRefusalForTheFleet() throws IOException {
        go("/signin");
        signIn(Fixtures.ACME);
        assertTrue(browser.getCurrentUrl().endsWith("/hours"), browser.getCurrentUrl());
        assertTrue(browser.findElements(By.cssSelector("nav a[href='/fleet']")).isEmpty(), "no fleet menu for a tenant");
        assertTrue(browser.findElements(By.cssSelector("nav a[href='/idle']")).isEmpty(), "no idle menu for a tenant");
        assertTrue(browser.findElements(By.cssSelector("nav a[href='/changes']")).isEmpty(), "no changes menu for a tenant");
        go("/hours?month=" + Fixtures.MONTH);
        chartDrawn("hours-chart");
        assertEquals(List.of("acme", "120.50", "80.25", "40.25", "90.0 %", "HIGH", "361.50", "240.75", "120.75", "96.40", "19.28",
                        "33.74"),
                cells("#hours-table tbody tr td", false));
        assertFalse(browser.getPageSource().contains("globex"), "no other tenant's name");
        noConsoleErrors("tenant hours");
        shoot("tenant-hours");

        go("/fleet?at=" + Fixtures.AT);
        WebElement refusal = browser.findElement(By.cssSelector(".message.error"));
        assertTrue(refusal.getText().contains("ledger-service refused: you may not see this"), refusal.getText());
        assertTrue(refusal.getText().contains("a tenant token may not read fleet-wide figures"), refusal.getText());
        noConsoleErrors("tenant fleet");
        shoot("tenant-fleet-refused");

        browser.findElement(By.cssSelector("header form button")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/signin"));
        go("/hours");
        assertTrue(browser.getCurrentUrl().contains("/signin"), "signed out: " + browser.getCurrentUrl());
    }

    @Test
    void aLinkCarryingATokenInItsFragmentShowsWhoseTokenItIsAndSignsInOnAClick() throws IOException {
        // as ./gpumeter token --console prints it; the fragment never reaches a server
        go("/signin#token=" + Fixtures.ACME);
        WebElement accept = confirmShown();
        assertFalse(browser.getCurrentUrl().contains("token="), "the token leaves the address bar: " + browser.getCurrentUrl());
        assertEquals("acme-ci", browser.findElement(By.id("link-subject")).getText());
        assertEquals("tenant:acme", browser.findElement(By.id("link-groups")).getText());
        assertTrue(browser.findElement(By.id("link-expires")).getText().matches("\\d{4}-\\d\\d-\\d\\dT.*Z"));
        assertNull(browser.manage().getCookieNamed(Session.COOKIE), "nobody is signed in before the click");
        shoot("signin-link-confirm");
        accept.click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/hours"));
        assertTrue(browser.findElement(By.cssSelector("header .role")).getText().contains("tenant acme"));
        // signed out, the same link opened on the sign-in page changes only the fragment: it is checked all the same
        browser.findElement(By.cssSelector("header form button")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/signin"));
        go("/signin#token=" + Fixtures.ADMIN);
        confirmShown();
        assertEquals("local-admin", browser.findElement(By.id("link-subject")).getText());
        browser.findElement(By.id("link-accept")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/fleet"));
        noConsoleErrors("token link");
    }

    @Test
    void aCrossSiteNavigationToATokenLinkSignsNoOneInUntilTheClick() throws IOException {
        // mallory's own valid token, planted from another site (127.0.0.1 is another site than localhost)
        String mallory = TestTokens.token("mallory", "tenant:mallory");
        attackerPage("<a id=\"prize\" href=\"" + base("/signin#token=" + mallory) + "\">You have won a GPU</a>");
        browser.findElement(By.id("prize")).click();
        WebElement accept = confirmShown();
        assertTrue(accept.getText().contains("mallory"), "the button says whose session it opens: " + accept.getText());
        assertNull(browser.manage().getCookieNamed(Session.COOKIE), "no session cookie before the click");
        shoot("cross-site-link");
        for (String page : List.of("/hours", "/fleet", "/")) {
            go(page);
            assertTrue(browser.getCurrentUrl().contains("/signin"), page + " shows the sign-in page: " + browser.getCurrentUrl());
            assertTrue(browser.findElements(By.cssSelector("header .role")).isEmpty(), page + ": nobody is shown as signed in");
            assertFalse(browser.getPageSource().contains("mallory"), page);
        }
        assertNull(browser.manage().getCookieNamed(Session.COOKIE));
        assertTrue(StandIn.seen().stream().noneMatch(s -> s.authorization() != null && s.authorization().contains(mallory)),
                "no service was called with the planted token");

        // only the user's click signs in, as the page said
        browser.navigate().to(StandIn.url(Backend.LEDGER) + "/evil");
        browser.findElement(By.id("prize")).click();
        confirmShown().click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> d.getCurrentUrl().endsWith("/hours"));
        assertEquals("mallory", browser.findElement(By.cssSelector("header span[title='token subject']")).getText());
        noConsoleErrors("cross-site link");
    }

    @Test
    void aForgedTokenInALinkIsRefusedPlainly() throws IOException {
        String forged = TestTokens.foreign("victim-admin", "admin");
        attackerPage("<a id=\"prize\" href=\"" + base("/signin#token=" + forged) + "\">Open the fleet</a>");
        browser.findElement(By.id("prize")).click();
        WebElement refusal = new WebDriverWait(browser, Duration.ofSeconds(10))
                .until(ExpectedConditions.visibilityOfElementLocated(By.id("link-refused")));
        assertTrue(refusal.getText().contains("This link signs no one in"), refusal.getText());
        assertTrue(refusal.getText().contains("not signed by this suite's key"), refusal.getText());
        assertFalse(browser.findElement(By.id("link-confirm")).isDisplayed(), "no button to sign in");
        assertFalse(browser.getPageSource().contains("victim-admin"), "the forged subject is never shown");
        assertNull(browser.manage().getCookieNamed(Session.COOKIE));
        shoot("forged-link-refused");
        go("/fleet");
        assertTrue(browser.getCurrentUrl().contains("/signin"), browser.getCurrentUrl());
    }

    @Test
    void aFormPostedFromAnotherSiteSignsNoOneIn() {
        attackerPage("<form method=\"post\" action=\"" + base("/signin") + "\"><input type=\"hidden\" name=\"token\" value=\""
                + TestTokens.token("mallory", "admin") + "\"><button id=\"send\">Go</button></form>");
        browser.findElement(By.id("send")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/signin"));
        assertTrue(browser.getPageSource().contains("Forms are accepted from this console's own pages only."), browser.getPageSource());
        go("/hours");
        assertTrue(browser.getCurrentUrl().contains("/signin"), browser.getCurrentUrl());
        assertNull(browser.manage().getCookieNamed(Session.COOKIE));
    }

    @Test
    void backAfterSignOutShowsTheSignInPageNotTheLastUsersFigures() throws IOException {
        go("/hours?month=" + Fixtures.MONTH);
        signIn(Fixtures.ACME);
        chartDrawn("hours-chart");
        assertEquals(List.of("acme", "120.50", "80.25", "40.25", "90.0 %", "HIGH", "361.50", "240.75", "120.75", "96.40", "19.28",
                        "33.74"),
                cells("#hours-table tbody tr td", false));
        browser.findElement(By.linkText("Budgets")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/budgets"));
        browser.findElement(By.cssSelector("header form button")).click();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.urlContains("/signin"));
        assertNull(browser.manage().getCookieNamed(Session.COOKIE));

        back();
        assertTrue(browser.getCurrentUrl().contains("/signin?next="), "Back asks the console again: " + browser.getCurrentUrl());
        assertTrue(browser.findElements(By.cssSelector("header .role")).isEmpty(), "nobody is shown as signed in");
        assertFalse(browser.getPageSource().contains("acme-ci"), "not the last user's name");
        shoot("back-after-signout");
        back();
        assertFalse(browser.getPageSource().contains("120.50"), "not the last user's figures: " + browser.getCurrentUrl());
        assertFalse(browser.getPageSource().contains("361.50"), browser.getCurrentUrl());
        assertTrue(browser.findElements(By.id("hours-table")).isEmpty(), browser.getCurrentUrl());
    }

    @Test
    void anEmptyMonthSaysWhatToDo() throws IOException {
        go("/signin");
        signIn(Fixtures.ADMIN);
        StandIn.override(Backend.LEDGER, "/api/v1/gpu-hours", StandIn.Reply.json("[]"));
        go("/hours?month=2020-01");
        WebElement info = browser.findElement(By.cssSelector(".message.info"));
        assertTrue(info.getText().contains("No GPU-hours were allocated in 2020-01."), info.getText());
        noConsoleErrors("empty hours");
        shoot("hours-empty");
    }

    private void go(String path) {
        browser.get(base(path));
    }

    private String base(String path) {
        return base.toString().replaceAll("/$", "") + path;
    }

    /** Opens a page of another site (a stand-in service on 127.0.0.1, while the console is on localhost). */
    private void attackerPage(String body) {
        StandIn.override(Backend.LEDGER, "/evil", new StandIn.Reply(200, "text/html; charset=utf-8",
                "<!DOCTYPE html><html><head><title>prize</title></head><body>" + body + "</body></html>"));
        browser.get(StandIn.url(Backend.LEDGER) + "/evil");
        assertTrue(!base.getHost().equals("127.0.0.1"), "the console must be on another site than the attacker: " + base);
    }

    /** Back, as the browser's button: then the sign-in page, and not a page of figures kept from before. */
    private void back() {
        browser.navigate().back();
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(d -> !d.findElements(By.id("token")).isEmpty()
                || !d.findElements(By.cssSelector("header .role")).isEmpty());
        assertTrue(browser.findElements(By.cssSelector("header .role")).isEmpty(),
                "Back shows a signed-in page kept from before the sign-out: " + browser.getCurrentUrl());
        assertEquals(1, browser.findElements(By.id("token")).size(), "Back shows the sign-in page: " + browser.getCurrentUrl());
    }

    /** The confirmation the sign-in page shows for a link's verified token, once the console has answered. */
    private WebElement confirmShown() {
        new WebDriverWait(browser, Duration.ofSeconds(10)).until(ExpectedConditions.visibilityOfElementLocated(By.id("link-confirm")));
        return browser.findElement(By.id("link-accept"));
    }

    private void signIn(String token) {
        chromium.signIn(token);
    }

    private void chartDrawn(String id) {
        chromium.chartDrawn(id);
    }

    private List<String> cells(String selector, boolean firstLineOnly) {
        return chromium.cells(selector, firstLineOnly);
    }

    private void noConsoleErrors(String page) {
        chromium.noConsoleErrors(page);
    }

    private void shoot(String name) throws IOException {
        chromium.shoot(name);
    }
}
