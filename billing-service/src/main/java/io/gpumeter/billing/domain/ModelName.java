package io.gpumeter.billing.domain;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Canonical GPU model keys, so that label, nvidia-smi and hand-typed spellings of one model meet in one rate.
 */
public final class ModelName {

    /** Printed and looked up when the ledger does not know which model a grant ran on. */
    public static final String UNKNOWN = "unknown";

    private static final Pattern SEPARATORS = Pattern.compile("[-_\\s]+");

    private ModelName() {
    }

    /**
     * Lower-cases and turns every run of '-', '_' or whitespace into one '-', trimming separators at the ends;
     * null or blank becomes {@value #UNKNOWN}.
     */
    public static String normalise(String model) {
        if (model == null) {
            return UNKNOWN;
        }
        String key = SEPARATORS.matcher(model.strip().toLowerCase(Locale.ROOT)).replaceAll("-");
        key = stripSeparators(key);
        return key.isEmpty() ? UNKNOWN : key;
    }

    /** The name to print: the model as the ledger spelled it (trimmed), or {@value #UNKNOWN}. */
    public static String display(String model) {
        if (model == null || model.isBlank() || normalise(model).equals(UNKNOWN)) {
            return UNKNOWN;
        }
        return model.strip();
    }

    private static String stripSeparators(String key) {
        int from = 0;
        int to = key.length();
        while (from < to && key.charAt(from) == '-') {
            from++;
        }
        while (to > from && key.charAt(to - 1) == '-') {
            to--;
        }
        return key.substring(from, to);
    }
}
