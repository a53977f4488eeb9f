package io.gpumeter.console;

import io.quarkus.qute.TemplateData;
import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.List;

/**
 * alert-service's triage ({@code GET /api/v1/triage}, or as a review froze it) as the console binds it: the subject,
 * the path through the diagnosis tree (symptom, layer, cause, confidence), how far it reaches, the changes before it,
 * the evidence with the command that shows each fact, the causes ruled out, what was checked and the fix. Every text
 * is a service's or a tenant's: the pages write them only as template values, which the HTML template escapes.
 */
@RegisterForReflection
record TriageAnswer(Subject subject, String at, String symptom, String layer, String cause, String confidence, Scope scope,
                    List<ChangeRef> changes, Recurrence recurrence, List<Evidence> evidence, List<Alternative> alternatives,
                    List<String> checked, Fix fix) {

    @RegisterForReflection
    record Subject(String kind, String cluster, String namespace, String name) {
    }

    /** How far the cause reaches: its level and the pods or nodes alike, another tenant's counted, never named. */
    @TemplateData
    @RegisterForReflection
    record Scope(String level, List<String> alike, int othersAlike) {
    }

    /** A change of the book before the symptom; its component is the book's subject. */
    @RegisterForReflection
    record ChangeRef(String id, String at, String kind, String node, String component, String from, String to) {
    }

    @TemplateData
    @RegisterForReflection
    record Recurrence(int last7d, String firstSeen) {
    }

    /** One fact, where it was read and the command that shows it. */
    @RegisterForReflection
    record Evidence(String at, String source, String fact, String command) {
    }

    /** A cause considered and what ruled it out. */
    @TemplateData
    @RegisterForReflection
    record Alternative(String cause, String ruledOutBy) {
    }

    @TemplateData
    @RegisterForReflection
    record Fix(String action, String verify) {
    }
}
