package io.gpumeter.console;

import io.quarkus.qute.TemplateData;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * What the Changes page was asked — the window, the kinds, and a pool, or a node of a cluster — and the address of the
 * same page with one thing changed: a page of the table, a node's lane, a change's impact, a bucket narrowed to.
 */
@TemplateData
public record ChangeFilters(Days days, List<String> kinds, String pool, String node, String cluster) {

    /** The kinds asked, comma-separated or repeated, each one the book holds; empty (and the page says why) otherwise. */
    static List<String> kinds(List<String> params, Page page) {
        List<String> out = new ArrayList<>();
        for (String value : params == null ? List.<String>of() : params) {
            for (String part : value.split(",")) {
                String k = part.strip().toUpperCase(Locale.ROOT);
                if (k.isEmpty()) {
                    continue;
                }
                if (!BookChange.KINDS.contains(k)) {
                    page.message(Message.error("That kind of change is not offered", "kind must be one of " + String.join(", ", BookChange.KINDS)
                            + ", got '" + part.strip() + "'.", "Pick kinds in the form above."));
                    return List.of();
                }
                if (!out.contains(k)) {
                    out.add(k);
                }
            }
        }
        out.sort(Comparator.comparingInt(BookChange.KINDS::indexOf));
        return out;
    }

    /** The ledger's list read for these filters: the window, the cluster, the node and the kinds. */
    String query() {
        StringBuilder query = new StringBuilder(days.query());
        if (cluster != null) {
            query.append("&cluster=").append(cluster);
        }
        if (node != null) {
            query.append("&node=").append(Format.query(node));
        }
        if (!kinds.isEmpty()) {
            query.append("&kind=").append(String.join(",", kinds));
        }
        return query.toString();
    }

    private String link(String from, String to, List<String> kinds, String pool, String node, String cluster, Integer offset, String change) {
        StringBuilder b = new StringBuilder("/changes?from=").append(from).append("&to=").append(to);
        kinds.forEach(k -> b.append("&kind=").append(k));
        for (String[] p : new String[][]{{"pool", pool}, {"node", node}, {"cluster", cluster}, {"change", change}}) {
            if (p[1] != null) {
                b.append('&').append(p[0]).append('=').append(Format.query(p[1]));
            }
        }
        if (offset != null && offset > 0) {
            b.append("&offset=").append(offset);
        }
        return b.toString();
    }

    /** The table's page from {@code offset}. */
    String page(int offset) {
        return link(days.from().toString(), days.to().toString(), kinds, pool, node, cluster, offset, null);
    }

    /** The lane of a change's node. */
    String nodeLane(BookChange c) {
        return link(days.from().toString(), days.to().toString(), kinds, null, c.node(), c.cluster(), null, null);
    }

    /** The same page with a change's impact, the table kept at its page. */
    String impact(BookChange c, int offset) {
        return link(days.from().toString(), days.to().toString(), kinds, pool, node, cluster, offset, c.id());
    }

    /** The page narrowed to one kind (and pool) over the whole days from {@code start} to {@code end}. */
    String narrowed(String kind, String pool, Instant start, Instant end) {
        LocalDate from = start.atOffset(ZoneOffset.UTC).toLocalDate();
        LocalDate to = end.minusSeconds(1).atOffset(ZoneOffset.UTC).toLocalDate().plusDays(1);
        return link(from.toString(), to.toString(), List.of(kind), node == null ? pool : null, node, cluster, null, null);
    }

    /** Back to the fleet's lanes, the window and kinds kept. */
    public String fleet() {
        return link(days.from().toString(), days.to().toString(), kinds, null, null, null, null, null);
    }

    public boolean kind(String k) {
        return kinds.contains(k);
    }

    /** What was asked, as the page says nothing matched it. */
    String nothing() {
        return "No " + (kinds.isEmpty() ? "change" : String.join(" or ", kinds) + " change") + (node != null ? " on " + node : "")
                + (pool != null ? " in pool " + pool : "") + " between " + days.from() + " and " + days.to() + ".";
    }
}
