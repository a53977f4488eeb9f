package io.gpumeter.ledger.demand.domain;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What kind of work a pod does, as the capacity plan tells demand apart. */
public enum WorkloadClass {
    /** A serving workload: its demand is sized by its SLO. */
    INFERENCE,
    /** A training job: throughput-bound, it can queue. */
    TRAINING,
    /** An interactive notebook: mostly idle, held for long. */
    NOTEBOOK,
    /** A run-to-completion job that is not training. */
    BATCH,
    /** Nothing said what it is. */
    OTHER;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The class named exactly by its label ({@code inference}, …); anything else is refused with the choices. */
    public static WorkloadClass parse(String text) {
        String wanted = text == null ? "" : text.strip();
        return Arrays.stream(values()).filter(c -> c.label().equals(wanted)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("must be one of "
                        + Arrays.stream(values()).map(WorkloadClass::label).collect(Collectors.joining(", "))
                        + ", got '" + text + "'"));
    }
}
