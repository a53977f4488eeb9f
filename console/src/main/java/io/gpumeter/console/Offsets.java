package io.gpumeter.console;

/** Where in a list a page starts, from its address: a whole number from 0, 0 when absent. */
final class Offsets {

    private Offsets() {
    }

    /** The offset; 0 when absent, and 0 with the page saying why when it is not readable. */
    static int of(String text, String field, Page page) {
        if (text == null || text.isBlank()) {
            return 0;
        }
        try {
            int value = Integer.parseInt(text.strip());
            if (value >= 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        page.message(Message.error("That " + field + " is not readable", field + " must be a whole number from 0, got '" + text + "'.",
                "Follow a link on this page instead."));
        return 0;
    }
}
