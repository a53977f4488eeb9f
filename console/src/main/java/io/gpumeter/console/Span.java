package io.gpumeter.console;

import io.gpumeter.common.problem.InvalidInput;
import io.gpumeter.common.problem.Params;
import io.quarkus.qute.TemplateData;

import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * A window of hours ending at an instant, from the address ({@code ?to=2026-11-30T12:00:00Z&window=6h}; the last six
 * hours by default), as the pages over minutes read it, with the services' own readers ({@link Params}).
 *
 * @param from null when the address is unreadable: the page then says why and asks nothing
 */
@TemplateData
public record Span(String window, Instant from, Instant to, String toMinute) {

    static final List<String> WINDOWS = List.of("1h", "6h", "24h", "7d");

    public static Span parse(String toText, String windowText, Page page) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MINUTES);
        String window = "6h";
        boolean readable = true;
        try {
            window = windowText == null || windowText.isBlank() ? "6h" : Params.oneOf("window", windowText, WINDOWS.toArray(String[]::new));
        } catch (InvalidInput e) {
            page.message(Message.error("That window is not offered", e.getMessage() + ".", "Pick one in the form above."));
            readable = false;
        }
        Instant to = now;
        if (toText != null && !toText.isBlank()) {
            try {
                to = Params.formInstant("to", toText).truncatedTo(ChronoUnit.SECONDS);
            } catch (InvalidInput e) {
                page.message(Message.error("That instant is not readable", e.getMessage() + ".", "Pick a time in the form above."));
                readable = false;
            }
        }
        Instant from = to.minus(length(window));
        return new Span(window, readable ? from : null, to, Format.minute(to));
    }

    public static List<String> windows() {
        return WINDOWS;
    }

    public boolean readable() {
        return from != null;
    }

    public Duration length() {
        return length(window);
    }

    /** {@code from=…&to=…} for an API, as RFC 3339 instants. */
    public String query() {
        return "from=" + Format.query(Format.rfc3339(from)) + "&to=" + Format.query(Format.rfc3339(to));
    }

    public String rfc3339To() {
        return Format.rfc3339(to);
    }

    private static Duration length(String window) {
        return switch (window) {
            case "1h" -> Duration.ofHours(1);
            case "24h" -> Duration.ofHours(24);
            case "7d" -> Duration.ofDays(7);
            default -> Duration.ofHours(6);
        };
    }
}
