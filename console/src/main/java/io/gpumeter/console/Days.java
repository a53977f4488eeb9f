package io.gpumeter.console;

import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;
import io.quarkus.qute.TemplateData;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;

/**
 * A window of whole days in UTC from the address ({@code ?from=2026-11-23&to=2026-11-30}, the end excluded; the
 * last seven days by default), as the pages over a window read it, with the services' own readers ({@link Params}).
 * A window reaching past now stops at now.
 *
 * @param start null when the window is unreadable or empty: the page then says why and asks nothing
 */
@TemplateData
public record Days(LocalDate from, LocalDate to, Instant start, Instant end) {

    public static Days parse(String fromText, String toText, Page page) {
        LocalDate today = LocalDate.now(ZoneOffset.UTC);
        LocalDate to = date("to", toText, today.plusDays(1), page);
        LocalDate from = date("from", fromText, (to != null ? to : today.plusDays(1)).minusDays(7), page);
        LocalDate shownTo = to != null ? to : today.plusDays(1);
        LocalDate shownFrom = from != null ? from : shownTo.minusDays(7);
        if (from == null || to == null) {
            return new Days(shownFrom, shownTo, null, null);
        }
        Instant start = from.atStartOfDay().toInstant(ZoneOffset.UTC);
        Instant end = to.atStartOfDay().toInstant(ZoneOffset.UTC);
        try {
            Params.window(start, end);
        } catch (InvalidInput e) {
            page.message(Message.error("The window is empty", e.getMessage() + " (from " + from + ", to " + to + ").",
                    "Pick a later end or an earlier start."));
            return new Days(from, to, null, null);
        }
        Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        if (end.isAfter(now)) {
            end = now;
        }
        if (!start.isBefore(end)) {
            page.message(Message.info("That window has not begun yet.", "Pick days up to today."));
            return new Days(from, to, null, null);
        }
        return new Days(from, to, start, end);
    }

    public boolean readable() {
        return start != null;
    }

    /** {@code from=…&to=…} for an API, as RFC 3339 instants. */
    public String query() {
        return "from=" + Format.query(Format.rfc3339(start)) + "&to=" + Format.query(Format.rfc3339(end));
    }

    private static LocalDate date(String field, String text, LocalDate fallback, Page page) {
        if (text == null || text.isBlank()) {
            return fallback;
        }
        try {
            return Params.day(field, text);
        } catch (InvalidInput e) {
            page.message(Message.error("That date is not readable", e.getMessage() + ".", "Pick a day in the form above."));
            return null;
        }
    }
}
