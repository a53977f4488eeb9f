package io.gpumeter.alert.domain;

import java.util.Locale;

/** Whether an action runs: off (not run, not recorded), dry-run (recorded, nothing changed) or enforce. */
public enum ActionMode {
    OFF, DRY_RUN, ENFORCE;

    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** @throws IllegalArgumentException naming the accepted values */
    public static ActionMode parse(String text) {
        for (ActionMode m : values()) {
            if (text != null && m.label().equals(text.strip().toLowerCase(Locale.ROOT).replace('_', '-'))) {
                return m;
            }
        }
        throw new IllegalArgumentException("mode must be off, dry-run or enforce, got '" + text + "'");
    }
}
