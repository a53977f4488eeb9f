package io.gpumeter.ledger.demand.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.repository.Columns.offset;

/** What the demand read takes from the allocated ledger: hours per pod, unit and day, and what each pod was. */
@ApplicationScoped
public class DemandRepository {

    /**
     * Allocated card-equivalent hours per pod, card model, unit kind, MIG profile and local day, each segment clipped
     * to the day as {@code GET /api/v1/gpu-hours} clips it to a bucket ($1, $2 the window, $3 the earlier of its end
     * and now, $4 the cluster or null, $5 to $7 the days' labels, starts and ends), so the pods' hours of a model add
     * up to that read's figure for it. A DRA unit is told by its source.
     */
    private static final String HELD = """
            SELECT s.cluster, s.pod_uid, s.gpu_model, s.unit_kind, s.mig_profile, s.source LIKE 'dra-claim%' AS dra, k.bucket,
                   sum(s.fraction * ledger.clipped_seconds(s.seg_start, coalesce(s.seg_end, $3), k.b_start, k.b_end)) / 3600 AS hours
            FROM ledger.allocation_segment s
            JOIN unnest($5::text[], $6::timestamptz[], $7::timestamptz[]) AS k(bucket, b_start, b_end)
              ON k.b_start < coalesce(s.seg_end, $3) AND k.b_end > s.seg_start
            WHERE s.seg_start < $2 AND s.seg_start < $3
              AND coalesce(s.seg_end, 'infinity'::timestamptz) > $1 AND coalesce(s.seg_end, $3) > $1
              AND ($4::text IS NULL OR s.cluster = $4)
            GROUP BY s.cluster, s.pod_uid, s.gpu_model, s.unit_kind, s.mig_profile, dra, k.bucket""";

    /** One pod's hours on one day in units of one kind and model. */
    public record Held(String cluster, String podUid, String model, String unitKind, String migProfile, boolean dra,
                       String day, BigDecimal hours) {
    }

    private final Pool pool;
    private final ObjectMapper json;

    public DemandRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    public Uni<List<Held>> held(TimeWindow window, Instant cap, String cluster, List<TimeBucket> days) {
        Tuple params = Tuple.of(offset(window.start()), offset(window.end()), offset(cap), cluster)
                .addArrayOfString(days.stream().map(TimeBucket::label).toArray(String[]::new))
                .addArrayOfOffsetDateTime(days.stream().map(d -> offset(d.start())).toArray(OffsetDateTime[]::new))
                .addArrayOfOffsetDateTime(days.stream().map(d -> offset(d.end())).toArray(OffsetDateTime[]::new));
        return pool.preparedQuery(HELD).execute(params).map(rows -> {
            List<Held> out = new ArrayList<>();
            for (Row r : rows) {
                BigDecimal hours = r.getBigDecimal("hours");
                if (hours != null && hours.signum() > 0) {
                    out.add(new Held(r.getString("cluster"), r.getString("pod_uid"), r.getString("gpu_model"),
                            r.getString("unit_kind"), r.getString("mig_profile"), r.getBoolean("dra"), r.getString("bucket"), hours));
                }
            }
            return out;
        });
    }

    /** The newest stored version of each pod ({@code cluster|uid} pairs), keyed {@code cluster|uid}. */
    public Uni<Map<String, PodFact>> newestVersions(Collection<String> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("""
                        SELECT DISTINCT ON (cluster, uid) cluster, uid, convert_to(payload::text, 'UTF8') AS p
                        FROM ledger.pod_fact WHERE (cluster, uid) IN (SELECT * FROM unnest($1::text[], $2::text[]))
                        ORDER BY cluster, uid, observed_at DESC, length(resource_version) DESC, resource_version DESC""")
                .execute(pairs(keys))
                .map(rows -> {
                    Map<String, PodFact> out = new HashMap<>();
                    rows.forEach(r -> out.put(r.getString("cluster") + "|" + r.getString("uid"),
                            StoredPayloads.decode(json, r, PodFact.class)));
                    return out;
                });
    }

    /**
     * The device class of each pod's DRA units ({@code cluster|uid} pairs): of the requests of the newest version of
     * its claims (admin-access requests aside, they hold nothing), else the driver of their allocated devices; the
     * first in text order when there are several. Keyed {@code cluster|uid}.
     */
    public Uni<Map<String, String>> draClasses(Collection<String> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("""
                        SELECT l.cluster, l.pod_uid, coalesce(min(req ->> 'deviceClassName'), min(res ->> 'driver')) AS class
                        FROM ledger.pod_claim_link l
                        CROSS JOIN LATERAL (SELECT c.payload FROM ledger.resource_claim_fact c
                                            WHERE c.cluster = l.cluster AND c.namespace = l.namespace AND c.name = l.claim_name
                                            ORDER BY c.observed_at DESC LIMIT 1) c
                        LEFT JOIN LATERAL jsonb_array_elements(coalesce(c.payload -> 'requests', '[]'::jsonb)) req
                               ON NOT coalesce((req ->> 'adminAccess')::boolean, false)
                        LEFT JOIN LATERAL jsonb_array_elements(coalesce(c.payload -> 'results', '[]'::jsonb)) res ON true
                        WHERE (l.cluster, l.pod_uid) IN (SELECT * FROM unnest($1::text[], $2::text[]))
                        GROUP BY l.cluster, l.pod_uid""")
                .execute(pairs(keys))
                .map(rows -> {
                    Map<String, String> out = new HashMap<>();
                    rows.forEach(r -> out.put(r.getString("cluster") + "|" + r.getString("pod_uid"), r.getString("class")));
                    return out;
                });
    }

    /** {@code cluster|uid} keys as the two array parameters $1 and $2. */
    static Tuple pairs(Collection<String> keys) {
        List<String> clusters = new ArrayList<>(keys.size());
        List<String> uids = new ArrayList<>(keys.size());
        for (String key : keys) {
            int bar = key.indexOf('|');
            clusters.add(key.substring(0, bar));
            uids.add(key.substring(bar + 1));
        }
        return Tuple.of(clusters.toArray(String[]::new), uids.toArray(String[]::new));
    }
}
