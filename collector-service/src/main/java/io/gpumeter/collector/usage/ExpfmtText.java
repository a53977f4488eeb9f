package io.gpumeter.collector.usage;

/**
 * The characters of the Prometheus text format by Go's expfmt: which may start or continue a metric or label name,
 * which are blanks; and how a refused character or token is shown in an error (control and non-ASCII characters as
 * code points, long tokens cut).
 */
final class ExpfmtText {

    private static final int SHOWN = 120;

    private ExpfmtText() {
    }

    static boolean isMetricName(String s) {
        if (s.isEmpty() || !isNameStart(s.charAt(0))) {
            return false;
        }
        for (int i = 1; i < s.length(); i++) {
            if (!isNameChar(s.charAt(i))) {
                return false;
            }
        }
        return true;
    }

    static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    static boolean isNameStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == ':';
    }

    static boolean isNameChar(char c) {
        return isNameStart(c) || c >= '0' && c <= '9';
    }

    static boolean isLabelStart(char c) {
        return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_';
    }

    static boolean isLabelChar(char c) {
        return isLabelStart(c) || c >= '0' && c <= '9';
    }

    static String shown(char c) {
        return c < ' ' || c > '~' ? String.format("U+%04X", (int) c) : "'" + c + "'";
    }

    static String shown(String s) {
        return "\"" + (s.length() > SHOWN ? s.substring(0, SHOWN) + "…" : s) + "\"";
    }
}
