package io.gpumeter.ledger.demand.repository;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.common.fact.Owner;
import io.gpumeter.ledger.demand.domain.PodIdentity;
import io.gpumeter.ledger.hours.domain.TimeBucket;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.io.IOException;
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
     * The segments of the window ($1, $2; $3 the earlier of its end and now, which ends an open segment; $4 the
     * cluster or null), as {@code GET /api/v1/gpu-hours} selects them.
     */
    private static final String IN_WINDOW = """
            s.seg_start < $2 AND s.seg_start < $3
              AND coalesce(s.seg_end, 'infinity'::timestamptz) > $1 AND coalesce(s.seg_end, $3) > $1
              AND ($4::text IS NULL OR s.cluster = $4)""";

    /** Each pod's units by card model, unit kind, MIG profile and source that held some of the window. */
    private static final String HELD_UNITS = """
            SELECT s.cluster, s.pod_uid, s.gpu_model, s.unit_kind, s.mig_profile, s.source LIKE 'dra-claim%' AS dra
            FROM ledger.allocation_segment s
            WHERE\s""" + IN_WINDOW + """

            GROUP BY 1, 2, 3, 4, 5, 6
            HAVING sum(s.fraction * ledger.clipped_seconds(s.seg_start, coalesce(s.seg_end, $3), $1, $2)) > 0""";

    /**
     * Allocated card-equivalent hours per class of pods ($5 to $7: each pod's cluster, uid and class), card model,
     * unit kind, MIG profile, source and local day ($8 to $10 the days' labels, starts and ends), each segment
     * clipped to the day as {@code GET /api/v1/gpu-hours} clips it to a bucket, so that a model's hours add up to
     * that read's figure for it. A group's card-equivalents held change only where one of its segments starts or
     * ends: the segments are turned into those steps, and each stretch between two steps is clipped to the days it
     * overlaps. A segment held across the whole window is then one stretch of its group rather than one row per day,
     * and the rows are a group's days however many pods it has.
     */
    private static final String CLASS_HOURS = """
            WITH spans AS (
                SELECT p.k, s.gpu_model, s.unit_kind, s.mig_profile, s.source LIKE 'dra-claim%' AS dra, s.fraction,
                       greatest(s.seg_start, $1) AS t0, least(coalesce(s.seg_end, $3), $2) AS t1
                FROM ledger.allocation_segment s
                JOIN unnest($5::text[], $6::text[], $7::int[]) AS p(cluster, uid, k) ON p.cluster = s.cluster AND p.uid = s.pod_uid
                WHERE\s""" + IN_WINDOW + """
            ),
            steps AS (
                SELECT k, gpu_model, unit_kind, mig_profile, dra, e.t, sum(e.d) AS d
                FROM spans CROSS JOIN LATERAL (VALUES (t0, fraction), (t1, -fraction)) AS e(t, d)
                GROUP BY 1, 2, 3, 4, 5, 6),
            levels AS (
                SELECT k, gpu_model, unit_kind, mig_profile, dra, t AS t0, lead(t) OVER g AS t1, sum(d) OVER g AS level
                FROM steps WINDOW g AS (PARTITION BY k, gpu_model, unit_kind, mig_profile, dra ORDER BY t))
            SELECT l.k, l.gpu_model, l.unit_kind, l.mig_profile, l.dra, d.bucket,
                   sum(l.level * ledger.clipped_seconds(l.t0, l.t1, d.b_start, d.b_end)) / 3600 AS hours
            FROM levels l
            JOIN unnest($8::text[], $9::timestamptz[], $10::timestamptz[]) AS d(bucket, b_start, b_end)
              ON d.b_start < l.t1 AND d.b_end > l.t0
            WHERE l.level <> 0
            GROUP BY 1, 2, 3, 4, 5, 6""";

    /** A pod's units of one card model, kind, MIG profile and source, held for some of the window. */
    public record HeldUnits(String cluster, String podUid, String model, String unitKind, String migProfile, boolean dra) {

        /** The pod as {@code cluster|uid}. */
        public String pod() {
            return cluster + "|" + podUid;
        }
    }

    /** The hours of the pods of one class on one day in units of one card model, kind, MIG profile and source. */
    public record ClassHours(int classIndex, String model, String unitKind, String migProfile, boolean dra, String day,
                             BigDecimal hours) {
    }

    private static final TypeReference<Map<String, String>> LABELS = new TypeReference<>() {
    };

    private final Pool pool;
    private final ObjectMapper json;

    public DemandRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /** The units each pod held for some of [window start, {@code cap}) (the window's end when earlier), cluster or all. */
    public Uni<List<HeldUnits>> heldUnits(TimeWindow window, Instant cap, String cluster) {
        return pool.preparedQuery(HELD_UNITS).execute(Tuple.of(offset(window.start()), offset(window.end()), offset(cap), cluster))
                .map(rows -> {
                    List<HeldUnits> out = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        out.add(new HeldUnits(r.getString("cluster"), r.getString("pod_uid"), r.getString("gpu_model"),
                                r.getString("unit_kind"), r.getString("mig_profile"), r.getBoolean("dra")));
                    }
                    return out;
                });
    }

    /**
     * The hours of each class of pods per day, {@code classOf} giving each pod's ({@code cluster|uid}) class index;
     * a day of no hours has no row.
     */
    public Uni<List<ClassHours>> classHours(TimeWindow window, Instant cap, String cluster, Map<String, Integer> classOf,
                                           List<TimeBucket> days) {
        if (classOf.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Tuple params = pairs(classOf.keySet());
        Tuple all = Tuple.of(offset(window.start()), offset(window.end()), offset(cap), cluster)
                .addArrayOfString(params.getArrayOfStrings(0)).addArrayOfString(params.getArrayOfStrings(1))
                .addArrayOfInteger(classOf.values().toArray(Integer[]::new))
                .addArrayOfString(days.stream().map(TimeBucket::label).toArray(String[]::new))
                .addArrayOfOffsetDateTime(days.stream().map(d -> offset(d.start())).toArray(OffsetDateTime[]::new))
                .addArrayOfOffsetDateTime(days.stream().map(d -> offset(d.end())).toArray(OffsetDateTime[]::new));
        return pool.preparedQuery(CLASS_HOURS).execute(all).map(rows -> {
            List<ClassHours> out = new ArrayList<>(rows.size());
            for (Row r : rows) {
                BigDecimal hours = r.getBigDecimal("hours");
                if (hours != null && hours.signum() != 0) {
                    out.add(new ClassHours(r.getInteger("k"), r.getString("gpu_model"), r.getString("unit_kind"),
                            r.getString("mig_profile"), r.getBoolean("dra"), r.getString("bucket"), hours));
                }
            }
            return out;
        });
    }

    /**
     * What each pod ({@code cluster|uid} pairs) is by its newest version, as its lifecycle row keeps it (V41), keyed
     * {@code cluster|uid}. The newest version's whole payload was read and parsed here before: 16,159 look-ups among
     * 2,008,565 versions and 9.7 MB of JSON for the pods held at the end of a 1,000,000-pod month.
     */
    public Uni<Map<String, PodIdentity>> identities(Collection<String> keys) {
        if (keys.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("""
                        SELECT l.cluster, l.uid, l.namespace, l.name, l.owner_kind, l.owner_name, l.owner_api_version,
                               convert_to(l.labels::text, 'UTF8') AS labels
                        FROM ledger.pod_lifecycle l
                        JOIN unnest($1::text[], $2::text[]) AS k(cluster, uid) ON l.cluster = k.cluster AND l.uid = k.uid""")
                .execute(pairs(keys))
                .map(rows -> {
                    Map<String, PodIdentity> out = new HashMap<>();
                    rows.forEach(r -> out.put(r.getString("cluster") + "|" + r.getString("uid"), identity(r)));
                    return out;
                });
    }

    private PodIdentity identity(Row r) {
        String kind = r.getString("owner_kind");
        String name = r.getString("owner_name");
        String apiVersion = r.getString("owner_api_version");
        Owner owner = kind == null && name == null && apiVersion == null ? null : new Owner(kind, name, apiVersion);
        byte[] labels = r.getBuffer("labels").getBytes();
        try {
            return new PodIdentity(r.getString("namespace"), r.getString("name"), owner,
                    labels.length == 2 ? Map.of() : json.readValue(labels, LABELS)); // "{}": none
        } catch (IOException e) {
            throw new IllegalStateException("stored labels are unreadable", e);
        }
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
