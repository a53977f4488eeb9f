package io.gpumeter.alert.domain.rule;

import io.gpumeter.alert.domain.Finding;
import io.gpumeter.alert.domain.RuleResult;
import io.gpumeter.alert.domain.Severity;
import io.gpumeter.alert.domain.Snapshot;
import io.gpumeter.alert.domain.Incident;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An incident of the ledger started longer ago than the configured time and still has no post-incident review: one
 * alert per incident, labelled with its id, which resolves when a review is posted (or when the incident passes the
 * failure look-back, recovered, and counts as settled).
 */
public final class IncidentUnreviewedRule implements Rule {

    public static final String NAME = "IncidentUnreviewed";
    static final String INCIDENT = "incident";

    private final Duration after;

    public IncidentUnreviewedRule(Duration after) {
        this.after = after;
    }

    @Override
    public String alertname() {
        return NAME;
    }

    @Override
    public Severity severity() {
        return Severity.WARNING;
    }

    @Override
    public String condition() {
        return "an incident of the ledger started over " + after.toHours() + " h ago (gpumeter.alert.review.unreviewed-after) "
                + "and has no review (POST /api/v1/failures/incidents/{id}/review)";
    }

    @Override
    public RuleResult evaluate(Snapshot snapshot) {
        Map<String, Finding> found = new LinkedHashMap<>();
        for (Incident i : snapshot.unreviewed().orElse(List.<Incident>of())) {
            Finding f = finding(i);
            found.putIfAbsent(f.fingerprint(), f);
        }
        return RuleResult.judge(NAME, List.copyOf(found.values()), Map.of("reviews", snapshot.unreviewed()));
    }

    private Finding finding(Incident i) {
        String subject = i.pod() != null ? i.namespace() + "/" + i.pod() : i.gpuUuid() != null ? i.gpuUuid() : i.node();
        String where = subject == null ? "" : " on " + subject;
        return Finding.of(NAME, severity()).label(INCIDENT, i.id()).label(Finding.NODE, i.node())
                .label(Finding.NAMESPACE, i.namespace()).label(Finding.POD, i.pod())
                .describe("Incident " + i.id() + " (" + i.cause() + where + ") has no review",
                        "The " + i.cause() + " incident" + where + " started " + i.startedAt() + " and nobody has reviewed it. Triage it (GET /api/v1/triage),"
                                + " decide the root-cause class and cause, and POST the review with its prevention items to "
                                + "/api/v1/failures/incidents/" + i.id() + "/review.");
    }
}
