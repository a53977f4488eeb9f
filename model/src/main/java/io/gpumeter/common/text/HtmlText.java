package io.gpumeter.common.text;

/** Text written into an HTML page, as element content or a double-quoted attribute value, shown literally. */
public final class HtmlText {

    private HtmlText() {
    }

    /** {@code & < > "} as entities, so the text opens no tag, entity or attribute; null is the empty string. */
    public static String escape(String s) {
        if (s == null) {
            return "";
        }
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
