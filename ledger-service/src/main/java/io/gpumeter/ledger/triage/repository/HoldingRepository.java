package io.gpumeter.ledger.triage.repository;

import io.gpumeter.ledger.triage.domain.Holding;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;

/** What pods held of cards, as the allocation books hold it, and which cards the exporters saw a pod on. */
@ApplicationScoped
public class HoldingRepository {

    private final Pool pool;

    public HoldingRepository(Pool pool) {
        this.pool = pool;
    }

    /** Every unit these pods held. */
    public Uni<List<Holding>> holdingsOfPods(String cluster, Collection<String> podUids) {
        return pool.preparedQuery("SELECT * FROM ledger.allocation_segment WHERE cluster = $1 AND pod_uid = ANY($2)"
                        + " ORDER BY seg_start, unit_index")
                .execute(Tuple.of(cluster, podUids.toArray(String[]::new)))
                .map(HoldingRepository::holdings);
    }

    /** Every unit held at {@code at} on these nodes or these cards. */
    public Uni<List<Holding>> holdingsAt(String cluster, Collection<String> nodes, Collection<String> cards, Instant at) {
        return pool.preparedQuery("""
                        SELECT * FROM ledger.allocation_segment
                        WHERE cluster = $1 AND (node = ANY($2) OR gpu_uuid = ANY($3))
                          AND seg_start <= $4 AND (seg_end IS NULL OR seg_end > $4)
                        ORDER BY namespace, pod, unit_index""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), cards.toArray(String[]::new), offset(at)))
                .map(HoldingRepository::holdings);
    }

    /** The cards an exporter or nvidia-smi saw a pod on. */
    public Uni<Set<String>> sightings(String cluster, String namespace, String pod) {
        return pool.preparedQuery("SELECT DISTINCT gpu_uuid FROM ledger.gpu_binding WHERE cluster = $1 AND namespace = $2 AND pod = $3")
                .execute(Tuple.of(cluster, namespace, pod))
                .map(rows -> {
                    Set<String> out = new TreeSet<>();
                    rows.forEach(r -> out.add(r.getString("gpu_uuid")));
                    return out;
                });
    }

    /** A row of {@code allocation_segment}. */
    public static Holding holding(Row r) {
        return new Holding(r.getString("namespace"), r.getString("pod"), r.getString("pod_uid"), r.getString("node"),
                r.getString("gpu_uuid"), r.getString("unit_kind"), r.getString("mig_profile"), r.getInteger("cores"),
                r.getLong("memory_mib"), r.getBigDecimal("fraction"), instant(r.getOffsetDateTime("seg_start")),
                instant(r.getOffsetDateTime("seg_end")), r.getString("tenant"));
    }

    private static List<Holding> holdings(RowSet<Row> rows) {
        List<Holding> out = new ArrayList<>();
        rows.forEach(r -> out.add(holding(r)));
        return out;
    }
}
