package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;

import java.time.Instant;
import java.util.Map;

/**
 * The Triage page of what another page lists, asked as that page saw it: a waiting pod, Kueue workload or Volcano
 * pod group of Queues at the instant its list was read, an incident of Failures when it started (its pod's when it
 * names one, else its node's), a jitter event's service when the event began. Null where the row names too little
 * for a triage (no name, or a service without its namespace), so the page shows no dead link.
 */
final class TriageLinks {

    /** The queue-wait read's {@code source} to the triage's kind of subject. */
    private static final Map<String, String> KIND_OF_SOURCE = Map.of("pod", "pod", "kueue", "workload", "volcano", "podGroup");

    private TriageLinks() {
    }

    /** The triage's kind of subject (pod, workload, podGroup) of a row of the queue-wait read, by its source. */
    static String kindOf(JsonNode pending) {
        return KIND_OF_SOURCE.getOrDefault(pending.hasNonNull("source") ? pending.get("source").asText() : "pod", "pod");
    }

    /** @param at the instant the waiting list was read; null when it was now */
    static String ofPending(JsonNode p, Instant at) {
        String kind = kindOf(p);
        String name = Format.text(p, "name");
        String namespace = Format.text(p, "namespace");
        return name == null || namespace == null ? null
                : TriageSubject.link(kind, namespace, name, Format.text(p, "cluster"), at);
    }

    /** A scheduling-decisions object ({@code namespace/name}) of Queues, now or at the instant the page reads. */
    static String ofObject(String kind, String object, Instant at) {
        int slash = object.indexOf('/');
        return slash <= 0 ? null : TriageSubject.link(kind, object.substring(0, slash), object.substring(slash + 1), null, at);
    }

    static String ofIncident(JsonNode i) {
        TriageSubject subject = subjectOf(i);
        return subject == null ? null : subject.link();
    }

    /** What an incident is triaged as: its pod when it names one, else its node, when it started; null for neither. */
    static TriageSubject subjectOf(JsonNode i) {
        Instant at = instant(i, "startedAt");
        String cluster = Format.text(i, "cluster");
        String pod = Format.text(i, "pod");
        String namespace = Format.text(i, "namespace");
        if (pod != null && namespace != null) {
            return new TriageSubject("pod", namespace, pod, cluster, at);
        }
        String node = Format.text(i, "node");
        return node == null ? null : new TriageSubject("node", null, node, cluster, at);
    }

    /** The incident's review page; null for an incident the ledger gave no id (an older ledger). */
    static String reviewOf(JsonNode i) {
        String id = Format.text(i, "id");
        return id == null || id.isBlank() ? null : "/failures/incidents/" + Format.segment(id) + "/review";
    }

    static String ofJitterEvent(JsonNode e) {
        String service = Format.text(e, "service");
        String namespace = Format.text(e, "namespace");
        return service == null || namespace == null ? null
                : TriageSubject.link("service", namespace, service, Format.text(e, "cluster"), instant(e, "start"));
    }

    private static Instant instant(JsonNode node, String field) {
        String text = Format.text(node, field);
        return text == null ? null : Format.instant(text).orElse(null);
    }
}
