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

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
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

    /** One page of the table, newest first; {@code previous} and {@code next} null at either end. */
    private record Table(List<Row> rows, int shown, int total, String previous, String next) {
        static final Table NONE = new Table(List.of(), 0, 0, null, null);
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
        List<String> kinds = ChangeFilters.kinds(kindParams, page);
        String node = blankToNull(nodeText);
        String cluster = readable(clusterText, CLUSTER, page, "That cluster is not readable",
                "cluster must be a DNS label such as lab, got '" + clusterText + "'.", "Follow a link on this page instead.");
        String changeId = readable(changeText, CHANGE_ID, page, "That change is not readable",
                "change must be the id of a change in the book, got '" + changeText + "'.", "Follow a change's impact link on this page.");
        int offset = Offsets.of(offsetText, "offset", page);
        ChangeFilters filters = new ChangeFilters(days, kinds, node == null ? blankToNull(poolText) : null, node, cluster);
        List<ChangeCounts.Count> counts = List.of();
        List<String> pools = new ArrayList<>();
        ChangeImpact impact = null;
        GpuStackView stack = null;
        Table table = Table.NONE;
        ChangeTimeline.Drawn drawn = null;
        if (days.readable() && !page.refused()) {
            CompletableFuture<Answer> impactCall = changeId == null ? null
                    : upstream.getJson(Backend.LEDGER, "/api/v1/changes/" + Format.segment(changeId) + "/impact", viewer.token());
            ChangeReads.Window window = ChangeReads.window(upstream, json, viewer, page, filters.query());
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
                    page.message(Message.info(filters.nothing(), "Pick a longer window or other kinds above; the change book is "
                            + "derived from the node, GPU-stack and queue versions the collector sends."));
                } else {
                    drawn = ChangeCounts.draw(kept, named, filters, node != null, offset);
                    page.charts.add(Chart.of("changes-chart", node != null ? "The changes of node " + node
                            : "Changes per pool and kind", drawn.option(), json));
                    counts = ChangeCounts.of(kept, named, filters, node != null);
                    table = table(kept, named, filters, offset, changeId);
                }
                if (node != null) {
                    stack = stack(node, cluster != null ? cluster
                            : all.stream().map(BookChange::cluster).filter(Objects::nonNull).findFirst().orElse(null), days, viewer, page);
                }
            }
            if (impactCall != null) {
                impact = impact(impactCall.join(), page);
            }
        }
        return changes.data("page", page).data("filters", filters).data("allKinds", BookChange.KINDS).data("pools", pools)
                .data("rows", table.rows()).data("counts", counts).data("impact", impact).data("stack", stack).data("drawn", drawn)
                .data("first", offset + 1).data("last", offset + table.shown()).data("total", table.total())
                .data("previous", table.previous()).data("next", table.next()).data("fleetLink", filters.fleet());
    }

    /** A page of the changes, newest first, each leading to its node's lane and its impact. */
    private static Table table(List<BookChange> kept, NodePools pools, ChangeFilters filters, int offset, String changeId) {
        List<BookChange> newest = new ArrayList<>(kept);
        newest.sort(Comparator.comparing(BookChange::at).reversed());
        int start = Math.min(offset, newest.size());
        int end = Math.min(start + PAGE, newest.size());
        List<Row> rows = new ArrayList<>();
        for (BookChange c : newest.subList(start, end)) {
            rows.add(new Row(c, pools.of(c), c.node() == null || filters.node() != null ? null : filters.nodeLane(c),
                    c.id() == null ? null : filters.impact(c, offset), c.id() != null && c.id().equals(changeId)));
        }
        return new Table(rows, end - start, newest.size(), start > 0 ? filters.page(Math.max(0, start - PAGE)) : null,
                end < newest.size() ? filters.page(end) : null);
    }

    private ChangeImpact impact(Answer a, Page page) {
        page.call(a.call());
        if (!a.ok()) {
            page.message(a.refusal());
            return null;
        }
        ChangeImpact impact = a.as(json, ChangeImpact.class);
        page.charts.add(Chart.of("impact-chart", "Failures per 1,000 GPU-hours before and after the change", impact.chart(), json));
        return impact;
    }

    /** What the node's GPU stack offered at the window's end; null (and the page says why) when it is not known. */
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
        return GpuStackView.of(a.as(json, GpuStackAnswer.class));
    }

    /** The value when it matches {@code pattern}, else null with the page saying why. */
    private static String readable(String text, Pattern pattern, Page page, String title, String detail, String hint) {
        String value = blankToNull(text);
        if (value != null && !pattern.matcher(value).matches()) {
            page.message(Message.error(title, detail, hint));
        }
        return value;
    }

    private static String blankToNull(String text) {
        return text == null || text.isBlank() ? null : text.strip();
    }
}
