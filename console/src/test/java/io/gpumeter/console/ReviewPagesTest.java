package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static io.gpumeter.console.PagesTest.page;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.endsWith;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An incident's review as a page, its exports, and the form operators and admins record one with. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class ReviewPagesTest {

    private static final String REVIEWED = "/failures/incidents/" + ReviewStandIn.REVIEWED + "/review";
    private static final String OPEN = "/failures/incidents/" + ReviewStandIn.OPEN_XID + "/review";
    private static final String OPEN_API = "/api/v1/failures/incidents/" + ReviewStandIn.OPEN_XID + "/review";

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    @Test
    void aRecordedReviewShowsTheIncidentTheCauseAsDecidedItsPreventionItemsAndTheTriageFrozenThen() {
        String html = page(REVIEWED, Fixtures.READER);
        assertEquals(Set.of("/api/v1/failures/incidents/" + ReviewStandIn.REVIEWED + "/review",
                        "/api/v1/failures/incidents/" + ReviewStandIn.REVIEWED),
                Set.copyOf(StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList()), "no live triage once one is frozen");
        assertTrue(html.contains("<dt>Incident</dt><dd>oom (workload) on lab · gpu-a · GPU-aaaa-0001 · acme-ml/train-5</dd>"), html);
        assertTrue(html.contains("<dd>2026-11-30T09:30:00Z, recovered 2026-11-30T09:42:00Z</dd>"), html);
        assertTrue(html.contains("<h2>Reviewed 2026-11-30T11:00:00Z by ops-oncall</h2>"), html);
        assertTrue(html.contains("<dt>Root-cause class</dt><dd>data-plane</dd>\n    <dt>Cause as decided</dt><dd>neighbour-memory-pressure</dd>"), html);
        assertTrue(html.contains("train-5 ran out of card memory at 09:30 while its own use stayed under its grant"), html);
        assertTrue(html.contains("<li><span class=\"kind\">ALERT_THRESHOLD</span> alert GpuMemoryNearlyFull (warning) when min by (gpu) "
                + "(DCGM_FI_DEV_FB_FREE) &lt; 2048 for 2m <span class=\"sub\">A shared card&#39;s memory is nearly full</span> · "
                + "<a href=\"" + REVIEWED + "/items/1?version=1\" hx-boost=\"false\" class=\"export\">PrometheusRule (YAML)</a></li>"), html);
        assertTrue(html.contains("<span class=\"kind\">ADMISSION_POLICY</span> no container requests more than 20480 nvidia.com/gpumem "
                + "in globex-lab (DENY)"), html);
        assertTrue(html.contains("<span class=\"kind\">REGRESSION_CASE</span> a regression case: the incident&#39;s inputs"), html);
        assertTrue(html.contains("Inputs kept: other tenants&#39; pods named as another tenant&#39;s pod"), html);
        assertTrue(html.contains("<h2>The triage as it stood when the review was recorded</h2>"), html);
        assertTrue(html.contains("id=\"node-cause\"><span class=\"level\">Cause</span> <span class=\"value\">neighbour-memory-pressure</span>"), html);
        assertTrue(html.contains("data-cause=\"oom\"") && html.contains("its memory stayed at 30720 MiB, under its 40960 MiB grant"), html);
        assertTrue(html.contains("id=\"evidence-chart-option\""), html);
        assertTrue(html.contains("href=\"" + REVIEWED + "/markdown\""), html);
        assertFalse(html.contains("id=\"review-form\""), "a reader records no review");
        assertTrue(PagesTest.nav(html).contains("href=\"/failures\" class=\"active\""));
    }

    @Test
    void beforeAReviewThePageShowsTheIncidentsTriageNowAndAFormStartingFromIt() {
        String html = page(OPEN, Fixtures.ADMIN);
        assertTrue(html.contains("Incident " + ReviewStandIn.OPEN_XID + " has no review yet."), html);
        assertTrue(StandIn.seen().stream().anyMatch(s -> s.pathAndQuery().equals("/api/v1/triage?node=gpu-a&cluster=lab&at=2026-11-30T10%3A00%3A00Z")),
                StandIn.seen().toString());
        assertTrue(html.contains("<h2>The incident's triage now (recorded with the review)</h2>"), html);
        assertTrue(html.contains("<details open>") && html.contains("id=\"review-form\""), html);
        assertTrue(html.contains("<option value=\"data-plane\" selected>data-plane</option>"), "the triage's layer, to start from");
        assertTrue(html.contains("name=\"cause\" id=\"cause\" value=\"xid-79\""), html);
        TriagePagesTest.assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void anAdminRecordsAReviewWithItsItemsAndSeesItAfterwards() {
        String cookie = Fixtures.session(Fixtures.ADMIN);
        given().redirects().follow(false).cookie(Session.COOKIE, cookie)
                .formParam("rootCauseClass", "data-plane").formParam("cause", "xid-79")
                .formParam("summary", "gpu-a's card fell off the bus after the driver upgrade")
                .formParam("alert", "GpuXid79").formParam("metric", "gpumeter_ledger_incidents_open").formParam("matchers", "cause=xid-79")
                .formParam("comparison", ">").formParam("threshold", "0").formParam("for", "1m").formParam("severity", "critical")
                .formParam("policy", "").formParam("regression", "on").formParam("regressionNote", "driver upgrades")
                .formParam("more", "[{\"kind\":\"ADMISSION_POLICY\",\"policy\":\"REQUIRE_SCHEDULER\",\"resource\":\"nvidia.com/gpumem\",\"schedulerName\":\"hami-scheduler\"}]")
                .post(OPEN).then().statusCode(303).header("Location", endsWith(OPEN));
        StandIn.Seen posted = StandIn.seen().get(0);
        assertEquals(OPEN_API, posted.pathAndQuery());
        assertEquals("Bearer " + Fixtures.ADMIN, posted.authorization());
        assertEquals("{\"rootCauseClass\":\"data-plane\",\"cause\":\"xid-79\",\"summary\":\"gpu-a's card fell off the bus after the driver upgrade\","
                + "\"prevention\":[{\"kind\":\"ALERT_THRESHOLD\",\"alert\":\"GpuXid79\",\"metric\":\"gpumeter_ledger_incidents_open\","
                + "\"matchers\":{\"cause\":\"xid-79\"},\"comparison\":\">\",\"threshold\":0,\"for\":\"1m\",\"severity\":\"critical\"},"
                + "{\"kind\":\"REGRESSION_CASE\",\"note\":\"driver upgrades\"},"
                + "{\"kind\":\"ADMISSION_POLICY\",\"policy\":\"REQUIRE_SCHEDULER\",\"resource\":\"nvidia.com/gpumem\",\"schedulerName\":\"hami-scheduler\"}]}",
                posted.body());

        String html = page(OPEN, Fixtures.ADMIN);
        assertTrue(html.contains("<span class=\"kind\">REGRESSION_CASE</span>") && html.contains("<span class=\"sub\">driver upgrades</span>"), html);
        assertTrue(html.contains("a pod requesting nvidia.com/gpumem names scheduler hami-scheduler in every namespace"), html);
        assertTrue(html.contains("<h2>The triage as it stood when the review was recorded</h2>") && html.contains("<span class=\"value\">xid-79</span>"), html);
        assertTrue(html.contains("<summary>Record the review again</summary>"), html);
        // recording it again starts from what was recorded: its items as JSON, without what alert-service added
        assertTrue(html.contains("&quot;alert&quot; : &quot;GpuXid79&quot;") && !html.contains("&quot;export&quot;"), html);
    }

    @Test
    void anIncompleteReviewIsSentBackWithWhatIsMissingAndSentToNobody() {
        String cookie = Fixtures.session(Fixtures.ADMIN);
        String html = given().redirects().follow(false).cookie(Session.COOKIE, cookie).formParam("rootCauseClass", "hardware")
                .formParam("cause", "xid-79").formParam("summary", "").formParam("more", "[{\"kind\": ")
                .post(OPEN).then().statusCode(400).extract().asString();
        assertTrue(html.contains("rootCauseClass: pick one of control-plane, data-plane, workload, operations-configuration."), html);
        assertTrue(html.contains("summary: say in a few lines what happened."), html);
        assertTrue(html.contains("[{&quot;kind&quot;:</textarea>"), "what was typed is kept");
        assertTrue(StandIn.seen().stream().allMatch(s -> s.body().isEmpty()), "nothing was posted: " + StandIn.seen());

        StandIn.reset();
        html = given().redirects().follow(false).cookie(Session.COOKIE, cookie).formParam("rootCauseClass", "data-plane")
                .formParam("cause", "xid-79").formParam("summary", "s").formParam("more", "{\"kind\": \"ODD\"")
                .post(OPEN).then().statusCode(400).extract().asString();
        assertTrue(html.contains("more items: not JSON (line 1, column"), html);
        assertTrue(StandIn.seen().stream().allMatch(s -> s.body().isEmpty()), StandIn.seen().toString());

        // what alert-service refuses it says in its own words, naming the field
        html = given().redirects().follow(false).cookie(Session.COOKIE, cookie).formParam("rootCauseClass", "data-plane")
                .formParam("cause", "xid-79").formParam("summary", "s").formParam("more", "[{\"kind\": \"ODD\"}]")
                .post(OPEN).then().statusCode(400).extract().asString();
        assertTrue(html.contains("alert-service answered 400") && html.contains("prevention[0].kind must be one of"), html);
    }

    @Test
    void aTenantSeesNoFormAndIsRefused() {
        String html = page(REVIEWED, Fixtures.ACME);
        assertFalse(html.contains("id=\"review-form\""), html);
        assertTrue(html.contains("alert-service refused: you may not see this"), html);
        assertFalse(html.contains("train-5") || html.contains("notebook"), html);
        String refused = given().redirects().follow(false).cookie(Session.COOKIE, Fixtures.session(Fixtures.ACME))
                .formParam("rootCauseClass", "workload").formParam("cause", "oom").formParam("summary", "mine")
                .post(OPEN).then().statusCode(400).extract().asString();
        assertTrue(refused.contains("alert-service refused: you may not see this"), refused);
    }

    @Test
    void theMarkdownAndAnItemsExportComeFromAlertServiceWithTheViewersToken() {
        String body = given().cookie(Session.COOKIE, Fixtures.session(Fixtures.ADMIN)).get(REVIEWED + "/markdown").then().statusCode(200)
                .header("Content-Disposition", "attachment; filename=\"incident-" + ReviewStandIn.REVIEWED + "-review.md\"")
                .contentType("text/markdown;charset=UTF-8").extract().asString();
        assertTrue(body.startsWith("# Incident " + ReviewStandIn.REVIEWED), body);
        String rule = given().cookie(Session.COOKIE, Fixtures.session(Fixtures.ADMIN)).get(REVIEWED + "/items/1?version=1").then().statusCode(200)
                .header("Content-Disposition", "attachment; filename=\"incident-" + ReviewStandIn.REVIEWED + "-item-1.yaml\"")
                .contentType("application/yaml").extract().asString();
        assertTrue(rule.contains("kind: PrometheusRule") && rule.contains("alert: GpuMemoryNearlyFull"), rule);
        assertEquals(List.of("/api/v1/failures/incidents/" + ReviewStandIn.REVIEWED + "/review?format=markdown",
                "/api/v1/failures/incidents/" + ReviewStandIn.REVIEWED + "/review/items/1?version=1"),
                StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        TriagePagesTest.assertForwarded(Fixtures.ADMIN);
        String refused = given().cookie(Session.COOKIE, Fixtures.session(Fixtures.ADMIN)).get(REVIEWED + "/items/3").then().statusCode(404)
                .extract().asString();
        assertTrue(refused.contains("the stand-in exports alert thresholds only"), refused);
    }
}
