package io.gpumeter.collector.usage;

/** Strict number syntax: what Go's ParseFloat and nvidia-smi print, not what Java's parsers also let through. */
final class Decimals {

    private Decimals() {
    }

    /**
     * A Prometheus sample value: a decimal with optional sign and exponent, or NaN / Inf / Infinity with an optional
     * sign, case-insensitive as in Go; null when the token is none of these (hex floats and '_' included) or
     * overflows.
     */
    static Double sampleValue(String token) {
        String unsigned = token.startsWith("+") || token.startsWith("-") ? token.substring(1) : token;
        if (unsigned.equalsIgnoreCase("inf") || unsigned.equalsIgnoreCase("infinity")) {
            return token.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
        }
        if (token.equalsIgnoreCase("nan")) {
            return Double.NaN;
        }
        if (!isDecimal(unsigned, true)) {
            return null;
        }
        double value = Double.parseDouble(token);
        return Double.isInfinite(value) ? null : value;
    }

    /** An unsigned decimal without exponent, as nvidia-smi prints ({@code 72.35}); null otherwise. */
    static Double plain(String token) {
        if (!isDecimal(token, false)) {
            return null;
        }
        double value = Double.parseDouble(token);
        return Double.isInfinite(value) ? null : value;
    }

    /** A decimal integer with an optional sign that fits a long; null otherwise. */
    static Long integer(String token) {
        int start = token.startsWith("+") || token.startsWith("-") ? 1 : 0;
        if (start == token.length() || token.length() - start > 19) {
            return null;
        }
        for (int i = start; i < token.length(); i++) {
            if (!isDigit(token.charAt(i))) {
                return null;
            }
        }
        try {
            return Long.parseLong(token);
        } catch (NumberFormatException overflow) {
            return null;
        }
    }

    private static boolean isDecimal(String s, boolean exponent) {
        int i = 0;
        int n = s.length();
        int digits = 0;
        while (i < n && isDigit(s.charAt(i))) {
            i++;
            digits++;
        }
        if (i < n && s.charAt(i) == '.') {
            i++;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                digits++;
            }
        }
        if (digits == 0) {
            return false;
        }
        if (exponent && i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
            i++;
            if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                i++;
            }
            int expDigits = 0;
            while (i < n && isDigit(s.charAt(i))) {
                i++;
                expDigits++;
            }
            if (expDigits == 0) {
                return false;
            }
        }
        return i == n;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
