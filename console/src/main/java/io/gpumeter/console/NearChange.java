package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A change near something the page shows (a jitter event, an instant on a card), as its table lists it: how long
 * before it (or that it came during or after it), and a link to the change's impact on the Changes page.
 *
 * @param inSpan whether the change falls in the span the page's charts draw
 */
@TemplateData
public record NearChange(BookChange change, String when, boolean inSpan, String link) {

    /**
     * The changes up to {@code to}, newest first, at most {@code most}: each said relative to {@code reference}, and
     * in the span when at or after {@code spanFrom}.
     */
    static List<NearChange> of(List<BookChange> changes, Instant reference, Instant spanFrom, Instant to, int most) {
        List<BookChange> newest = new ArrayList<>(changes.stream().filter(c -> c.at().isBefore(to)).toList());
        newest.sort(Comparator.comparing(BookChange::at).reversed());
        List<NearChange> out = new ArrayList<>();
        for (BookChange c : newest.subList(0, Math.min(most, newest.size()))) {
            long seconds = Duration.between(c.at(), reference).toSeconds();
            String when = seconds > 0 ? Format.duration(BigDecimal.valueOf(seconds)) + " before" : seconds == 0 ? "at the start"
                    : Format.duration(BigDecimal.valueOf(-seconds)) + " after";
            out.add(new NearChange(c, when, !c.at().isBefore(spanFrom), link(c)));
        }
        return out;
    }

    /** The change's day on the Changes page, its node's lane (or the fleet's for a cluster-wide one), its impact shown. */
    static String link(BookChange c) {
        var day = c.at().atOffset(ZoneOffset.UTC).toLocalDate();
        return "/changes?from=" + day + "&to=" + day.plusDays(1) + (c.node() != null ? "&node=" + Format.query(c.node()) : "")
                + (c.cluster() != null ? "&cluster=" + Format.query(c.cluster()) : "")
                + (c.id() != null ? "&change=" + Format.query(c.id()) + "#impact" : "");
    }
}
