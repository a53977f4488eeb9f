package io.gpumeter.ledger.governance.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** The SPEC's root-cause classes of a failure or a refusal. */
public enum RootCauseClass {
    /** Admission and scheduling rules: quota, congestion, flavors, gangs, affinity. */
    CONTROL_PLANE,
    /** Nodes, devices, drivers, runtimes and fabric. */
    DATA_PLANE,
    /** The workload itself: its memory, its image, its code. */
    WORKLOAD,
    /** What operators configured: driver/CUDA pairing, MIG layouts, container configuration. */
    OPERATIONS_CONFIGURATION;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static RootCauseClass parse(String text) {
        for (RootCauseClass c : values()) {
            if (c.label().equals(text)) {
                return c;
            }
        }
        throw new IllegalArgumentException("must be one of "
                + Arrays.stream(values()).map(RootCauseClass::label).collect(Collectors.joining(", ")) + ", got '" + text + "'");
    }
}
