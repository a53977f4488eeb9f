package io.gpumeter.common.triage;

import io.gpumeter.common.problem.Params;

import java.util.Locale;

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
        return Params.oneOf("rootCause", text, values(), RootCauseClass::label);
    }
}
