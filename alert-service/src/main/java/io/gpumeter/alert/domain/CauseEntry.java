package io.gpumeter.alert.domain;

import io.quarkus.runtime.annotations.RegisterForReflection;

import java.util.List;

/**
 * What to do when a triage names a cause: the steps, smallest first, and how to see that they worked.
 *
 * @param cause the cause's label, e.g. {@code cluster-full}, {@code xid-hardware-driver}, {@code xid-48}
 * @param kind  {@code wait} (a wait class), {@code failure} (a failure cause), {@code xid-class} (the entry of every
 *              Xid of a class without its own) or {@code xid} (one Xid's own)
 * @param layer the root-cause class the cause belongs to
 */
// served inside a Response, whose entity type the native build cannot see
@RegisterForReflection
public record CauseEntry(String cause, String kind, String layer, List<String> steps, String verify) {

    public CauseEntry {
        steps = List.copyOf(steps);
    }

    /** The steps as one text: the step alone, or numbered lines. */
    public String action() {
        if (steps.size() == 1) {
            return steps.get(0);
        }
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < steps.size(); i++) {
            text.append(i == 0 ? "" : "\n").append(i + 1).append(". ").append(steps.get(i));
        }
        return text.toString();
    }
}
