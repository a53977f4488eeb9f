package io.gpumeter.console;

import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.Optional;

/** Numbers, instants and query values as the pages write them. */
public final class Format {

    private static final DateTimeFormatter LOCAL_MINUTE = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm");

    private Format() {
    }

    /** Two decimals with thousands separators: {@code 1,234.50}. */
    public static String number(BigDecimal value) {
        if (value == null) {
            return "";
        }
        DecimalFormat f = new DecimalFormat("#,##0.00", DecimalFormatSymbols.getInstance(Locale.ROOT));
        return f.format(value.setScale(2, RoundingMode.HALF_EVEN));
    }

    /** A share 0..1 as a percentage: {@code 87.5 %}. */
    public static String percent(BigDecimal share) {
        if (share == null) {
            return "";
        }
        return share.multiply(BigDecimal.valueOf(100)).setScale(1, RoundingMode.HALF_EVEN).toPlainString() + " %";
    }

    /** A number as it is, without trailing zeros: {@code 500}, {@code 99.5}; empty when absent. */
    public static String plain(BigDecimal value) {
        return value == null ? "" : value.stripTrailingZeros().toPlainString();
    }

    /** A duration in seconds as people say it: {@code 42 s}, {@code 12 min 5 s}, {@code 3 h 20 min}, {@code 2 d 4 h}. */
    public static String duration(BigDecimal seconds) {
        if (seconds == null) {
            return "";
        }
        long s = seconds.setScale(0, RoundingMode.HALF_EVEN).longValueExact();
        if (s < 60) {
            return s + " s";
        }
        if (s < 3600) {
            return s / 60 + " min" + (s % 60 != 0 ? " " + s % 60 + " s" : "");
        }
        if (s < 86_400) {
            return s / 3600 + " h" + (s % 3600 / 60 != 0 ? " " + s % 3600 / 60 + " min" : "");
        }
        return s / 86_400 + " d" + (s % 86_400 / 3600 != 0 ? " " + s % 86_400 / 3600 + " h" : "");
    }

    public static String query(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** A path segment: spaces as %20, '/' encoded. */
    public static String segment(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /**
     * An instant from the address or an answer: RFC 3339 ({@code 2026-11-30T12:00:00Z}) or a form's minute in UTC
     * ({@code 2026-11-30T12:00}), as {@link Params#formInstant} reads it; empty when unreadable.
     */
    public static Optional<Instant> instant(String text) {
        try {
            return Optional.of(Params.formInstant("instant", text));
        } catch (InvalidInput e) {
            return Optional.empty();
        }
    }

    /** For a datetime-local input, in UTC. */
    public static String minute(Instant at) {
        return LOCAL_MINUTE.format(at.atOffset(ZoneOffset.UTC));
    }

    /** {@code 2026-11-30T12:00:00Z}, to the second. */
    public static String rfc3339(Instant at) {
        return at.truncatedTo(ChronoUnit.SECONDS).toString();
    }
}
