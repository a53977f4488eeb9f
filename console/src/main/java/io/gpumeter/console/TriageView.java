package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A triage ({@link TriageAnswer}, alert-service's answer or a review's frozen copy) as the page draws it: the
 * path taken through the tree (symptom → layer → cause with its confidence), the causes ruled out and by what, the
 * evidence with the command that shows each fact, the changes before it, how far it reaches, and the fix. Only what
 * the page draws is read; every text is a service's or a tenant's and is escaped where the template writes it.
 *
 * @param subject e.g. {@code pod acme-ml/train-7 in lab}
 * @param healthy the symptom is NONE: nothing wrong was found, and {@code checked} says what was looked at
 */
@TemplateData
public record TriageView(String subject, Instant at, String symptom, String layer, String cause, String confidence,
                         boolean healthy, TriageAnswer.Scope scope, TriageAnswer.Recurrence recurrence, List<Evidence> evidence,
                         List<TriageAnswer.Alternative> alternatives, List<BookChange> changes, List<String> checked,
                         TriageAnswer.Fix fix) {

    /** One fact; {@code id} names its command's block for the copy button. */
    @TemplateData
    public record Evidence(String id, String at, String source, String fact, String command) {
    }

    static TriageView of(TriageAnswer t) {
        TriageAnswer.Subject s = t.subject() == null ? new TriageAnswer.Subject(null, null, null, null) : t.subject();
        String where = Optional.ofNullable(s.namespace()).map(ns -> ns + "/").orElse("") + Optional.ofNullable(s.name()).orElse("");
        String kind = Optional.ofNullable(s.kind()).orElse("").toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        Instant at = instant(t.at());
        String symptom = Optional.ofNullable(t.symptom()).orElse("NONE");
        List<Evidence> evidence = new ArrayList<>();
        for (TriageAnswer.Evidence e : orEmpty(t.evidence())) {
            evidence.add(new Evidence("evidence-" + evidence.size(), e.at(), e.source(), e.fact(), e.command()));
        }
        List<BookChange> changes = new ArrayList<>();
        for (TriageAnswer.ChangeRef c : orEmpty(t.changes())) {
            Instant when = instant(c.at());
            if (when != null && c.kind() != null) {
                // a change reference as the book's own rows are drawn: its component is the book's subject
                changes.add(new BookChange(c.id(), when, s.cluster(), c.node(), null, c.kind(), c.component(), c.from(), c.to(), null, 1));
            }
        }
        return new TriageView(kind + " " + where + (s.cluster() != null ? " in " + s.cluster() : ""), at, symptom, t.layer(),
                t.cause(), t.confidence(), symptom.equals("NONE"), t.scope(), t.recurrence(), evidence, orEmpty(t.alternatives()),
                changes, orEmpty(t.checked()), t.fix());
    }

    public String atText() {
        return at == null ? "" : Format.rfc3339(at);
    }

    /** The confidence as the path's last step is styled: {@code high}, {@code medium}, {@code low}. */
    public String confidenceClass() {
        return confidence == null ? "" : confidence.toLowerCase(java.util.Locale.ROOT);
    }

    /** The changes newest first, each said relative to the triage's instant. */
    public List<NearChange> changesBefore() {
        Instant reference = at != null ? at : Instant.now();
        return NearChange.of(changes, reference, Instant.MIN, reference.plusSeconds(1), changes.size());
    }

    private static Instant instant(String text) {
        return text == null ? null : Format.instant(text).orElse(null);
    }

    private static <T> List<T> orEmpty(List<T> list) {
        return list == null ? List.of() : list;
    }
}
