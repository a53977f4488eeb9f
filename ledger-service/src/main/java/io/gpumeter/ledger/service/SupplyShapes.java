package io.gpumeter.ledger.service;

import io.gpumeter.ledger.fragmentation.domain.ProbeCard;
import io.gpumeter.ledger.fragmentation.domain.RequestRoom;
import io.gpumeter.ledger.service.SupplyTimeline.EndState;
import io.gpumeter.ledger.supply.domain.Supply;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The request shapes the usable cards offer at the window's end, per model. */
final class SupplyShapes {

    private SupplyShapes() {
    }

    /**
     * The rooms of the usable cards: none on a cordoned node, no failing card; where a failure names no card, as many
     * of its node's cards as it counts are left out, the last in UUID order.
     */
    static List<RequestRoom> usable(List<RequestRoom> rooms, EndState end) {
        Map<String, List<String>> cardsOfNode = new HashMap<>();
        for (RequestRoom r : rooms) {
            List<String> cards = cardsOfNode.computeIfAbsent(node(r.card()), k -> new ArrayList<>());
            if (!cards.contains(r.card().uuid())) {
                cards.add(r.card().uuid());
            }
        }
        Set<String> unusable = new HashSet<>();
        end.failingUnnamed().forEach((node, n) -> {
            List<String> cards = cardsOfNode.getOrDefault(node, List.of()).stream()
                    .filter(uuid -> !end.failingCards().contains(node.substring(0, node.indexOf('/') + 1) + uuid))
                    .sorted().toList();
            cards.subList(Math.max(0, cards.size() - n), cards.size())
                    .forEach(uuid -> unusable.add(node.substring(0, node.indexOf('/') + 1) + uuid));
        });
        return rooms.stream().filter(r -> r.whenEmpty() > 0 && !end.cordonedNodes().contains(node(r.card()))
                && !end.failingCards().contains(card(r.card())) && !unusable.contains(card(r.card()))).toList();
    }

    /**
     * The shapes of one model's usable rooms — whole, MIG profiles, HAMi, DRA, each family by name — with the cards
     * offering each, the units they hold when empty and the units still free.
     */
    static List<Supply.Shape> of(List<RequestRoom> rooms) {
        Map<String, RequestShapes.Shape> shapes = new HashMap<>();
        Map<String, Set<String>> cards = new HashMap<>();
        Map<String, int[]> units = new LinkedHashMap<>();
        for (RequestRoom r : rooms) {
            RequestShapes.Shape shape = RequestShapes.shape(r.card(), r.request());
            shapes.put(shape.name(), shape);
            cards.computeIfAbsent(shape.name(), k -> new HashSet<>()).add(card(r.card()));
            int[] sum = units.computeIfAbsent(shape.name(), k -> new int[2]);
            sum[0] += r.whenEmpty();
            sum[1] += r.more();
        }
        List<Supply.Shape> out = new ArrayList<>();
        shapes.values().stream().sorted(Comparator.comparing((RequestShapes.Shape s) -> s.kind()).thenComparing(RequestShapes.Shape::name))
                .forEach(s -> out.add(new Supply.Shape(s.name(), s.kind().name(), cards.get(s.name()).size(),
                        units.get(s.name())[0], units.get(s.name())[1])));
        return out;
    }

    private static String node(ProbeCard card) {
        return card.cluster() + "/" + card.node();
    }

    private static String card(ProbeCard card) {
        return card.cluster() + "/" + card.uuid();
    }
}
