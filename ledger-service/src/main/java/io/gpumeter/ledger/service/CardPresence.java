package io.gpumeter.ledger.service;

import io.gpumeter.ledger.inventory.domain.InventoryStart;
import io.gpumeter.ledger.inventory.domain.NodeInventory;
import io.gpumeter.ledger.repository.CapacityRepository.Card;
import io.gpumeter.ledger.repository.CapacityRepository.NodeUid;
import io.gpumeter.ledger.repository.CapacityRepository.NodeVersion;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * When the inventory held which cards (docs/adr/0006-fleet-capacity.md), the one reading capacity and supply share:
 * every registered GPU from when it entered the inventory ({@link InventoryStart}) while its node lives, and for
 * nodes that register no GPUs, the {@code nvidia.com/gpu.count} label of each node version while that version is
 * the newest.
 */
final class CardPresence {

    /**
     * {@code cards} cards of one model on one node over [start, end), end null while open.
     *
     * @param uuid the registered card, null for cards a count label stands for
     */
    record Presence(String cluster, String node, String model, String uuid, Instant start, Instant end, int cards) {

        boolean covers(Instant at) {
            return !start.isAfter(at) && (end == null || end.isAfter(at));
        }
    }

    /** A stretch of a node's life during which one version of it was the newest: [start, end), end null = open. */
    private record Stretch(Instant start, Instant end, Integer labelledCards, String model) {
    }

    /** One life of a node (a uid, until deleted): first observed when, begun when, and its stretches. */
    private static final class Life {
        final String uid;
        final Instant observed;
        final Instant start;
        final List<Stretch> stretches = new ArrayList<>();

        Life(String uid, Instant observed, Instant start) {
            this.uid = uid;
            this.observed = observed;
            this.start = start;
        }
    }

    private record NodeKey(String cluster, String node) {
    }

    private CardPresence() {
    }

    /**
     * @param versions  every node version to consider, per node in the order they happened
     * @param creations each node uid's creation, as its status versions tell it
     */
    static List<Presence> of(List<NodeVersion> versions, Map<NodeUid, Instant> creations, List<Card> cards) {
        Map<NodeKey, List<Life>> lives = lives(versions, creations);
        List<Presence> out = new ArrayList<>();
        Set<NodeKey> registering = new HashSet<>();
        for (Card card : cards) {
            NodeKey node = new NodeKey(card.cluster(), card.node());
            registering.add(node);
            List<Life> life = lives.get(node);
            if (life == null) {
                // A card of a node never observed (not expected) counts from its first sighting on.
                out.add(new Presence(card.cluster(), card.node(), card.model(), card.uuid(), card.firstSeen(), null, 1));
                continue;
            }
            Life own = life.get(0);
            for (Life l : life) {
                if (!l.observed.isAfter(card.firstSeen())) {
                    own = l;
                }
            }
            Instant since = InventoryStart.card(card.firstSeen(), own.observed, own.start);
            for (Life l : life) {
                for (Stretch s : l.stretches) {
                    Instant start = s.start().isBefore(since) ? since : s.start();
                    add(out, new Presence(card.cluster(), card.node(), card.model(), card.uuid(), start, s.end(), 1));
                }
            }
        }
        lives.forEach((node, life) -> {
            if (registering.contains(node)) {
                return; // registered GPUs are the evidence; the count label would count them twice
            }
            for (Life l : life) {
                for (Stretch s : l.stretches) {
                    if (s.labelledCards() != null && s.labelledCards() > 0) {
                        add(out, new Presence(node.cluster(), node.node(), s.model(), null, s.start(), s.end(),
                                s.labelledCards()));
                    }
                }
            }
        });
        return out;
    }

    /** Adds a presence, joined to the one before it when it continues it unchanged; empty ones are left out. */
    private static void add(List<Presence> out, Presence p) {
        if (p.end() != null && !p.end().isAfter(p.start())) {
            return;
        }
        Presence last = out.isEmpty() ? null : out.get(out.size() - 1);
        if (last != null && last.end() != null && last.end().equals(p.start()) && last.cluster().equals(p.cluster())
                && last.node().equals(p.node()) && Objects.equals(last.uuid(), p.uuid())
                && Objects.equals(last.model(), p.model()) && last.cards() == p.cards()) {
            out.set(out.size() - 1, new Presence(p.cluster(), p.node(), p.model(), p.uuid(), last.start(), p.end(), p.cards()));
            return;
        }
        out.add(p);
    }

    /**
     * Each node's lives as consecutive stretches, one per version. A deletion ends a life; the next version, or a
     * version of another uid, begins a new one, at its start by {@link InventoryStart#node}.
     */
    private static Map<NodeKey, List<Life>> lives(List<NodeVersion> versions, Map<NodeUid, Instant> creations) {
        Map<NodeKey, List<Life>> out = new HashMap<>();
        Map<NodeKey, Stretch> open = new HashMap<>();
        for (NodeVersion v : versions) {
            NodeKey key = new NodeKey(v.cluster(), v.node());
            List<Life> life = out.computeIfAbsent(key, k -> new ArrayList<>());
            Life current = life.isEmpty() ? null : life.get(life.size() - 1);
            Stretch running = open.remove(key);
            boolean otherUid = running != null && v.uid() != null && current.uid != null && !v.uid().equals(current.uid);
            if (v.deleted()) {
                if (running != null) {
                    current.stretches.add(new Stretch(running.start(), v.observedAt(), running.labelledCards(), running.model()));
                }
                continue;
            }
            Instant start = v.observedAt();
            if (running == null || otherUid) {
                Instant notBefore = running != null ? running.start() : lastEnd(current);
                start = InventoryStart.node(v.observedAt(), creations.get(new NodeUid(v.cluster(), v.node(), v.uid())),
                        notBefore);
                if (running != null) {
                    current.stretches.add(new Stretch(running.start(), start, running.labelledCards(), running.model()));
                }
                life.add(new Life(v.uid(), v.observedAt(), start));
            } else {
                current.stretches.add(new Stretch(running.start(), v.observedAt(), running.labelledCards(), running.model()));
            }
            open.put(key, new Stretch(start, null, cardCount(v.gpuCount()), model(v)));
        }
        open.forEach((key, stretch) -> {
            List<Life> life = out.get(key);
            life.get(life.size() - 1).stretches.add(stretch);
        });
        out.values().removeIf(List::isEmpty);
        return out;
    }

    private static Instant lastEnd(Life life) {
        return life == null || life.stretches.isEmpty() ? null : life.stretches.get(life.stretches.size() - 1).end();
    }

    /** The label's whole number of cards, or null when absent or unreadable. */
    private static Integer cardCount(String label) {
        if (label == null) {
            return null;
        }
        try {
            int count = Integer.parseInt(label.strip());
            return count >= 0 ? count : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String model(NodeVersion v) {
        return v.product() == null ? null
                : new NodeInventory(v.node(), Map.of(NodeInventory.PRODUCT, v.product()), List.of()).model();
    }
}
