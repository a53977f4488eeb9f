package io.gpumeter.common.triage;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Why something waits, read from the free text Kueue, Volcano and the scheduler write (Kueue has no structured
 * inadmissibility reason yet). The first class whose pattern matches wins; the order puts the specific before the
 * general (a flavor message mentions quota too).
 */
public enum PendingReason {
    WRONG_SCHEDULER(RootCauseClass.DATA_PLANE, null),
    GPUMEM_CONFLICT(RootCauseClass.WORKLOAD, null),
    /** A request no node can honour whatever it holds: GPU cores over 100, a MIG profile no node offers. */
    INVALID_REQUEST(RootCauseClass.WORKLOAD, null),
    /** No GPU node carries the labels the pod's selector or required node affinity asks for. */
    NO_MATCHING_NODE(RootCauseClass.WORKLOAD, null),
    /** The nodes that would fit offer the resource and all of it is held. */
    CLUSTER_FULL(RootCauseClass.CONTROL_PLANE, null),
    /** Admissible within quota, waiting its turn behind others in its queue. */
    QUEUED(RootCauseClass.CONTROL_PLANE, null),
    ADMISSION_CHECK(RootCauseClass.CONTROL_PLANE, "admission check|admissioncheck"),
    INACTIVE(RootCauseClass.CONTROL_PLANE, "deactivated|spec\\.active|stopped|clusterqueue .*inactive"),
    GANG(RootCauseClass.CONTROL_PLANE, "gang|minavailable|minmember|pod group is not ready|notenoughresources|podgroup"),
    /** A Volcano queue that is closed or whose capability the job would exceed. */
    VOLCANO_QUEUE(RootCauseClass.CONTROL_PLANE, "queue .*(closed|closing)|exceeds? (the )?queue capability|queue resource quota insufficient|overused"),
    NO_DEVICE(RootCauseClass.DATA_PLANE,
            "unexpectedadmissionerror|devices unavailable|device plugin|no gpu|no device|unhealthy devices"
                    + "|card(type)?mismatch|nodeunfitpod|all node scores do not meet"),
    QUOTA(RootCauseClass.CONTROL_PLANE, "insufficient (unused )?quota|exceeds? (the )?quota|borrowing limit|nominal quota|quota"),
    FLAVOR(RootCauseClass.CONTROL_PLANE, "flavor .*(doesn't|does not) match|untolerated taint.*flavor|in flavor .*untolerated"
            + "|unavailable in clusterqueue|no flavor|couldn't assign flavors"),
    AFFINITY_OR_TAINT(RootCauseClass.CONTROL_PLANE,
            "node affinity|node selector|affinity|untolerated taint|taint|topology spread|volume node"),
    INSUFFICIENT_RESOURCES(RootCauseClass.CONTROL_PLANE, "insufficient |too many pods|preemption:"),
    OTHER(RootCauseClass.CONTROL_PLANE, null);

    private final RootCauseClass rootCause;
    private final Pattern pattern;

    PendingReason(RootCauseClass rootCause, String regex) {
        this.rootCause = rootCause;
        this.pattern = regex == null ? null : Pattern.compile(regex);
    }

    public RootCauseClass rootCause() {
        return rootCause;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The class a label names ({@code cluster-full}, as {@link #label()} writes it), or null. */
    public static PendingReason ofLabel(String label) {
        for (PendingReason r : values()) {
            if (r.label().equals(label)) {
                return r;
            }
        }
        return null;
    }

    /** The class of a waiting message; null or empty text is OTHER. */
    public static PendingReason classify(String message) {
        if (message == null || message.isBlank()) {
            return OTHER;
        }
        String text = message.toLowerCase(Locale.ROOT);
        for (PendingReason r : values()) {
            if (r.pattern != null && r.pattern.matcher(text).find()) {
                return r;
            }
        }
        return OTHER;
    }
}
