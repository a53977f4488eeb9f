package io.gpumeter.ledger.governance.domain;

import java.util.Map;

/**
 * The marks alert-service's runbook actions leave on a node (ADR 0007): a cordon carries
 * {@code gpumeter.io/cordoned-by} and {@code gpumeter.io/cordon-reason}, a decode freeze labels the node
 * {@code gpumeter.io/decode-frozen} and carries {@code gpumeter.io/decode-frozen-by}; the undo removes the mark in
 * the same patch. A change made in the very version whose marks say so is the suite's own, and its source names the
 * action.
 */
public final class SuiteMarks {

    /** How the source of a change the suite made itself begins. */
    public static final String SOURCE_PREFIX = "gpumeter ";
    static final String CORDONED_BY = "gpumeter.io/cordoned-by";
    static final String CORDON_REASON = "gpumeter.io/cordon-reason";
    static final String DECODE_FROZEN = "gpumeter.io/decode-frozen";
    static final String DECODE_FROZEN_BY = "gpumeter.io/decode-frozen-by";

    private SuiteMarks() {
    }

    /** Whether a version that cordons its node carries the runbook's mark: the suite's own cordon. */
    public static boolean cordonedBySuite(Map<String, String> annotations) {
        return annotations.containsKey(CORDONED_BY);
    }

    /** The source of a cordon or uncordon between two versions' annotations; null where the suite did not make it. */
    static String cordon(boolean cordoned, Map<String, String> before, Map<String, String> after) {
        if (cordoned && cordonedBySuite(after)) {
            String reason = after.get(CORDON_REASON);
            return SOURCE_PREFIX + after.get(CORDONED_BY) + ": cordon"
                    + (reason == null || reason.isBlank() ? "" : " (" + reason + ")");
        }
        if (!cordoned && before.containsKey(CORDONED_BY) && !after.containsKey(CORDONED_BY)) {
            return SOURCE_PREFIX + before.get(CORDONED_BY) + ": uncordon";
        }
        return null;
    }

    /** The source of a change of a label between two versions' annotations; null where the suite did not make it. */
    static String label(String key, String afterValue, Map<String, String> before, Map<String, String> after) {
        if (!DECODE_FROZEN.equals(key)) {
            return null;
        }
        if (afterValue != null && after.containsKey(DECODE_FROZEN_BY)) {
            return SOURCE_PREFIX + after.get(DECODE_FROZEN_BY) + ": freeze-decode";
        }
        if (afterValue == null && before.containsKey(DECODE_FROZEN_BY) && !after.containsKey(DECODE_FROZEN_BY)) {
            return SOURCE_PREFIX + before.get(DECODE_FROZEN_BY) + ": unfreeze-decode";
        }
        return null;
    }
}
