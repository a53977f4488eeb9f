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

/** The Triage page draws alert-service's answer: the path taken, the causes ruled out, the evidence, the fix. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class TriagePagesTest {

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    @Test
    void aPodsTriageDrawsThePathTakenTheCausesRuledOutTheEvidenceAndTheFix() {
        String html = page("/triage?namespace=globex-lab&pod=notebook-3&cluster=lab", Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/triage?namespace=globex-lab&pod=notebook-3&cluster=lab"), asked());
        assertTrue(html.contains("<h2>pod globex-lab/notebook-3 in lab at 2026-11-30T12:00:00Z</h2>"), html);
        assertTrue(html.contains("<div class=\"node taken\" id=\"node-symptom\"><span class=\"level\">Symptom</span> <span class=\"value\">PENDING</span>"), html);
        assertTrue(html.contains("id=\"node-layer\"><span class=\"level\">Layer</span> <span class=\"value\">data-plane</span>"), html);
        assertTrue(html.contains("<div class=\"node taken cause high\" id=\"node-cause\"><span class=\"level\">Cause</span> <span class=\"value\">no-device</span>"), html);
        assertTrue(html.contains("<span class=\"confidence\">confidence HIGH</span>"), html);
        // the full cluster it is easily taken for, greyed, with what ruled it out
        assertTrue(html.contains("<div class=\"node ruled-out\" data-cause=\"cluster-full\"><span class=\"level\">ruled out</span> <span class=\"value\">cluster-full</span>\n"
                + "        <span class=\"why\">gpu-b offers 0 of its 2 cards and none is held: the cards are not reported, not taken</span>"), html);
        assertEquals(3, count(html, "class=\"node ruled-out\""));
        assertTrue(html.contains("<td class=\"fact\">gpu-b: capacity nvidia.com/gpu 2, allocatable 0</td>"), html);
        assertTrue(html.contains("<pre><code id=\"evidence-1-command\">kubectl get node gpu-b -o jsonpath=&#39;{.status.allocatable}&#39;</code></pre>"
                + "<button type=\"button\" class=\"copy\" data-copy=\"evidence-1-command\">Copy</button>"), html);
        assertEquals(3 + 1, count(html, "class=\"copy\""), "a button per command and one for the fix's check");
        assertTrue(html.contains("<p class=\"action\">Restart the device plugin on gpu-b, then read its log for why it crashed.</p>"), html);
        assertTrue(html.contains("<code id=\"fix-verify\">kubectl get node gpu-b -o jsonpath=&#39;{.status.allocatable.nvidia\\.com/gpu}&#39;</code>"), html);
        assertTrue(html.contains("<dt>Reaches</dt><dd>NODE: <span class=\"alike\">gpu-b</span></dd>"), html);
        assertTrue(html.contains("<dd>2 time(s) in the last 7 days, first 2026-11-29T03:10:00Z</dd>"), html);
        assertTrue(html.contains("<td>20 min before</td><td class=\"at\">2026-11-30T11:40:00Z</td><td>gpu-b</td><td>GPU_ALLOCATABLE</td>"
                + "<td>nvidia.com/gpu</td><td>2 → 0</td>"), html);
        // the evidence on a time axis: a lane per source, the instant triaged, the changes before it
        String axis = option(html, "evidence-chart");
        assertTrue(axis.contains("\"data\":[\"event\",\"node\",\"gpu-stack\"]"), axis);
        assertTrue(axis.contains("{\"value\":[\"2026-11-30T11:40:00Z\",\"node\"],\"name\":\"gpu-b: capacity nvidia.com/gpu 2, allocatable 0\"}")
                || axis.contains("{\"name\":\"gpu-b: capacity nvidia.com/gpu 2, allocatable 0\",\"value\":[\"2026-11-30T11:40:00Z\",\"node\"]}"), axis);
        assertTrue(axis.contains("\"formatter\":\"triaged\"") && axis.contains("{\"xAxis\":\"2026-11-30T12:00:00Z\"}"), axis);
        assertTrue(axis.contains("\"name\":\"GPU_ALLOCATABLE\"") && axis.contains("\"name\":\"COMPONENT_HEALTH\""), axis);
        assertTrue(PagesTest.nav(html).contains("href=\"/triage\" class=\"active\""));
        assertForwarded(Fixtures.ADMIN);
    }

    @Test
    void theFormAsksTheSameQuestionAsALink() {
        String html = page("/triage?kind=workload&namespace=acme-ml&name=job-train-9-3f2a1&cluster=&at=2026-11-30T12:00", Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/triage?namespace=acme-ml&workload=job-train-9-3f2a1&at=2026-11-30T12%3A00%3A00Z"), asked());
        assertTrue(html.contains("<option value=\"workload\" selected>workload</option>"), html);
        assertTrue(html.contains("name=\"at\" value=\"2026-11-30T12:00\""), html);
        assertTrue(html.contains("<span class=\"value\">quota</span>"), html);

        StandIn.reset();
        html = page("/triage?node=gpu-a&namespace=ignored&cluster=lab", Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/triage?node=gpu-a&cluster=lab"), asked(), "a node has no namespace");
        assertTrue(html.contains("<span class=\"value\">xid-79</span>") && html.contains("<td>DRIVER_VERSION</td>"), html);
        assertFalse(html.contains("class=\"node ruled-out\""), "nothing ruled out, nothing greyed");
    }

    @Test
    void markupInAPodsNameItsFactsAndCommandsIsShownAsText() {
        String html = page("/triage?namespace=acme-ml&pod=" + TriageStandIn.HOSTILE_POD, Fixtures.ADMIN);
        assertEquals(List.of("/api/v1/triage?namespace=acme-ml&pod=%3Cimg+src%3Dx+onerror%3Dalert%281%29%3E"), asked());
        assertFalse(html.contains("<img src=x"), html);
        assertFalse(html.contains("<script>alert"), html);
        assertFalse(html.contains("<b>bold</b>") || html.contains("<i>the pod"), html);
        assertTrue(html.contains("<title>Triage: pod acme-ml/&lt;img src=x onerror=alert(1)&gt; · gpumeter console</title>"), html);
        assertTrue(html.contains("<code id=\"evidence-0-command\">kubectl logs -n acme-ml &#39;&lt;img src=x onerror=alert(1)&gt;&#39; --previous</code>"), html);
        assertTrue(html.contains("OOMKilled: &lt;script&gt;alert(&#39;fact&#39;)&lt;/script&gt; rose to its limit"), html);
        assertTrue(html.contains("<span class=\"alike\">acme-ml/&lt;img src=x onerror=alert(1)&gt;</span>, and 1 of other tenants"), html);
        assertTrue(html.contains("name=\"name\" value=\"&lt;img src=x onerror=alert(1)&gt;\""), "the form keeps it as text too");
        String axis = option(html, "evidence-chart");
        assertFalse(axis.contains("<"), axis);
        assertTrue(axis.contains("\\u003cscript\\u003e"), axis);
    }

    @Test
    void aHealthySubjectSaysSoAndWhatWasChecked() {
        String html = page("/triage?namespace=acme-ml&pod=train-7", Fixtures.ADMIN);
        assertTrue(html.contains("id=\"triage-healthy\">Nothing wrong was found (symptom NONE).</p>"), html);
        assertTrue(html.contains("<span class=\"value\">NONE</span>"), html);
        assertFalse(html.contains("id=\"node-cause\""), "no cause on a healthy path");
        assertTrue(html.contains("<details class=\"checked\" id=\"triage-checked\" open>"), html);
        assertTrue(html.contains("<li>no incident of the pod or its card</li>"), html);
        assertFalse(html.contains("evidence-chart-option"), "no evidence, no axis");
    }

    @Test
    void whatCannotBeTriagedIsSaidAndAskedOfNobody() {
        String html = page("/triage", Fixtures.ADMIN);
        assertTrue(html.contains("Pick what to triage."), html);
        html = page("/triage?pod=a&node=b", Fixtures.ADMIN);
        assertTrue(html.contains("The address names pod and node; a triage starts from one."), html);
        html = page("/triage?node=gpu-a&at=yesterday", Fixtures.ADMIN);
        assertTrue(html.contains("at must be a time such as 2026-11-30T12:00:00Z, got &#39;yesterday&#39;."), html);
        assertTrue(StandIn.seen().isEmpty(), StandIn.seen().toString());

        html = page("/triage?namespace=acme-ml&pod=ghost", Fixtures.ADMIN);
        assertTrue(html.contains("alert-service answered 404: Not Found") && html.contains("no pod named acme-ml/ghost is known"), html);
        html = page("/triage?kind=pod&name=notebook-3", Fixtures.ADMIN);
        assertTrue(html.contains("alert-service answered 400") && html.contains("namespace is required with pod"), html);
    }

    @Test
    void aTenantTriagesItsOwnAndSeesNoOtherTenantsNames() {
        String html = page("/triage?namespace=acme-serve&service=llm", Fixtures.ACME);
        assertTrue(html.contains("<span class=\"value\">neighbour-interference</span>"), html);
        assertTrue(html.contains("another tenant&#39;s pod arrived on GPU-aaaa-0001"), html);
        assertFalse(html.contains("globex"), html);
        assertTrue(PagesTest.nav(html).contains("href=\"/triage\""), "a tenant has the Triage page");
        assertForwarded(Fixtures.ACME);

        StandIn.reset();
        html = page("/triage?namespace=globex-lab&pod=notebook-3", Fixtures.ACME);
        assertTrue(html.contains("alert-service answered 404"), html);
        assertFalse(html.contains("no-device") || html.contains("gpu-b"), html);
    }

    private static List<String> asked() {
        return StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList();
    }

    static int count(String html, String text) {
        int n = 0;
        for (int i = html.indexOf(text); i >= 0; i = html.indexOf(text, i + 1)) {
            n++;
        }
        return n;
    }

    static void assertForwarded(String token) {
        assertFalse(StandIn.seen().isEmpty());
        StandIn.seen().forEach(s -> assertEquals("Bearer " + token, s.authorization(), s.pathAndQuery()));
    }
}
