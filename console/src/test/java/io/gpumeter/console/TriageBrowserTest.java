package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;

import java.io.IOException;
import java.net.URL;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Triage in a real browser: reached from Queues, Failures, Jitter and My workloads, the path drawn with the causes
 * ruled out greyed, the evidence on its time axis, a command copied to the clipboard, markup in a pod's name shown as
 * text (no script runs, in the page or in the chart's tooltip), and an incident's review recorded and shown.
 */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class TriageBrowserTest {

    private static Chromium chromium;
    private static ChromeDriver browser;

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
    void aWaitingPodOnQueuesIsTriagedToItsCauseWithTheOthersRuledOutAndACommandToCopy() throws IOException {
        go("/queues?from=2026-11-23&to=2026-11-30&groupBy=clusterQueue");
        chromium.signIn(Fixtures.ADMIN);
        browser.findElement(By.cssSelector("#pending-table tr[data-object='globex-lab/notebook-3'] a.triage")).click();
        chromium.waitForUrl("/triage?namespace=globex-lab&pod=notebook-3&cluster=lab&at=2026-11-30T00%3A00%3A00Z");
        assertEquals(List.of("SYMPTOM\nPENDING", "LAYER\ndata-plane", "CAUSE\nno-device\nconfidence HIGH"),
                chromium.cells("#triage-tree .node.taken", false));
        List<WebElement> ruledOut = browser.findElements(By.cssSelector("#triage-tree .node.ruled-out"));
        assertEquals(List.of("cluster-full", "wrong-scheduler", "affinity-or-taint"),
                ruledOut.stream().map(e -> e.findElement(By.cssSelector(".value")).getText()).toList());
        WebElement greyed = ruledOut.get(0).findElement(By.cssSelector(".value"));
        assertEquals("line-through", greyed.getCssValue("text-decoration-line"), "a cause ruled out is struck through");
        assertEquals("rgba(135, 148, 163, 1)", greyed.getCssValue("color"), "and greyed");
        assertTrue(ruledOut.get(0).getText().contains("gpu-b offers 0 of its 2 cards and none is held"), ruledOut.get(0).getText());
        chromium.chartDrawn("evidence-chart");
        assertTrue(browser.findElements(By.cssSelector("#evidence-chart svg path")).size() >= 3, "a mark per fact");

        // a command copied is the command as a terminal wants it, quotes and braces as they are
        browser.executeCdpCommand("Browser.grantPermissions", Map.of("origin", base.toString().replaceAll("/$", ""),
                "permissions", List.of("clipboardReadWrite", "clipboardSanitizedWrite")));
        WebElement copy = browser.findElement(By.cssSelector("button.copy[data-copy='evidence-1-command']"));
        copy.click();
        // the button says so once the clipboard has taken it, which is a promise away
        new org.openqa.selenium.support.ui.WebDriverWait(browser, java.time.Duration.ofSeconds(10))
                .until(d -> "Copied".equals(copy.getText()));
        assertEquals("Copied", copy.getText());
        Object copied = browser.executeAsyncScript("var done = arguments[0]; navigator.clipboard.readText().then(done, function (e) { done('failed: ' + e); });");
        assertEquals("kubectl get node gpu-b -o jsonpath='{.status.allocatable}'", copied);
        chromium.noConsoleErrors("triage");
        chromium.shoot("triage");
    }

    @Test
    void markupInAPodsNameIsShownAsTextAndRunsNowhere() throws IOException {
        go("/triage?namespace=acme-ml&pod=" + URLEncoder.encode(TriageStandIn.HOSTILE_POD, StandardCharsets.UTF_8));
        chromium.signIn(Fixtures.ADMIN);
        assertThrows(NoAlertPresentException.class, () -> browser.switchTo().alert(), "no script ran");
        assertTrue(browser.findElements(By.cssSelector("main img, main script:not([type='application/json'])")).isEmpty(),
                "no element was made of a tenant's text");
        assertEquals("Triage: pod acme-ml/<img src=x onerror=alert(1)>", browser.findElement(By.tagName("h1")).getText());
        assertEquals("kubectl logs -n acme-ml '<img src=x onerror=alert(1)>' --previous",
                browser.findElement(By.id("evidence-0-command")).getText());
        assertEquals("OOMKilled: <script>alert('fact')</script> rose to its limit",
                browser.findElement(By.cssSelector("#evidence-0 td.fact")).getText());
        chromium.chartDrawn("evidence-chart");
        // the fact in the chart's tooltip is text too
        browser.executeScript("echarts.getInstanceByDom(document.getElementById('evidence-chart'))"
                + ".dispatchAction({type: 'showTip', seriesIndex: 0, dataIndex: 0});");
        String tip = (String) browser.executeScript("return document.getElementById('evidence-chart').innerText;");
        assertTrue(tip.contains("OOMKilled: <script>alert('fact')</script> rose to its limit"), tip);
        assertTrue(browser.findElements(By.cssSelector("#evidence-chart script, #evidence-chart img")).isEmpty());
        assertThrows(NoAlertPresentException.class, () -> browser.switchTo().alert());
        chromium.noConsoleErrors("hostile triage");
        chromium.shoot("triage-hostile");
    }

    @Test
    void anIncidentOnFailuresIsTriagedAndReviewedAndAJitterEventsServiceTriaged() throws IOException {
        go("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause");
        chromium.signIn(Fixtures.ADMIN);
        browser.findElement(By.cssSelector("#incidents-table a.triage")).click();
        chromium.waitForUrl("/triage?node=gpu-a&cluster=lab&at=2026-11-30T10%3A00%3A00Z");
        assertEquals("xid-79", browser.findElement(By.cssSelector("#node-cause .value")).getText());
        assertEquals(List.of("20 min before", "2026-11-30T09:40:00Z", "gpu-a", "DRIVER_VERSION", "", "550.54.15 → 560.35.03", "impact"),
                chromium.cells("#triage-changes tbody tr td", false));
        chromium.noConsoleErrors("node triage");
        chromium.shoot("triage-node");

        go("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause");
        browser.findElement(By.cssSelector("#incidents-table a.review")).click();
        chromium.waitForUrl("/failures/incidents/" + ReviewStandIn.OPEN_XID + "/review");
        assertTrue(browser.findElement(By.cssSelector(".message.info")).getText().contains("has no review yet"));
        assertEquals("data-plane", new Select(browser.findElement(By.id("rootCauseClass"))).getFirstSelectedOption().getText(),
                "the form starts from the incident's triage now");
        assertEquals("xid-79", browser.findElement(By.id("cause")).getAttribute("value"));
        browser.findElement(By.id("summary")).sendKeys("gpu-a's card fell off the bus after the driver upgrade.");
        browser.findElement(By.name("alert")).sendKeys("GpuXid79");
        browser.findElement(By.name("metric")).sendKeys("gpumeter_ledger_incidents_open");
        browser.findElement(By.name("threshold")).sendKeys("0");
        new Select(browser.findElement(By.name("severity"))).selectByValue("critical");
        browser.findElement(By.name("regression")).click();
        browser.executeScript("document.getElementById('review-form').scrollIntoView();");
        chromium.shoot("review-form");
        browser.findElement(By.cssSelector("#review-form button[type=submit]")).click();
        new org.openqa.selenium.support.ui.WebDriverWait(browser, java.time.Duration.ofSeconds(10))
                .until(d -> !d.findElements(By.id("review-items")).isEmpty());
        List<String> items = chromium.cells("#review-items li", false);
        assertEquals(2, items.size(), items.toString());
        assertTrue(items.get(0).startsWith("ALERT_THRESHOLD alert GpuXid79 (critical) when") && items.get(0).endsWith("PrometheusRule (YAML)"), items.get(0));
        assertTrue(items.get(1).startsWith("REGRESSION_CASE a regression case"), items.get(1));
        assertEquals("xid-79", browser.findElement(By.cssSelector("#node-cause .value")).getText(), "the triage frozen with it");
        chromium.noConsoleErrors("review");
        chromium.shoot("review");

        go("/jitter?to=2026-11-30T12:00:00Z&window=24h&event=42");
        browser.findElement(By.id("event-triage")).click();
        chromium.waitForUrl("/triage?namespace=acme-serve&service=llm&at=2026-11-30T10%3A20%3A00Z");
        assertEquals("neighbour-interference", browser.findElement(By.cssSelector("#node-cause .value")).getText());
        assertEquals("CAUSE\nneighbour-interference\nconfidence MEDIUM", browser.findElement(By.id("node-cause")).getText());
        chromium.noConsoleErrors("service triage");
        chromium.shoot("triage-service");
    }

    @Test
    void aTenantSeesOnlyItsOwnWorkloadsEachAClickFromItsTriage() throws IOException {
        go("/workloads");
        chromium.signIn(Fixtures.ACME);
        assertEquals(List.of("Hours and cost", "Budgets", "SLOs", "My workloads", "Triage"), chromium.cells("header nav a", false));
        assertEquals(List.of("acme-ml/<img src=x onerror=alert(1)>\npod", "acme-ml/job-train-9-3f2a1\nworkload"),
                chromium.cells("#waiting-table tbody td:first-child", false));
        assertEquals(List.of("acme-ml/train-7\npod", "acme-serve/llm-0\npod"), chromium.cells("#holding-table tbody td:first-child", false));
        assertFalse(browser.getPageSource().contains("globex"), "no other tenant's row");
        chromium.noConsoleErrors("my workloads");
        chromium.shoot("my-workloads");

        browser.findElement(By.cssSelector("#waiting-table tr[data-object='acme-ml/job-train-9-3f2a1'] a.triage")).click();
        chromium.waitForUrl("/triage?namespace=acme-ml&workload=job-train-9-3f2a1&cluster=lab");
        assertEquals("quota", browser.findElement(By.cssSelector("#node-cause .value")).getText());
        assertTrue(StandIn.seen().stream().allMatch(s -> ("Bearer " + Fixtures.ACME).equals(s.authorization())), StandIn.seen().toString());
        chromium.noConsoleErrors("tenant triage");
        chromium.shoot("tenant-triage");
    }

    @Test
    void aRecordedReviewIsAPage() throws IOException {
        go("/failures/incidents/" + ReviewStandIn.REVIEWED + "/review");
        chromium.signIn(Fixtures.ADMIN);
        assertEquals("Reviewed 2026-11-30T11:00:00Z by ops-oncall", browser.findElement(By.cssSelector("#review h2")).getText());
        assertEquals(3, browser.findElements(By.cssSelector("#review-items li")).size());
        assertEquals("neighbour-memory-pressure", browser.findElement(By.cssSelector("#node-cause .value")).getText());
        chromium.chartDrawn("evidence-chart");
        assertFalse(browser.findElement(By.id("review-form")).isDisplayed(), "recording again is folded away");
        chromium.noConsoleErrors("review recorded");
        chromium.shoot("review-recorded");
    }

    private void go(String path) {
        browser.get(base.toString().replaceAll("/$", "") + path);
    }
}
