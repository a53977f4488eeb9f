package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.Incident;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.RuleStatus;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.Source;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.gpumeter.alert.domain.Snapshots.NOW;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class IncidentUnreviewedRuleTest {

    private static final Rule RULE = new IncidentUnreviewedRule(Duration.ofHours(24));

    private static Snapshot waiting(Source<List<Incident>> unreviewed) {
        return new Snapshot(NOW, Source.available(List.of()), Source.available(List.of()), Source.available(List.of()),
                Source.available(List.of()), Source.absent("-"), Source.absent("-"), unreviewed);
    }

    private static Incident incident(String id, String pod, Duration ago) {
        return new Incident("oom", "workload", "gpu-1", null, pod == null ? null : "ml", pod, NOW.minus(ago), false,
                "OOMKilled", id);
    }

    @Test
    void eachIncidentWaitingForAReviewIsOneAlertNamingIt() {
        RuleResult r = RULE.evaluate(waiting(Source.available(List.of(incident("aaa", "trainer-0", Duration.ofDays(2)),
                incident("bbb", null, Duration.ofDays(3)), incident("aaa", "trainer-0", Duration.ofDays(2))))));
        assertEquals(RuleStatus.FIRING, r.status());
        assertEquals(2, r.findings().size(), r.toString());
        Finding pod = r.findings().get(0);
        assertEquals("aaa", pod.label("incident"));
        assertEquals("ml", pod.label(Finding.NAMESPACE));
        assertEquals("trainer-0", pod.label(Finding.POD));
        assertTrue(pod.summary().contains("oom on ml/trainer-0"), pod.summary());
        assertTrue(pod.description().contains("/api/v1/failures/incidents/aaa/review"), pod.description());
        Finding node = r.findings().get(1);
        assertEquals("gpu-1", node.label(Finding.NODE));
        assertEquals(null, node.label(Finding.POD));
        assertTrue(node.summary().contains("on gpu-1"), node.summary());
    }

    @Test
    void nothingWaitingIsOkAndAnUnreadSourceNeitherFiresNorResolves() {
        assertEquals(RuleStatus.OK, RULE.evaluate(waiting(Source.available(List.of()))).status());
        assertEquals(RuleStatus.INACTIVE, RULE.evaluate(waiting(Source.absent("ledger has no incidents read"))).status());
        RuleResult held = RULE.evaluate(waiting(Source.failed("reviews: HTTP 503")));
        assertEquals(RuleStatus.HELD, held.status());
        assertTrue(held.note().contains("reviews source failed"), held.note());
    }

    @Test
    void theConditionSaysAfterHowLong() {
        assertTrue(new IncidentUnreviewedRule(Duration.ofHours(48)).condition().contains("48 h"));
    }
}
