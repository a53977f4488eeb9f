package io.gpumeter.ledger.governance.domain;

import io.gpumeter.common.triage.PendingReason;

import io.gpumeter.common.fact.PodSetAssignment;
import io.gpumeter.common.fact.WorkloadFact;

import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/** Renders a Kueue Workload's condition changes as trail entries, with its placement and requests in words. */
final class WorkloadEntries {

    private static final Pattern PREEMPTOR = Pattern.compile("UID: ([0-9A-Za-z-]+)");

    private WorkloadEntries() {
    }

    static TrailEntry entry(Transition t, String placement) {
        return switch (t.type()) {
            case "QuotaReserved" -> t.isTrue()
                    ? TrailEntry.of(t.at(), "quota-reserved", t.status(), t.reason(), t.message(), placement)
                    : TrailEntry.refusal(t.at(), "pending", t.reason(), t.message(), PendingReason.classify(t.message()), null);
            case "Admitted" -> TrailEntry.of(t.at(), t.isTrue() ? "admitted" : "not-admitted", t.status(), t.reason(),
                    t.message(), t.isTrue() ? placement : null);
            case "Evicted", "Preempted" -> t.isTrue()
                    ? TrailEntry.refusal(t.at(), t.type().toLowerCase(Locale.ROOT), t.reason(), t.message(),
                    t.reason() != null && t.reason().contains("AdmissionCheck") ? PendingReason.ADMISSION_CHECK
                            : PendingReason.classify(t.message()), preemptor(t.message()))
                    : TrailEntry.of(t.at(), t.type().toLowerCase(Locale.ROOT), t.status(), t.reason(), t.message(), null);
            default -> TrailEntry.of(t.at(), t.type().toLowerCase(Locale.ROOT), t.status(), t.reason(),
                    t.message(), null);
        };
    }

    /** "preempted by UID …" when the message names the workload that took the quota. */
    static String preemptor(String message) {
        if (message == null) {
            return null;
        }
        Matcher m = PREEMPTOR.matcher(message);
        return m.find() ? "preempted by workload UID " + m.group(1) : null;
    }

    /** The ClusterQueue and flavors of the newest admission. */
    static String placement(List<WorkloadFact> versions) {
        for (int i = versions.size() - 1; i >= 0; i--) {
            WorkloadFact v = versions.get(i);
            if (v.clusterQueue() != null) {
                String flavors = v.assignments().stream().map(WorkloadEntries::flavors).collect(Collectors.joining("; "));
                return "clusterQueue " + v.clusterQueue() + (flavors.isEmpty() ? "" : ", " + flavors);
            }
        }
        return null;
    }

    private static String flavors(PodSetAssignment a) {
        String f = a.flavors().entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(","));
        return a.name() + " x" + a.count() + (f.isEmpty() ? "" : " [" + f + "]");
    }

    static String requests(WorkloadFact latest) {
        return latest.podSets().stream().map(p -> p.name() + " x" + p.count()
                + p.requests().entrySet().stream().filter(e -> e.getKey().contains("/"))
                .map(e -> " " + e.getKey() + "=" + e.getValue().toPlainString()).collect(Collectors.joining()))
                .collect(Collectors.joining("; "));
    }
}
