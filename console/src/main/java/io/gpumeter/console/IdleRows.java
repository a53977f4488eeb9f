package io.gpumeter.console;

import com.fasterxml.jackson.databind.JsonNode;
import io.quarkus.qute.TemplateData;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The ledger's idle split ({@code GET /api/v1/idle}) as the Idle page's rows: each group's card-hours by part, and its
 * allocated-but-not-busy hours by the host's cause ({@code allocatedNotBusyBy}) with the host coverage.
 */
final class IdleRows {

    /** The parts of the split in the order they are stacked: the ledger's field, a label and a colour. */
    static final List<Part> PARTS = List.of(
            new Part("busy", "busy", Palette.BLUE),
            new Part("allocatedNotBusy", "allocated, not busy", Palette.ORANGE),
            new Part("allocatedUnmeasured", "allocated, unmeasured", Palette.LIGHT_GREY),
            new Part("queuedWhileEmpty", "empty while work queued", Palette.RED),
            new Part("empty", "empty", Palette.FREE));

    /** The causes of allocated-not-busy time in the order the ledger decides them (ADR 22), in shades of its colour. */
    static final List<Part> CAUSES = List.of(
            new Part("CPU_SATURATED", "CPU saturated", Palette.WARM.get(0)),
            new Part("IO_WAIT", "I/O wait", Palette.WARM.get(1)),
            new Part("NETWORK", "network", Palette.WARM.get(2)),
            new Part("UNEXPLAINED", "unexplained", Palette.WARM.get(3)));

    private static final BigDecimal HOUR = BigDecimal.valueOf(3600);

    private IdleRows() {
    }

    /** A ledger field with its label and colour. */
    record Part(String field, String label, String colour) {
    }

    /**
     * One group: its hours by part and by cause, as the table prints them, and as numbers for the chart.
     *
     * @param sub      the pod's tenant, null for other groupings
     * @param causes   allocated-not-busy hours by cause; empty when the ledger gave none
     * @param coverage the share of that time with host data, "" when there was none
     */
    @TemplateData
    public record Row(String group, String sub, List<String> hours, String total, String notBusyShare,
                      List<String> causes, String coverage, List<BigDecimal> partHours, List<BigDecimal> causeHours) {
    }

    static List<Row> of(JsonNode answer, String groupBy) {
        List<Row> rows = new ArrayList<>();
        for (JsonNode row : answer.path("rows")) {
            JsonNode seconds = row.path("seconds");
            List<BigDecimal> partHours = PARTS.stream().map(p -> hours(seconds, p.field())).toList();
            BigDecimal total = hours(seconds, "total");
            BigDecimal notBusy = hours(seconds, "allocatedNotBusy").add(hours(seconds, "empty"))
                    .add(hours(seconds, "queuedWhileEmpty"));
            String share = total.signum() == 0 ? "" : Format.percent(notBusy.divide(total, 4, RoundingMode.HALF_EVEN));
            JsonNode by = row.path("allocatedNotBusyBy");
            List<BigDecimal> causeHours = by.isObject()
                    ? CAUSES.stream().map(c -> Format.decimal(by, c.field())).toList() : List.of();
            rows.add(new Row(label(row, groupBy), groupBy.equals("pod") ? Format.text(row.path("group"), "tenant") : null,
                    partHours.stream().map(Format::number).toList(), Format.number(total), share,
                    causeHours.stream().map(Format::number).toList(),
                    Format.percent(Format.decimalOrNull(row, "hostCoverage")), partHours, causeHours));
        }
        return rows;
    }

    /** A group as people name it: the tenant, the node, or a pod as namespace/name; else the ledger's key. */
    private static String label(JsonNode row, String groupBy) {
        JsonNode group = row.path("group");
        String label = switch (groupBy) {
            case "node" -> Format.text(group, "node");
            case "pod" -> group.hasNonNull("namespace")
                    ? Format.text(group, "namespace") + "/" + Format.text(group, "pod") : Format.text(group, "pod");
            default -> Format.text(group, "tenant");
        };
        return label == null ? Format.text(row, "key") : label;
    }

    private static BigDecimal hours(JsonNode seconds, String field) {
        return Format.decimal(seconds, field).divide(HOUR, 6, RoundingMode.HALF_EVEN);
    }
}
