package io.gpumeter.console;

import java.time.Instant;

/**
 * The Triage page of what another page lists, asked as that page saw it: an incident of Failures when it started
 * (its pod's when it names one, else its node's) — a jitter event's service is {@link JitterAnswers.Event#triage()}, a
 * waiting object of Queues {@link QueueAnswers.Pending#kind()} at the instant its list was read. Null where the row names too
 * little for a triage (no name, or a service without its namespace), so the page shows no dead link.
 */
final class TriageLinks {

    static String ofIncident(FailureAnswers.Incident i) {
        TriageSubject subject = subjectOf(i);
        return subject == null ? null : subject.link();
    }

    /** What an incident is triaged as: its pod when it names one, else its node, when it started; null for neither. */
    static TriageSubject subjectOf(FailureAnswers.Incident i) {
        Instant at = i.startedAt() == null ? null : Format.instant(i.startedAt()).orElse(null);
        if (i.pod() != null && i.namespace() != null) {
            return new TriageSubject("pod", i.namespace(), i.pod(), i.cluster(), at);
        }
        return i.node() == null ? null : new TriageSubject("node", null, i.node(), i.cluster(), at);
    }

    /** The incident's review page; null for an incident the ledger gave no id (an older ledger). */
    static String reviewOf(FailureAnswers.Incident i) {
        return i.id() == null || i.id().isBlank() ? null : "/failures/incidents/" + Format.segment(i.id()) + "/review";
    }
}
