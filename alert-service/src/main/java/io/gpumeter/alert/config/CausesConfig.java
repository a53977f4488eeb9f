package io.gpumeter.alert.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithParentName;

import java.util.List;
import java.util.Map;

/**
 * The runbook's entries by cause ({@code gpumeter.alert.causes.<cause>.*}): what to do when a triage names the cause,
 * smallest step first, and how to see that it worked. A cause is a wait class or a failure cause as the ledger labels
 * it ({@code cluster-full}, {@code neighbour-memory-pressure}), an Xid class ({@code xid-hardware-driver}) or one Xid
 * ({@code xid-48}), which takes the place of its class's entry.
 */
@ConfigMapping(prefix = "gpumeter.alert.causes")
public interface CausesConfig {

    @WithParentName
    Map<String, Cause> entries();

    /** One cause's entry. */
    interface Cause {
        /** What to do, smallest first: the first step that makes the symptom go is the fix. */
        List<String> steps();

        /** How to see that it worked. */
        String verify();
    }
}
