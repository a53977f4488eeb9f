package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A triage answer ({@code io.gpumeter.common.triage.Triage} as alert-service serialises it) as the page draws it: the
 * path taken through the tree (symptom → layer → cause with its confidence), the causes ruled out and by what, the
 * evidence with the command that shows each fact, the changes before it, how far it reaches, and the fix. Only what
 * the page draws is read; every text is a service's or a tenant's and is escaped where the template writes it.
 *
 * @param subject e.g. {@code pod acme-ml/train-7 in lab}
 * @param healthy the symptom is NONE: nothing wrong was found, and {@code checked} says what was looked at
 */
@TemplateData
public record TriageView(String subject, Instant at, String symptom, String layer, String cause, String confidence,
                         boolean healthy, Scope scope, Recurrence recurrence, List<Evidence> evidence,
                         List<Alternative> alternatives, List<BookChange> changes, List<String> checked, Fix fix) {

    /** How far the cause reaches: its level and the pods or nodes alike, another tenant's counted, never named. */
    @TemplateData
    public record Scope(String level, List<String> alike, int othersAlike) {
    }

    @TemplateData
    public record Recurrence(int last7d, String firstSeen) {
    }

    /** One fact; {@code id} names its command's block for the copy button. */
    @TemplateData
    public record Evidence(String id, String at, String source, String fact, String command) {
    }

    /** A cause considered and what ruled it out, drawn greyed beside the one taken. */
    @TemplateData
    public record Alternative(String cause, String ruledOutBy) {
    }

    @TemplateData
    public record Fix(String action, String verify) {
    }

    static TriageView of(JsonNode t) {
        JsonNode s = t.path("subject");
        String where = Optional.ofNullable(Format.text(s, "namespace")).map(ns -> ns + "/").orElse("")
                + Optional.ofNullable(Format.text(s, "name")).orElse("");
        String kind = Optional.ofNullable(Format.text(s, "kind")).orElse("").toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
        String cluster = Format.text(s, "cluster");
        Instant at = instant(t, "at");
        String symptom = Optional.ofNullable(Format.text(t, "symptom")).orElse("NONE");
        List<Evidence> evidence = new ArrayList<>();
        for (JsonNode e : t.path("evidence")) {
            evidence.add(new Evidence("evidence-" + evidence.size(), Format.text(e, "at"), Format.text(e, "source"),
                    Format.text(e, "fact"), Format.text(e, "command")));
        }
        List<Alternative> alternatives = new ArrayList<>();
        for (JsonNode a : t.path("alternatives")) {
            alternatives.add(new Alternative(Format.text(a, "cause"), Format.text(a, "ruledOutBy")));
        }
        List<BookChange> changes = new ArrayList<>();
        for (JsonNode c : t.path("changes")) {
            Instant when = instant(c, "at");
            if (when != null && Format.text(c, "kind") != null) {
                // a change reference as the book's own rows are drawn: its component is the book's subject
                changes.add(new BookChange(Format.text(c, "id"), when, cluster, Format.text(c, "node"), null, Format.text(c, "kind"),
                        Format.text(c, "component"), Format.text(c, "from"), Format.text(c, "to"), null, 1));
            }
        }
        List<String> checked = new ArrayList<>();
        t.path("checked").forEach(c -> checked.add(c.asText()));
        JsonNode sc = t.path("scope");
        List<String> alike = new ArrayList<>();
        sc.path("alike").forEach(a -> alike.add(a.asText()));
        Scope scope = sc.isObject() ? new Scope(Format.text(sc, "level"), alike, sc.path("othersAlike").asInt()) : null;
        JsonNode r = t.path("recurrence");
        Recurrence recurrence = r.isObject() ? new Recurrence(r.path("last7d").asInt(), Format.text(r, "firstSeen")) : null;
        JsonNode f = t.path("fix");
        Fix fix = f.isObject() ? new Fix(Format.text(f, "action"), Format.text(f, "verify")) : null;
        return new TriageView(kind + " " + where + (cluster != null ? " in " + cluster : ""), at, symptom, Format.text(t, "layer"),
                Format.text(t, "cause"), Format.text(t, "confidence"), symptom.equals("NONE"), scope, recurrence, evidence,
                alternatives, changes, checked, fix);
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

    private static Instant instant(JsonNode node, String field) {
        String text = Format.text(node, field);
        return text == null ? null : Format.instant(text).orElse(null);
    }
}
