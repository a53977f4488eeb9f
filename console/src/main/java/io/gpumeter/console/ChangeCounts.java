package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Changes page's picture and counts of the changes read: on a time axis one lane per pool and kind (per kind for
 * one node), and per lane how many changes, on how many nodes, how many the suite made itself.
 */
final class ChangeCounts {

    private ChangeCounts() {
    }

    /** How many changes of one kind a pool (or the node) had in the window. */
    @TemplateData
    public record Count(String pool, String kind, int changes, int nodes, int bySuite, String first, String last, String link) {
    }

    /** The changes on a time axis, each leading to its node's lane (to its impact for one node), a bucket to its days. */
    static ChangeTimeline.Drawn draw(List<BookChange> kept, NodePools pools, ChangeFilters filters, boolean oneNode, int offset) {
        ChangeTimeline.Links links = new ChangeTimeline.Links() {
            @Override
            public String change(BookChange c) {
                return oneNode || c.node() == null ? (c.id() == null ? null : filters.impact(c, offset)) : filters.nodeLane(c);
            }

            @Override
            public String bucket(BookChange sample, Instant start, Instant end) {
                return filters.narrowed(sample.kind(), oneNode ? null : pools.of(sample), start, end);
            }
        };
        Comparator<BookChange> byKind = Comparator.comparingInt(c -> BookChange.KINDS.indexOf(c.kind()));
        Days days = filters.days();
        if (oneNode) {
            return ChangeTimeline.of(kept, BookChange::kind, byKind, days.start(), days.end(), links);
        }
        Comparator<BookChange> byPool = Comparator.comparing((BookChange c) -> !NodePools.CLUSTER_WIDE.equals(pools.of(c)))
                .thenComparing(pools::of);
        return ChangeTimeline.of(kept, c -> pools.of(c) + " · " + c.kind(), byPool.thenComparing(byKind), days.start(), days.end(), links);
    }

    /** Per pool and kind (per kind alone for one node), cluster-wide first, then by pool and the book's order of kinds. */
    static List<Count> of(List<BookChange> kept, NodePools pools, ChangeFilters filters, boolean oneNode) {
        record Key(String pool, int kind) {
        }
        Map<Key, List<BookChange>> grouped = new LinkedHashMap<>();
        for (BookChange c : kept) {
            grouped.computeIfAbsent(new Key(oneNode ? "" : pools.of(c), BookChange.KINDS.indexOf(c.kind())), k -> new ArrayList<>()).add(c);
        }
        List<Count> out = new ArrayList<>();
        grouped.entrySet().stream()
                .sorted(Comparator.comparing((Map.Entry<Key, List<BookChange>> e) -> !NodePools.CLUSTER_WIDE.equals(e.getKey().pool()))
                        .thenComparing(e -> e.getKey().pool()).thenComparingInt(e -> e.getKey().kind()))
                .forEach(e -> {
                    List<BookChange> in = e.getValue();
                    String kind = in.get(0).kind();
                    out.add(new Count(e.getKey().pool(), kind, in.size(), BookChange.nodes(in), BookChange.bySuite(in), in.get(0).atText(),
                            in.get(in.size() - 1).atText(), filters.narrowed(kind, oneNode ? null : e.getKey().pool(),
                            filters.days().start(), filters.days().end())));
                });
        return out;
    }
}
