package io.gpumeter.slo.capacity;

import io.gpumeter.common.problem.InvalidInput;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A number of whole days written {@code Nd} (7d, 30d), within limits the caller names. */
public final class Horizon {

    private static final Pattern DAYS = Pattern.compile("([1-9][0-9]{0,3})d");

    private Horizon() {
    }

    /**
     * Reads {@code text} as whole days between {@code min} and {@code max}.
     *
     * @throws InvalidInput for anything else, naming {@code field} (a 400 problem naming it in a request)
     */
    public static int days(String field, String text, int min, int max) {
        Matcher m = text == null ? null : DAYS.matcher(text.strip());
        if (m == null || !m.matches()) {
            throw new InvalidInput(field, field + " must be a number of days written like 7d or 30d, got "
                    + (text == null ? "nothing" : "'" + text + "'"));
        }
        int days = Integer.parseInt(m.group(1));
        if (days < min || days > max) {
            throw new InvalidInput(field, field + " must be between " + min + "d and " + max + "d, got '" + text + "'");
        }
        return days;
    }
}
