package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.gpumeter.console.PagesTest.page;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** My workloads: a tenant's own pods and workloads now, each a click from its triage, and no other tenant's. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class WorkloadsPagesTest {

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    @Test
    void aTenantSeesItsOwnWorkloadsWhatEachHoldsOrWhyItWaitsAndItsTriage() {
        String html = page("/workloads", Fixtures.ACME);
        assertTrue(PagesTest.nav(html).contains("<a href=\"/workloads\" class=\"active\">My workloads</a>"), PagesTest.nav(html));
        assertEquals(List.of("/api/v1/tenants/acme/workloads"), StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        TriagePagesTest.assertForwarded(Fixtures.ACME);
        assertTrue(html.contains("<tr data-object=\"acme-ml/train-7\"><td>acme-ml/train-7 <span class=\"sub\">pod</span></td><td>lab</td>"
                + "<td>gpu-a: GPU-aaaa-0001 vGPU 50 % cores, 40960 MiB (0.5 of a card)</td><td class=\"at\">2026-11-30T09:00:00Z</td>"
                + "<td><a class=\"triage\" href=\"/triage?namespace=acme-ml&amp;pod=train-7&amp;cluster=lab\">triage</a></td></tr>"), html);
        assertTrue(html.contains("<td>gpu-a: GPU-aaaa-0002 whole card</td>"), html);
        assertTrue(html.contains("<tr data-object=\"acme-ml/job-train-9-3f2a1\"><td>acme-ml/job-train-9-3f2a1 <span class=\"sub\">workload</span></td>"
                + "<td>lab</td><td>PENDING</td><td>quota, place 1 in team-a-cq</td><td class=\"at\">2026-11-30T11:00:00Z</td>"
                + "<td><a class=\"triage\" href=\"/triage?namespace=acme-ml&amp;workload=job-train-9-3f2a1&amp;cluster=lab\">"), html);
        // a name that is markup is text, and its link carries it encoded
        assertTrue(html.contains("<td>acme-ml/&lt;img src=x onerror=alert(1)&gt; <span class=\"sub\">pod</span></td>"), html);
        assertTrue(html.contains("href=\"/triage?namespace=acme-ml&amp;pod=%3Cimg+src%3Dx+onerror%3Dalert%281%29%3E&amp;cluster=lab\""), html);
        assertFalse(html.contains("<img src=x"), html);
        assertFalse(html.contains("globex") || html.contains("notebook"), "no other tenant's rows");
    }

    @Test
    void aTenantAlwaysReadsItsOwnTenantWhateverTheAddressSays() {
        String html = page("/workloads?tenant=globex&cluster=lab", Fixtures.ACME);
        assertEquals(List.of("/api/v1/tenants/acme/workloads?cluster=lab"), StandIn.seen().stream().map(StandIn.Seen::pathAndQuery).toList());
        assertFalse(html.contains("globex") || html.contains("notebook"), html);
        assertTrue(html.contains("acme-ml/train-7"), html);
    }

    @Test
    void aFleetUserPicksTheTenantAndHasNoMyWorkloadsMenu() {
        String html = page("/workloads", Fixtures.ADMIN);
        assertTrue(html.contains("Pick a tenant."), html);
        assertTrue(StandIn.seen().isEmpty());
        assertFalse(PagesTest.nav(html).contains("My workloads"));
        html = page("/workloads?tenant=globex", Fixtures.ADMIN);
        assertTrue(html.contains("<td>globex-lab/notebook-3 <span class=\"sub\">pod</span></td><td>lab</td><td>PENDING</td><td>no-device</td>"), html);
        assertTrue(html.contains("<td>gpu-a: GPU-aaaa-0001 vGPU 25 % cores, 20480 MiB (0.25 of a card)</td>"), html);
    }

    @Test
    void aTenantWithNothingNowIsToldSo() {
        StandIn.override(Backend.LEDGER, "/api/v1/tenants/acme/workloads", StandIn.Reply.json("[]"));
        assertTrue(page("/workloads", Fixtures.ACME).contains("You have no pod or workload now."));
    }
}
