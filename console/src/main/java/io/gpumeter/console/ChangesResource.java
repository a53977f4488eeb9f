package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.qute.Location;
import io.quarkus.qute.Template;
import io.quarkus.qute.TemplateData;
import io.quarkus.qute.TemplateInstance;
import io.smallrye.common.annotation.Blocking;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

/**
 * "Has something changed recently?": the ledger's change book over a window of days, on a time axis with one lane per
 * node pool and kind (counted per hour when there are many), the counts per pool and kind, and the changes a page at a
 * time, each with its before → after and source (the suite's own actions marked); one node's lane with {@code node=},
 * with what its GPU stack offered at the window's end; and, with {@code change=}, what a change did to the failures of
 * the nodes it touched. A fleet read: tenant tokens are refused by the ledger.
 */
@Path("/changes")
@Produces(MediaType.TEXT_HTML)
public class ChangesResource {

    static final int PAGE = 50;
    private static final Pattern CLUSTER = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");
    private static final Pattern CHANGE_ID = Pattern.compile("[A-Za-z0-9_.:-]{1,200}");

    private final Session session;
    private final Upstream upstream;
    private final ObjectMapper json;
    private final Template changes;

    public ChangesResource(Session session, Upstream upstream, ObjectMapper json, @Location("changes.html") Template changes) {
        this.session = session;
        this.upstream = upstream;
        this.json = json;
        this.changes = changes;
    }

    /** A change in the table, with its pool and where it leads. */
    @TemplateData
    public record Row(BookChange change, String pool, String nodeLink, String impactLink, boolean chosen) {
    }

    /** How many changes of one kind a pool (or the node) had in the window. */
    @TemplateData
    public record Count(String pool, String kind, int changes, int nodes, int bySuite, String first, String last, String link) {
    }

    /** What the page was asked: the window and the filters, and the address of the same page with one thing changed. */
    @TemplateData
    public record Filters(Days days, List<String> kinds, String pool, String node, String cluster) {

        String link(String from, String to, List<String> kinds, String pool, String node, String cluster, Integer offset, String change) {
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

        String same() {
            return link(days.from().toString(), days.to().toString(), kinds, pool, node, cluster, null, null);
        }

        String page(int offset) {
            return link(days.from().toString(), days.to().toString(), kinds, pool, node, cluster, offset, null);
        }

        String nodeLane(BookChange c) {
            return link(days.from().toString(), days.to().toString(), kinds, null, c.node(), c.cluster(), null, null);
        }

        String impact(BookChange c, int offset) {
            return link(days.from().toString(), days.to().toString(), kinds, pool, node, cluster, offset, c.id());
        }

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
    }

    @GET
    @Blocking
    public TemplateInstance changes(@CookieParam(Session.COOKIE) String cookie, @QueryParam("from") String from,
                                    @QueryParam("to") String to, @QueryParam("kind") List<String> kindParams,
                                    @QueryParam("pool") String poolText, @QueryParam("node") String nodeText,
                                    @QueryParam("cluster") String clusterText, @QueryParam("offset") String offsetText,
                                    @QueryParam("change") String changeText, @Context UriInfo uri) {
        Viewer viewer = session.require(cookie, uri);
        Page page = new Page("Changes", "changes", viewer);
        Days days = Days.parse(from, to, page);
        List<String> kinds = kinds(kindParams, page);
        String pool = blankToNull(poolText);
        String node = blankToNull(nodeText);
        String cluster = blankToNull(clusterText);
        if (cluster != null && !CLUSTER.matcher(cluster).matches()) {
            page.message(Message.error("That cluster is not readable", "cluster must be a DNS label such as lab, got '" + clusterText + "'.",
                    "Follow a link on this page instead."));
        }
        String changeId = blankToNull(changeText);
        if (changeId != null && !CHANGE_ID.matcher(changeId).matches()) {
            page.message(Message.error("That change is not readable", "change must be the id of a change in the book, got '" + changeText + "'.",
                    "Follow a change's impact link on this page."));
        }
        int offset = Offsets.of(offsetText, "offset", page);
        Filters filters = new Filters(days, kinds, node == null ? pool : null, node, cluster);
        List<Row> rows = new ArrayList<>();
        List<Count> counts = new ArrayList<>();
        List<String> pools = new ArrayList<>();
        ChangeImpact impact = null;
        GpuStackView stack = null;
        long shown = 0;
        long total = 0;
        String previous = null;
        String next = null;
        ChangeTimeline.Drawn drawn = null;
        if (days.readable() && !page.refused()) {
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
            CompletableFuture<Answer> impactCall = changeId == null ? null
                    : upstream.getJson(Backend.LEDGER, "/api/v1/changes/" + Format.segment(changeId) + "/impact", viewer.token());
            ChangeReads.Window window = ChangeReads.window(upstream, viewer, page, query.toString());
            if (window != null) {
                List<BookChange> all = window.changes();
                NodePools named = NodePools.of(all);
                pools.addAll(new TreeSet<>(all.stream().map(named::of).toList()));
                List<BookChange> kept = filters.pool() == null ? all : all.stream().filter(c -> filters.pool().equals(named.of(c))).toList();
                if (window.cut()) {
                    page.message(Message.info("The window holds " + window.total() + " changes; the picture, the counts and the table "
                                    + "cover the first " + all.size() + ".",
                            "Pick fewer days or kinds above to see them all."));
                }
                if (kept.isEmpty()) {
                    page.message(Message.info(empty(days, kinds, filters), "Pick a longer window or other kinds above; the change book is "
                            + "derived from the node, GPU-stack and queue versions the collector sends."));
                } else {
                    drawn = draw(kept, named, filters, days, node != null, offset);
                    page.charts.add(Chart.of("changes-chart", node != null ? "The changes of node " + node
                            : "Changes per pool and kind", drawn.option(), json));
                    counts.addAll(counts(kept, named, filters, node != null));
                    List<BookChange> newest = new ArrayList<>(kept);
                    newest.sort(Comparator.comparing(BookChange::at).reversed());
                    int start = Math.min(offset, newest.size());
                    int end = Math.min(start + PAGE, newest.size());
                    for (BookChange c : newest.subList(start, end)) {
                        rows.add(new Row(c, named.of(c), c.node() == null || node != null ? null : filters.nodeLane(c),
                                c.id() == null ? null : filters.impact(c, offset), c.id() != null && c.id().equals(changeId)));
                    }
                    shown = end - start;
                    total = newest.size();
                    previous = start > 0 ? filters.page(Math.max(0, start - PAGE)) : null;
                    next = end < newest.size() ? filters.page(end) : null;
                }
                if (node != null) {
                    String stackCluster = cluster != null ? cluster
                            : all.stream().map(BookChange::cluster).filter(Objects::nonNull).findFirst().orElse(null);
                    stack = stack(node, stackCluster, days, viewer, page);
                }
            }
            if (impactCall != null) {
                Answer a = impactCall.join();
                page.call(a.call());
                if (!a.ok()) {
                    page.message(a.refusal());
                } else {
                    impact = ChangeImpact.of(a.json());
                    page.charts.add(Chart.of("impact-chart", "Failures per 1,000 GPU-hours before and after the change", impact.chart(), json));
                }
            }
        }
        return changes.data("page", page).data("filters", filters).data("allKinds", BookChange.KINDS).data("pools", pools)
                .data("rows", rows).data("counts", counts).data("impact", impact).data("stack", stack).data("drawn", drawn)
                .data("first", offset + 1).data("last", offset + shown).data("total", total)
                .data("previous", previous).data("next", next).data("fleetLink", filters.fleet());
    }

    private ChangeTimeline.Drawn draw(List<BookChange> kept, NodePools pools, Filters filters, Days days, boolean oneNode, int offset) {
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
        if (oneNode) {
            return ChangeTimeline.of(kept, BookChange::kind, byKind, days.start(), days.end(), links);
        }
        Comparator<BookChange> byPool = Comparator.comparing((BookChange c) -> !NodePools.CLUSTER_WIDE.equals(pools.of(c)))
                .thenComparing(pools::of);
        return ChangeTimeline.of(kept, c -> pools.of(c) + " · " + c.kind(), byPool.thenComparing(byKind), days.start(), days.end(), links);
    }

    /** Per pool and kind (per kind alone for one node): how many changes, on how many nodes, how many the suite's own. */
    private static List<Count> counts(List<BookChange> kept, NodePools pools, Filters filters, boolean oneNode) {
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
                    Set<String> nodes = new HashSet<>();
                    int suite = 0;
                    for (BookChange c : in) {
                        if (c.node() != null) {
                            nodes.add(c.cluster() + "/" + c.node());
                        }
                        suite += c.bySuite() ? 1 : 0;
                    }
                    String kind = in.get(0).kind();
                    out.add(new Count(e.getKey().pool(), kind, in.size(), nodes.size(), suite, in.get(0).atText(),
                            in.get(in.size() - 1).atText(), filters.narrowed(kind, oneNode ? null : e.getKey().pool(),
                            filters.days().start(), filters.days().end())));
                });
        return out;
    }

    private GpuStackView stack(String node, String cluster, Days days, Viewer viewer, Page page) {
        if (cluster == null) {
            page.message(Message.info("What " + node + "'s GPU stack offered is not shown: its cluster is not known.",
                    "Open the node from a change in the fleet's table, which names its cluster."));
            return null;
        }
        Answer a = upstream.getJson(Backend.LEDGER, "/api/v1/nodes/" + Format.segment(node) + "/gpu-stack?cluster=" + cluster
                + "&at=" + Format.query(Format.rfc3339(days.end())), viewer.token()).join();
        page.call(a.call());
        if (a.status() == 404) {
            page.message(Message.info("The ledger knows no version of " + node + " at " + Format.rfc3339(days.end()) + ".",
                    "Its GPU stack is shown once the collector has sent its node status."));
            return null;
        }
        if (!a.ok()) {
            page.message(a.refusal());
            return null;
        }
        return GpuStackView.of(a.json());
    }

    private static String empty(Days days, List<String> kinds, Filters filters) {
        return "No " + (kinds.isEmpty() ? "change" : String.join(" or ", kinds) + " change") + (filters.node() != null ? " on " + filters.node() : "")
                + (filters.pool() != null ? " in pool " + filters.pool() : "") + " between " + days.from() + " and " + days.to() + ".";
    }

    /** The kinds asked, comma-separated or repeated, each one the book holds. */
    private static List<String> kinds(List<String> params, Page page) {
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

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
