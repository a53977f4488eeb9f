package io.gpumeter.console;

import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static io.gpumeter.console.PagesTest.page;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Queues, Failures and Jitter link each waiting object, incident and event to its triage at the instant they show. */
@QuarkusTest
@QuarkusTestResource(value = StandInResource.class, restrictToAnnotatedClass = false)
class TriageLinksPagesTest {

    @BeforeEach
    void reset() {
        StandIn.reset();
    }

    @Test
    void aWaitingPodWorkloadOrPodGroupLinksToItsTriageWhenTheListWasRead() {
        String html = page("/queues?from=2026-11-23&to=2026-11-30&groupBy=clusterQueue", Fixtures.ADMIN);
        assertTrue(html.contains("<a class=\"triage\" href=\"/triage?namespace=acme-ml&amp;workload=job-train-9-3f2a1&amp;cluster=lab&amp;"
                + "at=2026-11-30T00%3A00%3A00Z\""), html);
        assertTrue(html.contains("<a class=\"triage\" href=\"/triage?namespace=globex-lab&amp;pod=notebook-3&amp;cluster=lab&amp;"
                + "at=2026-11-30T00%3A00%3A00Z\""), html);
        // a window reaching into today shows what waits now, and triages it now
        html = page("/queues", Fixtures.ADMIN);
        assertTrue(html.contains("href=\"/triage?namespace=globex-lab&amp;pod=notebook-3&amp;cluster=lab\""), html);
        html = page("/queues?pod=globex-lab/notebook-3", Fixtures.ADMIN);
        assertTrue(html.contains("<a class=\"triage\" href=\"/triage?namespace=globex-lab&amp;pod=notebook-3\">Triage it</a>"), html);
    }

    @Test
    void anIncidentLinksToItsNodesTriageWhenItStartedAndToItsReview() {
        String html = page("/failures?from=2026-11-23&to=2026-11-30&groupBy=cause", Fixtures.ADMIN);
        assertTrue(html.contains("<td class=\"links\"><a class=\"triage\" href=\"/triage?node=gpu-a&amp;cluster=lab&amp;at=2026-11-30T10%3A00%3A00Z\">triage</a>"
                + " <a class=\"review\" href=\"/failures/incidents/5d41402abc4b2a76b9719d91/review\">review</a></td>"), html);
    }

    @Test
    void aJitterEventLinksToItsServicesTriageWhenItBegan() {
        String html = page("/jitter?to=2026-11-30T12:00:00Z&window=24h", Fixtures.ADMIN);
        String link = "/triage?namespace=acme-serve&amp;service=llm&amp;at=2026-11-30T10%3A20%3A00Z";
        assertTrue(html.contains("<td><a class=\"triage\" href=\"" + link + "\">triage</a></td></tr>"), html);
        assertTrue(html.contains("<a class=\"triage\" id=\"event-triage\" href=\"" + link + "\">Triage the service at its start</a>"), html);
        // event 41 names no namespace: a service is triaged in its namespace, so it has no link
        assertTrue(html.contains("<tr data-event=\"41\"") && html.contains("<td>2026-11-30T08:04:00Z</td><td class=\"num\">2</td>"), html);
        int row41 = html.indexOf("<tr data-event=\"41\"");
        assertTrue(html.substring(row41, html.indexOf("</tr>", row41)).endsWith("<td></td>"), html.substring(row41, html.indexOf("</tr>", row41)));
    }
}
