package io.gpumeter.console;

import io.gpumeter.console.IdleAnswer.Seconds;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The ledger's idle split ({@link IdleAnswer}) as the Idle page's rows: each group's card-hours by part, and its
 * allocated-but-not-busy hours by the host's cause with the host coverage.
 */
final class IdleRows {

    /** The parts of the split in the order they are stacked: a label, a colour, and the ledger's figure. */
    static final List<Part> PARTS = List.of(
            new Part("busy", Palette.BLUE, Seconds::busy),
            new Part("allocated, not busy", Palette.ORANGE, Seconds::allocatedNotBusy),
            new Part("allocated, unmeasured", Palette.LIGHT_GREY, Seconds::allocatedUnmeasured),
            new Part("empty while work queued", Palette.RED, Seconds::queuedWhileEmpty),
            new Part("empty", Palette.FREE, Seconds::empty));

    /** The causes of allocated-not-busy time in the order the ledger decides them (ADR 22), in shades of its colour. */
    static final List<String> CAUSES = List.of("CPU saturated", "I/O wait", "network", "unexplained");
    static final List<String> CAUSE_COLOURS = Palette.WARM;

    private static final BigDecimal HOUR = BigDecimal.valueOf(3600);

    private IdleRows() {
    }

    /** A part of the split with its label and colour. */
    record Part(String label, String colour, Function<Seconds, BigDecimal> seconds) {
    }

    /**
     * One group: its hours by part and by cause.
     *
     * @param sub        the pod's tenant, null for other groupings
     * @param causeHours allocated-not-busy hours by cause; empty when the ledger gave none
     * @param coverage   the share of that time with host data, null when there was none
     */
    @TemplateData
    public record Row(String group, String sub, List<BigDecimal> partHours, BigDecimal total, BigDecimal notBusyShare,
                      List<BigDecimal> causeHours, BigDecimal coverage) {
    }

    static List<Row> of(IdleAnswer answer, String groupBy) {
        List<Row> rows = new ArrayList<>();
        for (IdleAnswer.Row row : answer.rows() == null ? List.<IdleAnswer.Row>of() : answer.rows()) {
            Seconds seconds = row.seconds() == null ? new Seconds(null, null, null, null, null, null) : row.seconds();
            List<BigDecimal> partHours = PARTS.stream().map(p -> hours(p.seconds().apply(seconds))).toList();
            BigDecimal total = hours(seconds.total());
            BigDecimal notBusy = hours(seconds.allocatedNotBusy()).add(hours(seconds.empty())).add(hours(seconds.queuedWhileEmpty()));
            BigDecimal share = total.signum() == 0 ? null : notBusy.divide(total, 4, RoundingMode.HALF_EVEN);
            List<BigDecimal> causeHours = row.allocatedNotBusyBy() == null ? List.of()
                    : row.allocatedNotBusyBy().inOrder().stream().map(h -> h == null ? BigDecimal.ZERO : h).toList();
            rows.add(new Row(label(row, groupBy), groupBy.equals("pod") ? of(row.group(), "tenant") : null, partHours, total,
                    share, causeHours, row.hostCoverage()));
        }
        return rows;
    }

    /** A group as people name it: the tenant, the node, or a pod as namespace/name; else the ledger's key. */
    private static String label(IdleAnswer.Row row, String groupBy) {
        String label = switch (groupBy) {
            case "node" -> of(row.group(), "node");
            case "pod" -> of(row.group(), "namespace") != null ? of(row.group(), "namespace") + "/" + of(row.group(), "pod")
                    : of(row.group(), "pod");
            default -> of(row.group(), "tenant");
        };
        return label == null ? row.key() : label;
    }

    private static String of(Map<String, String> group, String dimension) {
        return group == null ? null : group.get(dimension);
    }

    private static BigDecimal hours(BigDecimal seconds) {
        return (seconds == null ? BigDecimal.ZERO : seconds).divide(HOUR, 6, RoundingMode.HALF_EVEN);
    }
}
