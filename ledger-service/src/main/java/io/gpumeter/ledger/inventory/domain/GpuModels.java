package io.gpumeter.ledger.inventory.domain;

import java.util.Locale;

/** GPU model names as one spelling, so `NVIDIA-H100-80GB-HBM3` and `NVIDIA H100 80GB HBM3` are one model. */
public final class GpuModels {

    private GpuModels() {
    }

    /**
     * The name trimmed, each run of dashes, underscores and whitespace (the separators spellings of one model use
     * interchangeably) made one space, in upper case. A plain loop: every allocation segment a replay derives asks
     * for its card's model, where a regular expression cost a fiftieth of the ledger's CPU.
     */
    public static String canonical(String model) {
        if (model == null || model.isBlank()) {
            return null;
        }
        String trimmed = model.trim();
        if (isCanonical(trimmed)) {
            return trimmed;
        }
        StringBuilder out = new StringBuilder(trimmed.length());
        boolean inSeparators = false;
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            if (isSeparator(c)) {
                if (!inSeparators) {
                    out.append(' ');
                }
                inSeparators = true;
            } else {
                out.append(c);
                inSeparators = false;
            }
        }
        return out.toString().toUpperCase(Locale.ROOT);
    }

    /** Whether a trimmed name is already one spelling: ASCII, no lower case, no separator but single spaces. */
    private static boolean isCanonical(String trimmed) {
        for (int i = 0; i < trimmed.length(); i++) {
            char c = trimmed.charAt(i);
            if (c > 0x7F || (c >= 'a' && c <= 'z') || (isSeparator(c) && (c != ' ' || trimmed.charAt(i - 1) == ' '))) {
                return false;
            }
        }
        return true;
    }

    /** A dash, an underscore, or what {@code \s} matches in a Java regular expression. */
    private static boolean isSeparator(char c) {
        return c == '-' || c == '_' || c == ' ' || c == '\t' || c == '\n' || c == '\u000B' || c == '\f' || c == '\r';
    }
}
