package io.gpumeter.slo.domain;

import io.gpumeter.common.fact.ClockEventReason;
import io.gpumeter.common.triage.FailureCause;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a jitter event's suspect is: a pod on the same card, or the host and the card themselves. Each kind names the
 * cause it points to and the curves whose rise just before the event scores it, every one a ratio from 0 to 1, so that
 * one rule ranks them all ({@link SuspectRanking}):
 * <ul>
 * <li>NEIGHBOUR: its DRAM_ACTIVE and SM_ACTIVE (share of the sample period).</li>
 * <li>CPU_THROTTLING: {@code CFS_THROTTLED_RATIO}, the service pod's CFS periods throttled over CFS periods run
 * (cAdvisor), its containers summed.</li>
 * <li>NODE_CPU_PRESSURE: {@code CPU_PRESSURE}, the node's CPU pressure stall (PSI "some") in seconds per second.</li>
 * <li>NODE_IO_PRESSURE: {@code IO_PRESSURE}, the node's I/O pressure stall (PSI "full") in seconds per second.</li>
 * <li>NETWORK: {@code NETWORK_SHARE}, the pod's bytes received and sent over its node's.</li>
 * <li>CARD_CLOCKS: each clocks-event reason of power or heat (software power cap, hardware slowdown, thermal
 * slowdowns, power brake) as the share of the minute's samples it was active in, and the power and thermal violation
 * counters as the seconds held back per second.</li>
 * </ul>
 */
public enum SuspectKind {
    NEIGHBOUR(FailureCause.NEIGHBOUR_INTERFERENCE, List.of("DRAM_ACTIVE", "SM_ACTIVE")),
    CPU_THROTTLING(FailureCause.CPU_SATURATED, List.of("CFS_THROTTLED_RATIO")),
    NODE_CPU_PRESSURE(FailureCause.CPU_SATURATED, List.of("CPU_PRESSURE")),
    NODE_IO_PRESSURE(FailureCause.IO_WAIT, List.of("IO_PRESSURE")),
    NETWORK(FailureCause.NETWORK, List.of("NETWORK_SHARE")),
    CARD_CLOCKS(FailureCause.POWER_OR_THERMAL, cardFields());

    private final FailureCause cause;
    private final List<String> riseFields;

    SuspectKind(FailureCause cause, List<String> riseFields) {
        this.cause = cause;
        this.riseFields = riseFields;
    }

    /** The clocks-event reasons of power or heat, then the two violation counters; sync boost is neither. */
    private static List<String> cardFields() {
        List<String> out = new ArrayList<>();
        for (ClockEventReason r : ClockEventReason.values()) {
            if (r.kind() == ClockEventReason.Kind.POWER || r.kind() == ClockEventReason.Kind.THERMAL
                    || r.kind() == ClockEventReason.Kind.POWER_OR_THERMAL) {
                out.add(r.field().name());
            }
        }
        out.add("POWER_VIOLATION_S");
        out.add("THERMAL_VIOLATION_S");
        return List.copyOf(out);
    }

    public FailureCause cause() {
        return cause;
    }

    /** The curves whose rise scores a suspect of this kind, in the order its rises are listed. */
    public List<String> riseFields() {
        return riseFields;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The kind a stored label names; null or unknown (evidence stored before there were kinds) is a neighbour. */
    public static SuspectKind ofLabel(String label) {
        for (SuspectKind k : values()) {
            if (k.label().equals(label)) {
                return k;
            }
        }
        return NEIGHBOUR;
    }

    /** The key a suspect of this kind is known by: a neighbour's "namespace/pod", else "kind:subject". */
    public String key(String subject) {
        return this == NEIGHBOUR ? subject : label() + ":" + subject;
    }

    /** The subject of a key of this kind: the pod, node or card it is about. */
    public String subject(String key) {
        return this != NEIGHBOUR && key.startsWith(label() + ":") ? key.substring(label().length() + 1) : key;
    }
}
