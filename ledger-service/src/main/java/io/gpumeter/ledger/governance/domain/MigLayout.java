package io.gpumeter.ledger.governance.domain;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * One named MIG layout of mig-parted's configuration ({@code nvidia.com/mig.config} names it): entries, each for all of
 * a node's cards or for some of them by index, optionally only for cards of some PCI device ids, each enabling MIG
 * with so many devices of each profile, or disabling it.
 *
 * <p>The ledger does not see a card's PCI device id, so a layout whose entries differ by device ({@code all-1g.10gb}
 * gives an 80 GB card 7 devices, a 40 GB one 4) is a set of variants, and a card agrees with the layout when it agrees
 * with one of them; which one its device id would pick is never guessed.
 */
public record MigLayout(String name, List<Entry> entries) {

    /**
     * One entry: the cards it is for ({@code indices} null for all of them), the PCI device ids it is limited to (empty
     * for any), and the devices each of its cards holds by profile (empty when MIG is disabled).
     */
    public record Entry(List<Integer> indices, List<String> deviceFilter, boolean migEnabled, Map<String, Integer> devices) {

        public Entry {
            indices = indices == null ? null : List.copyOf(indices);
            deviceFilter = List.copyOf(deviceFilter);
            devices = new TreeMap<>(devices);
        }
    }

    public MigLayout {
        entries = List.copyOf(entries);
    }

    /**
     * What each card may hold, by profile, when every entry is for all cards: one variant per entry (a card matches
     * one of them by its device id). Empty when some entry names cards by index: then only the node's totals can be
     * compared ({@link #exactTotals}).
     */
    public Optional<List<Map<String, Integer>>> perCard() {
        if (entries.isEmpty() || entries.stream().anyMatch(e -> e.indices() != null)) {
            return Optional.empty();
        }
        Set<Map<String, Integer>> variants = new LinkedHashSet<>();
        entries.forEach(e -> variants.add(e.devices()));
        return Optional.of(List.copyOf(variants));
    }

    /**
     * The node's MIG devices by profile for a layout that names every card it configures by index and limits none of
     * its entries to a device id: then the totals do not depend on anything the ledger cannot see. Empty otherwise.
     */
    public Optional<Map<String, Integer>> exactTotals() {
        if (entries.isEmpty() || entries.stream().anyMatch(e -> e.indices() == null || !e.deviceFilter().isEmpty())) {
            return Optional.empty();
        }
        Map<String, Integer> out = new TreeMap<>();
        for (Entry e : entries) {
            e.devices().forEach((profile, n) -> out.merge(profile, n * e.indices().size(), Integer::sum));
        }
        out.values().removeIf(n -> n == 0);
        return Optional.of(out);
    }

    /** The node's totals for each per-card variant on {@code cards} cards; empty when the layout has no per-card form. */
    public List<Map<String, Integer>> totalsOn(int cards) {
        List<Map<String, Integer>> out = new ArrayList<>();
        perCard().ifPresent(variants -> variants.forEach(v -> {
            Map<String, Integer> total = new TreeMap<>();
            v.forEach((profile, n) -> total.put(profile, n * cards));
            total.values().removeIf(n -> n == 0);
            out.add(total);
        }));
        return out;
    }
}
