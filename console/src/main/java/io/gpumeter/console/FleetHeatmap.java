package io.gpumeter.console;

import io.gpumeter.console.FleetLayout.Card;
import io.gpumeter.console.FleetLayout.Node;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Fleet page's picture: a heatmap of nodes by cards, coloured by the share held or by the activity measured. */
final class FleetHeatmap {

    private FleetHeatmap() {
    }

    /**
     * Nodes down, card slots across in the ledger's order, each cell the share of the card held (0 free, 1 full), or
     * with {@code used} the share of time the card was busy (its activity by the suite's one rule), blank where no usage reached the ledger.
     *
     * @param link a held named card's page, by UUID
     */
    static ChartOption of(List<Node> nodes, Map<String, Double> used, java.util.function.Function<String, String> link) {
        int width = nodes.stream().mapToInt(n -> n.gpus().size()).max().orElse(0);
        List<String> slots = new ArrayList<>();
        for (int i = 1; i <= width; i++) {
            slots.add("card " + i);
        }
        List<String> names = new ArrayList<>();
        List<Object> data = new ArrayList<>();
        for (int y = 0; y < nodes.size(); y++) {
            Node n = nodes.get(y);
            names.add(n.node());
            for (int x = 0; x < n.gpus().size(); x++) {
                data.add(cell(n, n.gpus().get(x), x, y, used, link));
            }
        }
        return ChartOption.chart()
                .tooltip(ChartOption.Tooltip.ITEM, "{b}")
                .grid(130, 20, 10, 70)
                .set("xAxis", Map.of("type", "category", "data", slots, "splitArea", Map.of("show", true)))
                .set("yAxis", Map.of("type", "category", "data", names, "inverse", true, "splitArea", Map.of("show", true)))
                .set("visualMap", Map.of("min", 0, "max", 1, "calculable", false, "orient", "horizontal", "left", "center",
                        "bottom", 5, "text", used == null ? List.of("held", "free") : List.of("busy", "idle"),
                        "inRange", Map.of("color", used == null ? List.of(Palette.PALE_BLUE, Palette.BLUE)
                                : List.of(Palette.PALE_ORANGE, Palette.RED))))
                .series("heatmap", "cards", data).colour(null)
                .set("label", Map.of("show", false))
                .set("itemStyle", Map.of("borderColor", Palette.WHITE, "borderWidth", 2))
                .set("emphasis", Map.of("itemStyle", Map.of("borderColor", Palette.INK, "borderWidth", 1)))
                .done();
    }

    private static Map<String, Object> cell(Node n, Card c, int x, int y, Map<String, Double> used,
                                            java.util.function.Function<String, String> link) {
        Map<String, Object> item = new LinkedHashMap<>();
        if (used == null) {
            item.put("value", List.of(x, y, c.heldFraction().min(BigDecimal.ONE).doubleValue()));
        } else {
            Double busy = c.uuid() == null ? null : used.get(c.uuid());
            item.put("value", Arrays.asList(x, y, busy == null ? "-" : Math.round(Math.min(1, busy) * 1000) / 1000.0));
        }
        String busyText = used == null || c.uuid() == null ? "" : used.containsKey(c.uuid())
                ? ", active " + Math.round(used.get(c.uuid()) * 100) + " %" : ", no usage known";
        item.put("name", c.free() ? "free" + busyText : c.uuid() != null ? c.uuid() + " — " + c.occupants().size() + " pod(s)" + busyText
                : "card not named by the device plugin — " + c.occupants().size() + " unit(s), " + Format.number(c.heldFraction())
                + " of it held");
        if (c.uuid() != null && !c.free()) {
            item.put("link", link.apply(c.uuid()));
        }
        return item;
    }
}
