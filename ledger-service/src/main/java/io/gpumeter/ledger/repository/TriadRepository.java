package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.triad.domain.TriadMinute;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** The triad fields (GR_ENGINE_ACTIVE, GPU_UTIL, SM_ACTIVE, DRAM_ACTIVE) of cards and MIG instances, per minute or per window. */
@ApplicationScoped
public class TriadRepository {

    /** Sample sums and counts of each triad field, as columns. */
    private static final String PIVOT = """
            sum(sum) FILTER (WHERE field = 'GR_ENGINE_ACTIVE') AS gr_s,
            sum(samples) FILTER (WHERE field = 'GR_ENGINE_ACTIVE')::int AS gr_n,
            sum(sum) FILTER (WHERE field = 'GPU_UTIL') AS gu_s, sum(samples) FILTER (WHERE field = 'GPU_UTIL')::int AS gu_n,
            sum(sum) FILTER (WHERE field = 'SM_ACTIVE') AS sm_s, sum(samples) FILTER (WHERE field = 'SM_ACTIVE')::int AS sm_n,
            sum(sum) FILTER (WHERE field = 'DRAM_ACTIVE') AS dr_s, sum(samples) FILTER (WHERE field = 'DRAM_ACTIVE')::int AS dr_n
            """;
    private static final String FIELDS = "field IN ('GR_ENGINE_ACTIVE', 'GPU_UTIL', 'SM_ACTIVE', 'DRAM_ACTIVE')";

    /** One allocation segment on a card, with the MIG instance an exporter saw its pod on ("" when none). */
    public record PodSegment(String cluster, String podUid, String namespace, String pod, String unitKind,
                             String migProfile, BigDecimal fraction, Instant start, Instant end, String instance) {
    }

    /** One card's triad sums over a whole window. */
    public record CardTriad(String cluster, String gpuUuid, TriadMinute sums) {
    }

    private final Pool pool;

    public TriadRepository(Pool pool) {
        this.pool = pool;
    }

    /** The card's series per minute of the window, keyed "" for the device and by GPU instance id for MIG instances. */
    public Uni<Map<String, List<TriadMinute>>> minutes(String gpuUuid, TimeWindow window) {
        return pool.preparedQuery("SELECT CASE WHEN scope = 'MIG_INSTANCE' THEN scope_key ELSE '' END AS skey, minute, "
                        + PIVOT + """
                        FROM ledger.usage_minute
                        WHERE gpu_uuid = $1 AND scope IN ('DEVICE', 'MIG_INSTANCE') AND\s""" + FIELDS + """
                          AND minute >= date_trunc('minute', $2::timestamptz) AND minute < $3
                        GROUP BY 1, minute ORDER BY 1, minute""")
                .execute(Tuple.of(gpuUuid, toOffset(window.start()), toOffset(window.end())))
                .map(rows -> {
                    Map<String, List<TriadMinute>> out = new LinkedHashMap<>();
                    for (Row r : rows) {
                        out.computeIfAbsent(r.getString("skey"), k -> new ArrayList<>())
                                .add(sums(r, r.getOffsetDateTime("minute").toInstant()));
                    }
                    return out;
                });
    }

    /** The allocation segments on a card that overlap the window, with their own bounds (end null while held). */
    public Uni<List<PodSegment>> segments(String gpuUuid, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT s.cluster, s.pod_uid, s.namespace, s.pod, s.unit_kind, s.mig_profile, s.fraction,
                               s.seg_start, s.seg_end,
                               coalesce((SELECT b.scope_key FROM ledger.gpu_binding b
                                         WHERE b.cluster = s.cluster AND b.namespace = s.namespace AND b.pod = s.pod
                                           AND b.gpu_uuid = s.gpu_uuid AND b.scope_key <> ''
                                         ORDER BY b.last_seen DESC LIMIT 1), '') AS instance
                        FROM ledger.allocation_segment s
                        WHERE s.gpu_uuid = $1 AND s.seg_start < $3 AND (s.seg_end IS NULL OR s.seg_end > $2)
                        ORDER BY s.since, s.namespace, s.pod, s.unit_index, s.seg_start""")
                .execute(Tuple.of(gpuUuid, toOffset(window.start()), toOffset(window.end())))
                .map(rows -> {
                    List<PodSegment> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new PodSegment(r.getString("cluster"), r.getString("pod_uid"), r.getString("namespace"),
                                r.getString("pod"), r.getString("unit_kind"), r.getString("mig_profile"),
                                r.getBigDecimal("fraction"), r.getOffsetDateTime("seg_start").toInstant(),
                                instant(r.getOffsetDateTime("seg_end")), r.getString("instance")));
                    }
                    return out;
                });
    }

    /** Whether the inventory or the allocated ledger knows the card. */
    public Uni<Boolean> known(String gpuUuid) {
        return pool.preparedQuery("""
                        SELECT EXISTS (SELECT 1 FROM ledger.gpu_device WHERE uuid = $1)
                            OR EXISTS (SELECT 1 FROM ledger.allocation_segment WHERE gpu_uuid = $1) AS known""")
                .execute(Tuple.of(gpuUuid)).map(rows -> rows.iterator().next().getBoolean("known"));
    }

    /** Every card's device-level triad sums over the window; cluster null means every cluster. */
    public Uni<List<CardTriad>> fleet(TimeWindow window, String cluster) {
        return pool.preparedQuery("SELECT cluster, gpu_uuid, " + PIVOT + """
                        FROM ledger.usage_minute
                        WHERE scope = 'DEVICE' AND\s""" + FIELDS + """
                          AND minute >= date_trunc('minute', $1::timestamptz) AND minute < $2
                          AND ($3::text IS NULL OR cluster = $3)
                        GROUP BY cluster, gpu_uuid ORDER BY cluster, gpu_uuid""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end()), cluster))
                .map(rows -> {
                    List<CardTriad> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new CardTriad(r.getString("cluster"), r.getString("gpu_uuid"), sums(r, window.start())));
                    }
                    return out;
                });
    }

    private static TriadMinute sums(Row r, Instant minute) {
        return new TriadMinute(minute, TriadMinute.Sum.of(r.getDouble("gr_s"), r.getInteger("gr_n")),
                TriadMinute.Sum.of(r.getDouble("gu_s"), r.getInteger("gu_n")),
                TriadMinute.Sum.of(r.getDouble("sm_s"), r.getInteger("sm_n")),
                TriadMinute.Sum.of(r.getDouble("dr_s"), r.getInteger("dr_n")));
    }

    private static Instant instant(OffsetDateTime t) {
        return t == null ? null : t.toInstant();
    }
}
