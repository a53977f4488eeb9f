package io.gpumeter.ledger.repository;

import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.allocation.domain.AllocationSegment;
import io.gpumeter.ledger.allocation.domain.UnitKind;
import io.gpumeter.ledger.hours.domain.GpuHours;
import io.gpumeter.ledger.hours.domain.GroupDimension;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.occupancy.domain.Occupant;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * The allocated ledger: segments written by derivation, read by Q1 and the GPU-hours aggregation (and over a window
 * by {@link HoldingsRepository}).
 */
@ApplicationScoped
public class AllocationRepository {

    /** The columns {@link #occupant} reads. */
    static final String OCCUPANT_COLUMNS = """
            cluster, node, gpu_uuid, namespace, pod, pod_uid, owner_kind, owner_name, tenant, team, project,
            unit_kind, mig_profile, mig_instance, cores, memory_mib, source, fraction, since, until""";

    /** The GPU-hours aggregation, in allocated-hours.sql beside this class. */
    private static final SqlFile ALLOCATED_HOURS = SqlFile.load("allocated-hours.sql");

    private final Pool pool;

    public AllocationRepository(Pool pool) {
        this.pool = pool;
    }

    /** Replaces every segment of these pods with the freshly derived ones, given as {@link #rows}. */
    public Uni<Void> replace(SqlConnection conn, String cluster, Collection<String> podUids, BulkRows segments) {
        Uni<?> deleted = conn.preparedQuery("DELETE FROM ledger.allocation_segment WHERE cluster = $1 AND pod_uid = ANY($2)")
                .execute(Tuple.of(cluster, podUids.toArray(String[]::new)));
        if (segments.isEmpty()) {
            return deleted.replaceWithVoid();
        }
        return deleted.chain(() -> conn.preparedQuery(KeptPrepared.BULK_WRITE.sql("""
                        INSERT INTO ledger.allocation_segment (cluster, pod_uid, unit_index, seg_start, seg_end, since, until,
                            namespace, pod, node, gpu_uuid, gpu_model, unit_kind, mig_profile, cores, memory_mib, fraction,
                            source, owner_kind, owner_name, tenant, team, project, mig_instance)
                        SELECT $1, u.* FROM unnest($2::text[], $3::int[], $4::timestamptz[], $5::timestamptz[], $6::timestamptz[],
                            $7::timestamptz[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[],
                            $15::int[], $16::bigint[], $17::numeric[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[],
                            $23::text[], $24::text[])
                            AS u"""))
                .execute(segments.parameters()))
                .replaceWithVoid();
    }

    /** A cluster's derived segments as the parameters of {@link #replace}'s insert. */
    public static BulkRows rows(String cluster, List<AllocationSegment> segments) {
        return BulkRows.of(segments, all -> Tuple.from(List.of(cluster,
                strings(all, AllocationSegment::podUid),
                Columns.values(all, AllocationSegment::unitIndex, Integer[]::new),
                times(all, AllocationSegment::segStart), times(all, AllocationSegment::segEnd),
                times(all, AllocationSegment::since), times(all, AllocationSegment::until),
                strings(all, AllocationSegment::namespace), strings(all, AllocationSegment::pod),
                strings(all, AllocationSegment::node), strings(all, s -> s.unit().gpuUuid()),
                strings(all, s -> s.unit().gpuModel()), strings(all, s -> s.unit().kind().name()),
                strings(all, s -> s.unit().migProfile()),
                Columns.values(all, s -> s.unit().cores(), Integer[]::new),
                Columns.values(all, s -> s.unit().memoryMib(), Long[]::new),
                Columns.values(all, s -> s.unit().fraction(), BigDecimal[]::new),
                strings(all, s -> s.unit().source()),
                strings(all, AllocationSegment::ownerKind), strings(all, AllocationSegment::ownerName),
                strings(all, AllocationSegment::tenant), strings(all, AllocationSegment::team),
                strings(all, AllocationSegment::project),
                strings(all, s -> s.unit().migInstance()))));
    }

    /** The units of a card at an instant; {@code tenant}, when given, keeps that tenant's only. */
    public Uni<List<Occupant>> occupantsOfGpu(String uuid, Instant at, String tenant) {
        return pool.preparedQuery(KeptPrepared.POINT_LOOKUP.sql("SELECT " + OCCUPANT_COLUMNS + """
                         FROM ledger.allocation_segment
                        WHERE gpu_uuid = $1 AND seg_start <= $2 AND (seg_end IS NULL OR seg_end > $2)
                          AND ($3::text IS NULL OR tenant = $3)
                        ORDER BY since, namespace, pod, unit_index"""))
                .execute(Tuple.of(uuid, toOffset(at), tenant))
                .map(rows -> occupants(rows));
    }

    /** Every unit on a node at an instant, those whose card is not known yet included; cluster null means any. */
    public Uni<List<Occupant>> occupantsOfNode(String cluster, String node, Instant at, String tenant) {
        return pool.preparedQuery(KeptPrepared.POINT_LOOKUP.sql("SELECT " + OCCUPANT_COLUMNS + """
                         FROM ledger.allocation_segment
                        WHERE node = $1 AND ($3::text IS NULL OR cluster = $3)
                          AND seg_start <= $2 AND (seg_end IS NULL OR seg_end > $2)
                          AND ($4::text IS NULL OR tenant = $4)
                        ORDER BY gpu_uuid NULLS LAST, since, namespace, pod, unit_index"""))
                .execute(Tuple.of(node, toOffset(at), cluster, tenant))
                .map(rows -> occupants(rows));
    }

    /** The units one pod (by namespace and name) held at an instant; cluster null means any. */
    public Uni<List<Occupant>> occupantsOfPod(String cluster, String namespace, String pod, Instant at, String tenant) {
        return pool.preparedQuery(KeptPrepared.POINT_LOOKUP.sql("SELECT " + OCCUPANT_COLUMNS + """
                         FROM ledger.allocation_segment
                        WHERE namespace = $1 AND pod = $2 AND ($4::text IS NULL OR cluster = $4)
                          AND seg_start <= $3 AND (seg_end IS NULL OR seg_end > $3)
                          AND ($5::text IS NULL OR tenant = $5)
                        ORDER BY cluster, gpu_uuid NULLS LAST, unit_index"""))
                .execute(Tuple.of(namespace, pod, toOffset(at), cluster, tenant))
                .map(rows -> occupants(rows));
    }

    /**
     * Every unit held at an instant, optionally on one node, in one namespace or cluster; {@code tenant}, when given,
     * keeps that tenant's only. Units whose card is not known yet are included.
     */
    public Uni<List<Occupant>> occupantsAt(Instant at, String cluster, String node, String namespace, String tenant) {
        return pool.preparedQuery("SELECT " + OCCUPANT_COLUMNS + """
                         FROM ledger.allocation_segment
                        WHERE ($5::text IS NULL OR tenant = $5)
                          AND seg_start <= $1 AND (seg_end IS NULL OR seg_end > $1)
                          AND ($2::text IS NULL OR cluster = $2) AND ($3::text IS NULL OR node = $3)
                          AND ($4::text IS NULL OR namespace = $4)
                        ORDER BY cluster, node, gpu_uuid NULLS LAST, since, namespace, pod, unit_index""")
                .execute(Tuple.of(toOffset(at), cluster, node, namespace, tenant))
                .map(rows -> occupants(rows));
    }

    /** The pods of a cluster still holding an allocation that began before an instant, in these namespaces (all if empty). */
    public Uni<List<String>> openPods(String cluster, Instant before, List<String> namespaces) {
        return pool.preparedQuery("""
                        SELECT DISTINCT pod_uid FROM ledger.allocation_segment
                        WHERE cluster = $1 AND until IS NULL AND since < $2
                          AND (cardinality($3::text[]) = 0 OR namespace = ANY($3))""")
                .execute(Tuple.of(cluster, toOffset(before), namespaces.toArray(String[]::new)))
                .map(rows -> {
                    List<String> uids = new ArrayList<>();
                    rows.forEach(r -> uids.add(r.getString("pod_uid")));
                    return uids;
                });
    }

    public Uni<Boolean> everAllocated(String uuid) {
        return pool.preparedQuery(KeptPrepared.POINT_LOOKUP.sql("SELECT 1 FROM ledger.allocation_segment WHERE gpu_uuid = $1 LIMIT 1"))
                .execute(Tuple.of(uuid)).map(rows -> rows.size() > 0);
    }

    public Uni<Boolean> nodeKnown(String cluster, String node) {
        return pool.preparedQuery(KeptPrepared.POINT_LOOKUP.sql("""
                        SELECT 1 FROM ledger.node_fact WHERE name = $1 AND ($2::text IS NULL OR cluster = $2)
                        UNION ALL
                        SELECT 1 FROM ledger.allocation_segment WHERE node = $1 AND ($2::text IS NULL OR cluster = $2)
                        LIMIT 1"""))
                .execute(Tuple.of(node, cluster)).map(rows -> rows.size() > 0);
    }

    /**
     * Allocated card-equivalent seconds per group in each piece of [window start, window end), each segment clipped
     * exactly to the piece and a held unit counted up to the earlier of the window's end and {@code now}; summed in SQL
     * with exact numerics. The pieces (labelled) lie inside the window; {@code dimensions} hold no time bucket.
     */
    public Uni<List<PieceSeconds>> allocatedSeconds(TimeWindow window, List<GroupDimension> dimensions, Instant now,
                                                    String tenant, List<TimeBucket> pieces) {
        String select = dimensions.stream().map(d -> "coalesce(" + d.column("s") + ", 'unknown') AS d" + d.ordinal())
                .collect(Collectors.joining(", "));
        String group = dimensions.stream().map(d -> "d" + d.ordinal()).collect(Collectors.joining(", "));
        String sql = ALLOCATED_HOURS.fill(SqlFile.with(Map.of("dimensions", select, "groups", group,
                "tenant_filter", SqlFile.tenantFilter(tenant)), SqlFile.ALLOCATED_PIECES));
        Instant cap = now.isBefore(window.end()) ? now : window.end();
        return pool.preparedQuery(sql)
                .execute(SqlFile.withBuckets(Tuple.of(toOffset(window.start()), toOffset(window.end()), toOffset(cap), tenant), pieces))
                .map(rows -> {
                    List<PieceSeconds> out = new ArrayList<>();
                    for (Row row : rows) {
                        BigDecimal seconds = row.getBigDecimal("seconds");
                        out.add(new PieceSeconds(row.getString("piece"), SqlFile.groupValues(row, dimensions),
                                seconds == null ? BigDecimal.ZERO : seconds));
                    }
                    return out;
                });
    }

    /** One group's allocated seconds in one piece of a window, at the scale PostgreSQL summed them to. */
    public record PieceSeconds(String piece, List<String> values, BigDecimal seconds) {
    }

    private static List<Occupant> occupants(Iterable<Row> rows) {
        List<Occupant> out = new ArrayList<>();
        for (Row r : rows) {
            out.add(occupant(r));
        }
        return out;
    }

    static Occupant occupant(Row r) {
        return new Occupant(r.getString("cluster"), r.getString("node"), r.getString("gpu_uuid"),
                r.getString("namespace"), r.getString("pod"), r.getString("pod_uid"),
                new Occupant.Owner(r.getString("owner_kind"), r.getString("owner_name")),
                r.getString("tenant"), r.getString("team"), r.getString("project"),
                new Occupant.Unit(UnitKind.valueOf(r.getString("unit_kind")), r.getString("mig_profile"),
                        r.getString("mig_instance"),
                        r.getInteger("cores"), r.getLong("memory_mib"), r.getString("source")),
                r.getBigDecimal("fraction").stripTrailingZeros(), instant(r.getOffsetDateTime("since")),
                instant(r.getOffsetDateTime("until")));
    }

    static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
