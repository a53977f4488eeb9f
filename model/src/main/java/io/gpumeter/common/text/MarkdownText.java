package io.gpumeter.common.text;

/**
 * Text written into a Markdown page so that it shows literally: names, messages and summaries come from tenants, the
 * cluster and reviewers, and none of them may open a tag, a link, a table cell or a list.
 */
public final class MarkdownText {

    private MarkdownText() {
    }

    /**
     * Text as Markdown shows it literally: HTML's {@code & < >} become entities, so a viewer that allows HTML renders
     * no tag; each character that opens emphasis, code, a link or image, a strikethrough or a table cell is escaped
     * with a backslash, and so is a heading's or a list's marker where the text begins (it begins a list item); a
     * line break becomes a space, so a row or list item stays one line. Null is the empty string.
     */
    public static String literal(String s) {
        if (s == null) {
            return "";
        }
        StringBuilder out = new StringBuilder(s.length() + 16);
        int digits = 0;
        while (digits < s.length() && Character.isDigit(s.charAt(digits))) {
            digits++;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> out.append("&amp;");
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '\n', '\r' -> out.append(' ');
                case '\\', '`', '*', '_', '[', ']', '|', '~' -> out.append('\\').append(c);
                case '#', '-', '+' -> out.append(i == 0 ? "\\" : "").append(c);
                // "1." or "1)" opens a numbered list
                case '.', ')' -> out.append(i > 0 && i == digits ? "\\" : "").append(c);
                default -> out.append(c);
            }
        }
        return out.toString();
    }
}
