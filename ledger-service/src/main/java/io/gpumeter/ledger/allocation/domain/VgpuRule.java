package io.gpumeter.ledger.allocation.domain;

import io.gpumeter.common.problem.Params;

import java.util.Locale;

/** How a HAMi vGPU share (cores %, memory MiB) becomes a fraction of a card. */
public enum VgpuRule {
    /** min(1, max(cores/100, memory/card memory)); the default. */
    MAX,
    /** cores/100, or the memory share when no cores are reserved. */
    CORES,
    /** memory/card memory. */
    MEMORY,
    /** w * cores/100 + (1 - w) * memory/card memory. */
    WEIGHTED;

    public static VgpuRule parse(String text) {
        return Params.oneOfIgnoringCase("vGPU rule", text, values(), r -> r.name().toLowerCase(Locale.ROOT));
    }
}
