package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.hami.domain.GrantFinding;
import io.gpumeter.ledger.hami.domain.HamiCheck;
import io.gpumeter.ledger.hami.domain.HamiOvercommit;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;
import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** The HAMi grants the derivation did not book, kept with the pods' books and replaced with them. */
@ApplicationScoped
public class GrantFindingRepository {

    private final Pool pool;

    public GrantFindingRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Replaces the findings of these pods with {@code findings}, inside the caller's transaction.
     *
     * @return how many findings were new, per failed check: a finding already kept is not counted again
     */
    public Uni<Map<HamiCheck, Integer>> replace(SqlConnection conn, String cluster, Collection<String> podUids,
                                                List<GrantFinding> findings) {
        Map<String, GrantFinding> unique = new LinkedHashMap<>();
        findings.forEach(f -> unique.putIfAbsent(f.podUid() + "\u0000" + f.gpuUuid() + "\u0000" + f.check(), f));
        List<GrantFinding> rows = List.copyOf(unique.values());
        Uni<?> stale = conn.preparedQuery("""
                        DELETE FROM ledger.hami_grant_finding g
                        WHERE g.cluster = $1 AND g.pod_uid = ANY($2)
                          AND (g.pod_uid, g.gpu_uuid, g.failed_check) NOT IN (
                              SELECT * FROM unnest($3::text[], $4::text[], $5::text[]))""")
                .execute(Tuple.of(cluster, podUids.toArray(String[]::new), strings(rows, GrantFinding::podUid),
                        strings(rows, GrantFinding::gpuUuid), strings(rows, f -> f.check().name())));
        if (rows.isEmpty()) {
            return stale.replaceWith(Map.of());
        }
        return stale.chain(() -> conn.preparedQuery("""
                        INSERT INTO ledger.hami_grant_finding (cluster, pod_uid, gpu_uuid, failed_check, namespace, pod, node,
                            memory_mib, cores, detail, since, until, tenant, team, project)
                        SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
                            $8::bigint[], $9::int[], $10::text[], $11::timestamptz[], $12::timestamptz[], $13::text[],
                            $14::text[], $15::text[]) AS u
                        ON CONFLICT (cluster, pod_uid, gpu_uuid, failed_check) DO UPDATE SET
                            namespace = excluded.namespace, pod = excluded.pod, node = excluded.node,
                            memory_mib = excluded.memory_mib, cores = excluded.cores, detail = excluded.detail,
                            since = excluded.since, until = excluded.until, tenant = excluded.tenant,
                            team = excluded.team, project = excluded.project
                        RETURNING failed_check, (xmax = 0) AS inserted""")
                .execute(Tuple.from(List.of(cluster,
                        strings(rows, GrantFinding::podUid), strings(rows, GrantFinding::gpuUuid),
                        strings(rows, f -> f.check().name()), strings(rows, GrantFinding::namespace),
                        strings(rows, GrantFinding::pod), strings(rows, GrantFinding::node),
                        rows.stream().map(GrantFinding::memoryMib).toArray(Long[]::new),
                        rows.stream().map(GrantFinding::cores).toArray(Integer[]::new),
                        strings(rows, GrantFinding::detail), times(rows, GrantFinding::since),
                        times(rows, GrantFinding::until), strings(rows, GrantFinding::tenant),
                        strings(rows, GrantFinding::team), strings(rows, GrantFinding::project))))
                .map(result -> {
                    Map<HamiCheck, Integer> fresh = new TreeMap<>();
                    for (Row r : result) {
                        if (Boolean.TRUE.equals(r.getBoolean("inserted"))) {
                            fresh.merge(HamiCheck.valueOf(r.getString("failed_check")), 1, Integer::sum);
                        }
                    }
                    return fresh;
                }));
    }

    /** The findings whose pods' allocations overlap the window, a tenant's only when {@code tenant} is given. */
    public Uni<List<GrantFinding>> overlapping(TimeWindow window, String tenant) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.hami_grant_finding
                        WHERE since < $2 AND (until IS NULL OR until > $1) AND ($3::text IS NULL OR tenant = $3)
                        ORDER BY since, cluster, namespace, pod, gpu_uuid, failed_check""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end()), tenant))
                .map(rows -> {
                    List<GrantFinding> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new GrantFinding(r.getString("cluster"), r.getString("pod_uid"),
                                r.getString("namespace"), r.getString("pod"), r.getString("node"),
                                r.getString("gpu_uuid"), r.getLong("memory_mib"), r.getInteger("cores"),
                                HamiCheck.valueOf(r.getString("failed_check")), r.getString("detail"),
                                r.getOffsetDateTime("since").toInstant(), instant(r.getOffsetDateTime("until")),
                                r.getString("tenant"), r.getString("team"), r.getString("project")));
                    }
                    return out;
                });
    }

    /**
     * The booked HAMi grants on named cards over the window, clipped to it (a grant still held counts up to the
     * earlier of the window's end and {@code now}), with the node each card is on.
     */
    public Uni<List<HeldOnNode>> heldVgpus(TimeWindow window, Instant now) {
        Instant end = now.isBefore(window.end()) ? now : window.end();
        return pool.preparedQuery("""
                        SELECT cluster, gpu_uuid, node, namespace, pod, coalesce(cores, 0) AS cores,
                               coalesce(memory_mib, 0) AS memory_mib,
                               greatest(seg_start, $1) AS s, least(coalesce(seg_end, $2), $2) AS e
                        FROM ledger.allocation_segment
                        WHERE unit_kind = 'VGPU' AND gpu_uuid IS NOT NULL AND seg_start < $2
                          AND (seg_end IS NULL OR seg_end > $1)""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(end)))
                .map(rows -> {
                    List<HeldOnNode> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new HeldOnNode(r.getString("node"), new HamiOvercommit.Held(r.getString("cluster"),
                                r.getString("gpu_uuid"), r.getString("namespace"), r.getString("pod"),
                                r.getInteger("cores"), r.getLong("memory_mib"), r.getOffsetDateTime("s").toInstant(),
                                r.getOffsetDateTime("e").toInstant())));
                    }
                    return out;
                });
    }

    /** A booked grant and the node of its card. */
    public record HeldOnNode(String node, HamiOvercommit.Held held) {
    }

    private static Instant instant(OffsetDateTime at) {
        return at == null ? null : at.toInstant();
    }
}
