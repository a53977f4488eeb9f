package io.gpumeter.console;

import io.quarkus.qute.TemplateExtension;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Numbers as the pages write them, for templates: {@code {fmt:number(n.heldFraction)}}, {@code {fmt:duration(r.p50Seconds)}}.
 * The records hold the services' numbers as they came; each is written here, an absent one as nothing. And a value
 * placed in a link's query, {@code {fmt:query(c.uuid)}}.
 */
@TemplateExtension(namespace = "fmt")
final class PageFormats {

    private PageFormats() {
    }

    /** Two decimals with thousands separators: {@code 1,234.50}. */
    static String number(BigDecimal value) {
        return Format.number(value);
    }

    /** Seconds as people say them: {@code 1 min 30 s}. */
    static String duration(BigDecimal seconds) {
        return Format.duration(seconds);
    }

    /** A share 0..1 as a percentage: {@code 87.5 %}. */
    static String percent(BigDecimal share) {
        return Format.percent(share);
    }

    /** Milliseconds, whole: {@code 1840 ms}. */
    static String ms(BigDecimal millis) {
        return millis == null ? "" : millis.setScale(0, RoundingMode.HALF_EVEN).toPlainString() + " ms";
    }

    /** A value in a query string, encoded: {@code 2026-11-30T12%3A00%3A00Z}. */
    static String query(String value) {
        return value == null ? "" : Format.query(value);
    }

    /** A number as it came, without trailing zeros: {@code 500}, {@code 99.5}. */
    static String plain(BigDecimal value) {
        return Format.plain(value);
    }

    /** Two decimals, no separators: {@code 2.70}, a ratio or a score. */
    static String ratio(BigDecimal value) {
        return value == null ? "" : value.setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
