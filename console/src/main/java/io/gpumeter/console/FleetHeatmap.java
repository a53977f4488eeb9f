package io.gpumeter.console;

import io.gpumeter.console.FleetParts.Card;
import io.gpumeter.console.FleetParts.Node;

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
     * Nodes down, card slots across, each cell the share of the card held (0 free, 1 full), or with {@code used} the
     * share of time the card was busy (its activity: SM_ACTIVE, else GR_ENGINE_ACTIVE, else GPU_UTIL, minute by minute),
     * blank where no usage reached the ledger.
     */
    static Map<String, Object> of(List<Node> nodes, Map<String, Double> used) {
        int width = nodes.stream().mapToInt(Node::cardCount).max().orElse(0);
        List<String> slots = new ArrayList<>();
        for (int i = 1; i <= width; i++) {
            slots.add("card " + i);
        }
        List<String> names = new ArrayList<>();
        List<Object> data = new ArrayList<>();
        for (int y = 0; y < nodes.size(); y++) {
            Node n = nodes.get(y);
            names.add(n.name());
            for (int x = 0; x < n.cards().size(); x++) {
                Card c = n.cards().get(x);
                Map<String, Object> item = new LinkedHashMap<>();
                if (used == null) {
                    item.put("value", List.of(x, y, c.held().min(BigDecimal.ONE).doubleValue()));
                } else {
                    Double busy = c.uuid() == null ? null : used.get(c.uuid());
                    item.put("value", Arrays.asList(x, y, busy == null ? "-" : Math.round(Math.min(1, busy) * 1000) / 1000.0));
                }
                String busyText = used == null || c.uuid() == null ? "" : used.containsKey(c.uuid())
                        ? ", active " + Math.round(used.get(c.uuid()) * 100) + " %" : ", no usage known";
                item.put("name", c.free() ? "free" + busyText : c.uuid() != null ? c.uuid() + " — " + c.occupants().size() + " pod(s)" + busyText
                        : "card not named by the device plugin — " + c.occupants().size() + " unit(s) share " + n.unnamedCards() + " card(s)");
                if (c.link() != null) {
                    item.put("link", c.link());
                }
                data.add(item);
            }
        }
        Map<String, Object> option = new LinkedHashMap<>();
        option.put("tooltip", Map.of("position", "top", "formatter", "{b}"));
        option.put("grid", Map.of("left", 130, "right", 20, "top", 10, "bottom", 70));
        option.put("xAxis", Map.of("type", "category", "data", slots, "splitArea", Map.of("show", true)));
        option.put("yAxis", Map.of("type", "category", "data", names, "inverse", true, "splitArea", Map.of("show", true)));
        option.put("visualMap", Map.of("min", 0, "max", 1, "calculable", false, "orient", "horizontal", "left", "center",
                "bottom", 5, "text", used == null ? List.of("held", "free") : List.of("busy", "idle"),
                "inRange", Map.of("color", used == null ? List.of("#eef2f7", "#2f6fb0") : List.of("#fdf3e3", "#c2504a"))));
        option.put("series", List.of(Map.of("type", "heatmap", "data", data, "label", Map.of("show", false),
                "itemStyle", Map.of("borderColor", "#ffffff", "borderWidth", 2),
                "emphasis", Map.of("itemStyle", Map.of("borderColor", "#333333", "borderWidth", 1)))));
        return option;
    }

}
