package io.gpumeter.alert.review;

import io.gpumeter.common.triage.Triage;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The post-incident page of one review version: what happened and when (timeline), the cause as decided beside the
 * triage's, the evidence with what to run to see each fact, the changes before the incident, and the prevention items
 * with their exports. The same page as Markdown or HTML ({@link PageWriter}).
 */
final class ReviewPage {

    private ReviewPage() {
    }

    static String markdown(Review r) {
        return render(r, new PageWriter.Markdown());
    }

    static String html(Review r) {
        return render(r, new PageWriter.Html());
    }

    private static String render(Review r, PageWriter w) {
        IncidentRef i = r.incident();
        ReviewInput d = r.decision();
        Triage t = r.triage();
        w.title("Post-incident review: " + d.cause() + " — " + i.subject());
        w.paragraph("Incident " + r.incidentId() + " (" + i.cause() + ", " + i.rootCauseClass() + ") started "
                + i.startedAt() + (i.open() ? ", still open." : ".") + " Review version " + r.version() + " of "
                + r.versions() + ", by " + r.reviewer() + " at " + r.reviewedAt() + ".");
        w.heading("Summary");
        w.paragraph(d.summary());

        w.heading("Cause");
        List<List<String>> cause = new ArrayList<>();
        cause.add(List.of("root-cause class", d.rootCauseClass(), t == null ? "–" : orDash(t.layer())));
        cause.add(List.of("cause", d.cause(), t == null ? "–" : orDash(t.cause())));
        cause.add(List.of("symptom", "", t == null ? "–" : String.valueOf(t.symptom())));
        cause.add(List.of("confidence", "", t == null || t.confidence() == null ? "–" : t.confidence().name()));
        w.table(List.of("", "decided", "triage at " + (t == null ? i.startedAt() : t.at())), cause);
        if (t == null) {
            w.paragraph("No triage answer was kept: " + orDash(r.triageNote()) + ".");
        } else {
            if (!t.alternatives().isEmpty()) {
                w.paragraph("Ruled out:");
                w.list(t.alternatives().stream().map(a -> a.cause() + " — " + a.ruledOutBy()).toList());
            }
            if (t.fix() != null) {
                w.paragraph("The runbook's fix: " + orDash(t.fix().action()) + " Verify: " + orDash(t.fix().verify()));
            }
        }

        w.heading("Timeline");
        w.table(List.of("at", "what"), timeline(r));

        w.heading("Evidence");
        if (t == null || t.evidence().isEmpty()) {
            w.paragraph(i.evidence() == null ? "None recorded." : "The ledger's evidence: " + i.evidence());
        } else {
            for (Triage.Evidence e : t.evidence()) {
                w.paragraph(e.at() + " · " + orDash(e.source()) + ": " + orDash(e.fact()));
                if (e.command() != null && !e.command().isBlank()) {
                    w.code(e.command());
                }
            }
        }

        w.heading("Changes before the incident");
        if (t == null || t.changes().isEmpty()) {
            w.paragraph("None in the change book.");
        } else {
            w.table(List.of("at", "kind", "node", "component", "from → to"), t.changes().stream()
                    .map(c -> List.of(String.valueOf(c.at()), orDash(c.kind()), orDash(c.node()), orDash(c.component()),
                            orDash(c.from()) + " → " + orDash(c.to()))).toList());
        }

        w.heading("Prevention");
        if (d.prevention().isEmpty()) {
            w.paragraph("No prevention items.");
        }
        for (int n = 1; n <= d.prevention().size(); n++) {
            Prevention p = d.prevention().get(n - 1);
            w.link(n + ". " + p.kind() + ": " + p.describe() + ".", "export",
                    ReviewPaths.item(r.incidentId(), n, r.version()));
        }
        return w.page();
    }

    /** The incident's moments, the triage's evidence and the changes before it, oldest first. */
    private static List<List<String>> timeline(Review r) {
        record Moment(Instant at, String what) {
        }
        List<Moment> moments = new ArrayList<>();
        IncidentRef i = r.incident();
        Triage t = r.triage();
        if (t != null) {
            t.changes().forEach(c -> moments.add(new Moment(c.at(), "change: " + orDash(c.kind()) + " " + orDash(c.component())
                    + " on " + orDash(c.node()) + ", " + orDash(c.from()) + " → " + orDash(c.to()))));
            t.evidence().forEach(e -> moments.add(new Moment(e.at(), orDash(e.source()) + ": " + orDash(e.fact()))));
        }
        moments.add(new Moment(i.startedAt(), "incident starts: " + i.cause() + " on " + i.subject()));
        if (i.recoveredAt() != null) {
            moments.add(new Moment(i.recoveredAt(), "recovered"));
        }
        if (i.endedAt() != null) {
            moments.add(new Moment(i.endedAt(), "ended without recovering (its subject went away)"));
        }
        moments.add(new Moment(r.reviewedAt(), "reviewed by " + r.reviewer()));
        return moments.stream().filter(m -> m.at() != null)
                .sorted(Comparator.comparing(Moment::at))
                .map(m -> List.of(m.at().toString(), m.what())).toList();
    }

    private static String orDash(String s) {
        return s == null || s.isBlank() ? "–" : Objects.toString(s);
    }
}
