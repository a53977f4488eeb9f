package io.gpumeter.ledger.governance.repository;

import io.gpumeter.common.problem.Page;
import io.gpumeter.common.problem.Window;
import io.gpumeter.common.sql.PagedQuery;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.ChangeKind;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;
import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

/** The change book: rows replaced per scope by derivation, read by window, node and kind. */
@ApplicationScoped
public class ChangeRepository {

    private static final String COLUMNS = "id, cluster, scope, node, at, kind, subject, before, after, source, count, pool";

    private final Pool pool;

    public ChangeRepository(Pool pool) {
        this.pool = pool;
    }

    /** Replaces every change of these scopes of the cluster with {@code changes}. */
    public Uni<Void> replace(SqlConnection conn, String cluster, Collection<String> scopes, List<BookedChange> changes) {
        if (scopes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        Uni<?> cleared = conn.preparedQuery("DELETE FROM ledger.gov_change WHERE cluster = $1 AND scope = ANY($2)")
                .execute(Tuple.of(cluster, scopes.toArray(String[]::new)));
        if (changes.isEmpty()) {
            return cleared.replaceWithVoid();
        }
        return cleared.chain(() -> conn.preparedQuery("""
                        INSERT INTO ledger.gov_change (cluster, id, scope, node, at, kind, subject, before, after, source, count, pool)
                        SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::text[],
                            $8::text[], $9::text[], $10::text[], $11::int[], $12::text[]) AS u
                        ON CONFLICT DO NOTHING""")
                .execute(Tuple.from(List.of(cluster, strings(changes, BookedChange::id), strings(changes, BookedChange::scope),
                        strings(changes, BookedChange::node), times(changes, BookedChange::at),
                        strings(changes, c -> c.kind().name()), strings(changes, BookedChange::subject),
                        strings(changes, BookedChange::before), strings(changes, BookedChange::after),
                        strings(changes, BookedChange::source),
                        changes.stream().map(BookedChange::count).toArray(Integer[]::new),
                        strings(changes, BookedChange::pool)))))
                .replaceWithVoid();
    }

    /**
     * The changes of [from, to), of one cluster, node and kinds where given, by instant. With a cluster and a node,
     * the query is one range of the index (cluster, node, at).
     */
    public Uni<Page<BookedChange>> listed(Instant from, Instant to, String cluster, String node, Set<ChangeKind> kinds,
                                          Window window) {
        String where = "FROM ledger.gov_change WHERE at >= $1 AND at < $2 AND ($3::text IS NULL OR cluster = $3)"
                + " AND ($4::text IS NULL OR node = $4) AND ($5::text[] IS NULL OR kind = ANY($5))";
        return PagedQuery.run(pool, COLUMNS, where, "at, cluster, node NULLS FIRST, kind, subject NULLS FIRST, id",
                Arrays.asList(offset(from), offset(to), cluster, node, kinds.isEmpty() ? null : names(kinds)), window,
                ChangeRepository::change);
    }

    /**
     * One scope of a bulk read: a cluster, a node (null for all of them, or with {@code allNodes} false for none: the
     * cluster-wide changes alone), a window and kinds (empty for all); with a {@code pool}, only the changes of nodes
     * in that pool at their version (so none cluster-wide).
     */
    public record Scope(String cluster, String node, Instant from, Instant to, Set<ChangeKind> kinds,
                        boolean clusterWide, int limit, boolean newestFirst, boolean allNodes, String pool) {

        /** A scope of one node (with the cluster-wide changes where {@code clusterWide}), or of the whole cluster. */
        public Scope(String cluster, String node, Instant from, Instant to, Set<ChangeKind> kinds, boolean clusterWide,
                     int limit, boolean newestFirst) {
            this(cluster, node, from, to, kinds, clusterWide, limit, newestFirst, true, null);
        }

        public Scope(String cluster, String node, Instant from, Instant to, Set<ChangeKind> kinds, boolean clusterWide,
                     int limit, boolean newestFirst, boolean allNodes) {
            this(cluster, node, from, to, kinds, clusterWide, limit, newestFirst, allNodes, null);
        }
    }

    /** One bulk read's answer for one scope: its changes as asked and how many the scope holds. */
    public record ScopeChanges(List<BookedChange> changes, long total) {
    }

    /**
     * The changes of many scopes in one statement: each scope is a lateral read of its own ranges of the index
     * (cluster, node, at) — the node's, the cluster-wide ones', or the whole cluster's — each branch an equality the
     * index serves (an OR of them would scan the cluster per scope), cut to its limit in its order, with its whole
     * count. Kinds and pool are filters on the rows those ranges hold, as cheap as reading them.
     */
    public Uni<List<ScopeChanges>> bulk(List<Scope> scopes) {
        List<ScopeChanges> out = new ArrayList<>();
        List<List<BookedChange>> found = new ArrayList<>();
        long[] totals = new long[scopes.size()];
        scopes.forEach(s -> found.add(new ArrayList<>()));
        if (scopes.isEmpty()) {
            return Uni.createFrom().item(out);
        }
        Integer[] index = new Integer[scopes.size()];
        for (int i = 0; i < index.length; i++) {
            index[i] = i;
        }
        return pool.preparedQuery("SELECT s.i, c.total, " + prefixed() + """
                         FROM unnest($1::int[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::text[],
                                     $7::bool[], $8::int[], $9::bool[], $10::bool[], $11::text[])
                                     AS s(i, cl, nd, f, t, kinds, cw, lim, newest, an, pl)
                        CROSS JOIN LATERAL (
                            SELECT g.*, count(*) OVER () AS total FROM (
                                SELECT * FROM ledger.gov_change n
                                WHERE s.nd IS NOT NULL AND n.cluster = s.cl AND n.node = s.nd AND n.at >= s.f AND n.at < s.t
                                UNION ALL
                                SELECT * FROM ledger.gov_change w
                                WHERE (s.nd IS NULL OR s.cw) AND w.cluster = s.cl AND w.node IS NULL AND w.at >= s.f AND w.at < s.t
                                UNION ALL
                                SELECT * FROM ledger.gov_change a
                                WHERE s.nd IS NULL AND s.an AND a.cluster = s.cl AND a.node IS NOT NULL AND a.at >= s.f AND a.at < s.t) g
                            WHERE (s.kinds IS NULL OR g.kind = ANY(string_to_array(s.kinds, ',')))
                              AND (s.pl IS NULL OR g.pool = s.pl)
                            ORDER BY CASE WHEN s.newest THEN -extract(epoch FROM g.at) ELSE extract(epoch FROM g.at) END,
                                     g.node NULLS FIRST, g.kind, g.subject NULLS FIRST, g.id
                            LIMIT s.lim) c
                        ORDER BY s.i""")
                .execute(Tuple.from(List.of(index, strings(scopes, Scope::cluster), strings(scopes, Scope::node),
                        times(scopes, Scope::from), times(scopes, Scope::to),
                        strings(scopes, s -> s.kinds().isEmpty() ? null : String.join(",", names(s.kinds()))),
                        scopes.stream().map(Scope::clusterWide).toArray(Boolean[]::new),
                        scopes.stream().map(Scope::limit).toArray(Integer[]::new),
                        scopes.stream().map(Scope::newestFirst).toArray(Boolean[]::new),
                        scopes.stream().map(Scope::allNodes).toArray(Boolean[]::new), strings(scopes, Scope::pool))))
                .map(rows -> {
                    for (Row r : rows) {
                        int i = r.getInteger("i");
                        found.get(i).add(change(r));
                        totals[i] = r.getLong("total");
                    }
                    for (int i = 0; i < scopes.size(); i++) {
                        out.add(new ScopeChanges(found.get(i), totals[i]));
                    }
                    return out;
                });
    }

    /** The change of this id, or null. */
    public Uni<BookedChange> byId(String id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM ledger.gov_change WHERE id = $1 ORDER BY cluster LIMIT 1")
                .execute(Tuple.of(id))
                .map(rows -> rows.size() == 0 ? null : change(rows.iterator().next()));
    }

    /** The nodes a cluster knows by any of their views, for a cluster-wide change's impact. */
    public Uni<Set<String>> nodesOf(String cluster) {
        return pool.preparedQuery("""
                        SELECT DISTINCT name FROM ledger.node_fact WHERE cluster = $1
                        UNION SELECT DISTINCT name FROM ledger.gov_node_status_fact WHERE cluster = $1""")
                .execute(Tuple.of(cluster))
                .map(rows -> {
                    Set<String> out = new TreeSet<>();
                    rows.forEach(r -> out.add(r.getString("name")));
                    return out;
                });
    }

    private static String prefixed() {
        return Arrays.stream(COLUMNS.split(", ")).map(c -> "c." + c).reduce((a, b) -> a + ", " + b).orElseThrow();
    }

    private static String[] names(Set<ChangeKind> kinds) {
        return kinds.stream().map(Enum::name).sorted().toArray(String[]::new);
    }

    private static BookedChange change(Row r) {
        return new BookedChange(r.getString("id"), r.getString("cluster"), r.getString("scope"), r.getString("node"),
                instant(r.getOffsetDateTime("at")), ChangeKind.valueOf(r.getString("kind")), r.getString("subject"),
                r.getString("before"), r.getString("after"), r.getString("source"), r.getInteger("count"),
                r.getString("pool"));
    }
}
