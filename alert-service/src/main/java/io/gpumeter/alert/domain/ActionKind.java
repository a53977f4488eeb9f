package io.gpumeter.alert.domain;

import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;

import java.util.Arrays;
import java.util.Locale;

/** The governance actions a runbook entry can run, each named as in configuration ("freeze-decode"). */
public enum ActionKind {
    /** Mark the node unschedulable (spec.unschedulable). */
    CORDON,
    /** Label the node gpumeter.io/decode-frozen=true, which decode workloads select against; optionally taint it. */
    FREEZE_DECODE,
    /** Annotate the node with the alert, for whoever looks at it next. */
    ANNOTATE,
    /** Start a Job on the node that captures a short trace snapshot. */
    TRACE_SNAPSHOT,
    /** Open a ticket through the configured outgoing webhook. */
    TICKET;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** Whether the action changes a node, so that it can be undone and the node is its target. */
    public boolean onNode() {
        return this == CORDON || this == FREEZE_DECODE || this == ANNOTATE;
    }

    /** @throws InvalidInput naming the accepted values */
    public static ActionKind parse(String text) {
        for (ActionKind k : values()) {
            if (text != null && k.label().equals(text.strip().toLowerCase(Locale.ROOT).replace('_', '-'))) {
                return k;
            }
        }
        throw Params.notOneOf("action", text, Arrays.stream(values()).map(ActionKind::label));
    }
}
