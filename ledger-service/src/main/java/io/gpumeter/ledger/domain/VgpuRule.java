package io.gpumeter.ledger.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

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
        String wanted = text == null ? "" : text.trim().toUpperCase(Locale.ROOT);
        return Arrays.stream(values()).filter(r -> r.name().equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("vGPU rule must be one of "
                        + Arrays.stream(values()).map(v -> v.name().toLowerCase(Locale.ROOT)).collect(Collectors.joining(", "))
                        + ", got '" + text + "'"));
    }
}
