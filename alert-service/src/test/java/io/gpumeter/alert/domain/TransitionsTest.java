package io.gpumeter.alert.domain;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransitionsTest {

    private static final Instant EARLIER = Instant.parse("2026-05-04T11:00:00Z");

    private static Finding finding(String alertname, String node) {
        return Finding.of(alertname, Severity.WARNING).label(Finding.NODE, node).describe("s", "d");
    }

    @Test
    void newFindingsOpenSeenOnesRefreshMissingOnesResolve() {
        Finding a = finding("A", "n1");
        Finding b = finding("A", "n2");
        Finding gone = finding("A", "n3");
        List<Episode> firing = List.of(new Episode(b.fingerprint(), "A", EARLIER), new Episode(gone.fingerprint(), "A", EARLIER));
        Transitions t = Transitions.plan(List.of(new RuleResult("A", RuleStatus.FIRING, null, List.of(a, b))), firing);
        assertEquals(List.of(a), t.opened());
        assertEquals(List.of(b), t.refreshed());
        assertEquals(List.of(new Episode(gone.fingerprint(), "A", EARLIER)), t.resolved());
    }

    @Test
    void aHeldRuleKeepsItsAlertsFiring() {
        Finding gone = finding("A", "n3");
        Transitions t = Transitions.plan(List.of(new RuleResult("A", RuleStatus.HELD, "ledger failed", List.of())),
                List.of(new Episode(gone.fingerprint(), "A", EARLIER)));
        assertTrue(t.resolved().isEmpty());
    }

    @Test
    void anInactiveOrRemovedRuleResolvesItsAlerts() {
        Finding gone = finding("A", "n3");
        Finding orphan = finding("Removed", "n3");
        Transitions t = Transitions.plan(List.of(new RuleResult("A", RuleStatus.INACTIVE, "absent", List.of())),
                List.of(new Episode(gone.fingerprint(), "A", EARLIER), new Episode(orphan.fingerprint(), "Removed", EARLIER)));
        assertEquals(2, t.resolved().size());
    }

    @Test
    void judgeNamesAbsentAndFailedSources() {
        RuleResult inactive = RuleResult.judge("A", List.of(), java.util.Map.of("slo", Source.absent("404")));
        assertEquals(RuleStatus.INACTIVE, inactive.status());
        assertEquals("slo source not available (404)", inactive.note());
        RuleResult held = RuleResult.judge("A", List.of(), java.util.Map.of("usage", Source.failed("HTTP 500"),
                "failures", Source.absent("404")));
        assertEquals(RuleStatus.HELD, held.status());
        assertEquals("usage source failed (HTTP 500); failures source not available (404)", held.note());
        RuleResult ok = RuleResult.judge("A", List.of(), java.util.Map.of("usage", Source.available(List.of()),
                "failures", Source.absent("404")));
        assertEquals(RuleStatus.OK, ok.status());
    }
}
