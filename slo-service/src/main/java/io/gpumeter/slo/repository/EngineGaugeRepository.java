package io.gpumeter.slo.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.domain.EngineGaugeLine;
import io.gpumeter.slo.domain.GaugeStat;
import io.gpumeter.slo.domain.MinuteKey;
import io.gpumeter.slo.domain.TokenRate;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Engine cache gauges per service, pod and minute in schema slo; a body is one transaction. */
@ApplicationScoped
public class EngineGaugeRepository {

    /** One pod's minute: the KV-cache usage and prefix-cache hit rate readings folded together. */
    public record PodMinuteGauges(Instant minute, String namespace, String pod, GaugeStat kvCacheUsage,
                                  GaugeStat prefixCacheHitRate) {
    }

    private static final Comparator<MinuteKey> KEY_ORDER = Comparator.comparing(MinuteKey::service)
            .thenComparing(MinuteKey::minute).thenComparing(MinuteKey::namespace).thenComparing(MinuteKey::pod);

    private final Pool pool;

    public EngineGaugeRepository(Pool pool) {
        this.pool = pool;
    }

    /** Stores the lines unless a body with the same digest was stored before; returns whether it was new. */
    public Uni<Boolean> store(String digest, List<EngineGaugeLine> lines) {
        // rows in key order, so two bodies touching the same rows lock them in one order
        Map<MinuteKey, GaugeStat[]> rows = new TreeMap<>(KEY_ORDER);
        // each pod-minute's earliest and latest generation-token counter readings
        Map<MinuteKey, EngineGaugeLine[]> tokens = new TreeMap<>(KEY_ORDER);
        for (EngineGaugeLine l : lines) {
            if (l.generationTokensTotal() != null) {
                EngineGaugeLine[] t = tokens.computeIfAbsent(new MinuteKey(l.service(), l.namespace(), l.pod(),
                        l.minute()), k -> new EngineGaugeLine[]{l, l});
                t[0] = l.ts().isBefore(t[0].ts()) ? l : t[0];
                t[1] = l.ts().isAfter(t[1].ts()) ? l : t[1];
            }
            GaugeStat[] s = rows.computeIfAbsent(new MinuteKey(l.service(), l.namespace(), l.pod(), l.minute()),
                    k -> new GaugeStat[]{GaugeStat.NONE, GaugeStat.NONE});
            if (l.kvCacheUsage() != null) {
                s[0] = s[0].plus(GaugeStat.of(l.kvCacheUsage()));
            }
            if (l.prefixCacheHitRate() != null) {
                s[1] = s[1].plus(GaugeStat.of(l.prefixCacheHitRate()));
            }
        }
        List<MinuteKey> keys = new ArrayList<>(rows.keySet());
        Tuple args = Tuple.of(keys.stream().map(MinuteKey::service).toArray(String[]::new),
                keys.stream().map(MinuteKey::namespace).toArray(String[]::new),
                keys.stream().map(MinuteKey::pod).toArray(String[]::new),
                keys.stream().map(k -> offset(k.minute())).toArray(OffsetDateTime[]::new));
        for (int g = 0; g < 2; g++) {
            int gauge = g;
            args.addValue(keys.stream().map(k -> (int) rows.get(k)[gauge].samples()).toArray(Integer[]::new));
            args.addValue(keys.stream().map(k -> rows.get(k)[gauge].sum()).toArray(Double[]::new));
            // 0 stands for "no reading" in the array (its samples are 0) and is written as NULL
            args.addValue(keys.stream().map(k -> rows.get(k)[gauge].max()).toArray(Double[]::new));
        }
        for (int end = 0; end < 2; end++) {
            int e = end;
            args.addValue(keys.stream().map(k -> tokens.containsKey(k) ? tokens.get(k)[e].generationTokensTotal() : null)
                    .toArray(Double[]::new));
            args.addValue(keys.stream().map(k -> tokens.containsKey(k) ? offset(tokens.get(k)[e].ts()) : null)
                    .toArray(OffsetDateTime[]::new));
        }
        return pool.withTransaction(conn -> conn
                .preparedQuery("INSERT INTO slo.engine_gauge_batch (digest, lines, received_at) VALUES ($1, $2, now())"
                        + " ON CONFLICT DO NOTHING RETURNING 1")
                .execute(Tuple.of(digest, lines.size()))
                .chain(claimed -> claimed.rowCount() == 0 ? Uni.createFrom().item(false) : conn.preparedQuery("""
                                INSERT INTO slo.engine_gauge_minute (service, namespace, pod, minute, kv_samples, kv_sum,
                                                                     kv_max, prefix_samples, prefix_sum, prefix_max,
                                                                     tokens_first, tokens_first_at, tokens_last,
                                                                     tokens_last_at)
                                SELECT service, namespace, pod, minute, ks, ksum, CASE WHEN ks = 0 THEN NULL ELSE kmax END,
                                       ps, psum, CASE WHEN ps = 0 THEN NULL ELSE pmax END, tf, tfa, tl, tla
                                FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[],
                                            $5::integer[], $6::float8[], $7::float8[],
                                            $8::integer[], $9::float8[], $10::float8[],
                                            $11::float8[], $12::timestamptz[], $13::float8[], $14::timestamptz[])
                                     AS r(service, namespace, pod, minute, ks, ksum, kmax, ps, psum, pmax, tf, tfa, tl, tla)
                                ON CONFLICT (service, minute, namespace, pod) DO UPDATE SET
                                    tokens_first = CASE WHEN engine_gauge_minute.tokens_first_at IS NULL
                                        OR excluded.tokens_first_at < engine_gauge_minute.tokens_first_at
                                        THEN excluded.tokens_first ELSE engine_gauge_minute.tokens_first END,
                                    tokens_first_at = least(engine_gauge_minute.tokens_first_at, excluded.tokens_first_at),
                                    tokens_last = CASE WHEN engine_gauge_minute.tokens_last_at IS NULL
                                        OR excluded.tokens_last_at > engine_gauge_minute.tokens_last_at
                                        THEN excluded.tokens_last ELSE engine_gauge_minute.tokens_last END,
                                    tokens_last_at = greatest(engine_gauge_minute.tokens_last_at, excluded.tokens_last_at),
                                    kv_samples = engine_gauge_minute.kv_samples + excluded.kv_samples,
                                    kv_sum = engine_gauge_minute.kv_sum + excluded.kv_sum,
                                    kv_max = greatest(engine_gauge_minute.kv_max, excluded.kv_max),
                                    prefix_samples = engine_gauge_minute.prefix_samples + excluded.prefix_samples,
                                    prefix_sum = engine_gauge_minute.prefix_sum + excluded.prefix_sum,
                                    prefix_max = greatest(engine_gauge_minute.prefix_max, excluded.prefix_max)""")
                        .execute(args).replaceWith(true)));
    }

    /**
     * A service's pod-minutes with cache gauges starting in the window, by minute, namespace and pod: the service of
     * one namespace, or (null) of every namespace that reports the name.
     */
    public Uni<List<PodMinuteGauges>> podMinutes(String service, String namespace, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT minute, namespace, pod, kv_samples, kv_sum, kv_max, prefix_samples, prefix_sum, prefix_max
                        FROM slo.engine_gauge_minute
                        WHERE service = $1 AND minute >= $2 AND minute < $3 AND kv_samples + prefix_samples > 0
                          AND ($4::text IS NULL OR namespace = $4)
                        ORDER BY minute, namespace, pod""")
                .execute(Tuple.from(Arrays.asList(service, offset(window.start()), offset(window.end()),
                        namespace)))
                .map(rows -> {
                    List<PodMinuteGauges> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new PodMinuteGauges(r.getOffsetDateTime("minute").toInstant(), r.getString("namespace"),
                                r.getString("pod"), stat(r, "kv"), stat(r, "prefix")));
                    }
                    return out;
                });
    }

    /**
     * The pods ("namespace/pod") that reported any reading of a service — a gauge or its token counter — in the minutes
     * starting in the window: the service of one namespace, or (null) of every namespace that reports the name.
     */
    public Uni<List<String>> podsOf(String service, String namespace, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT DISTINCT namespace || '/' || pod AS pod_key FROM slo.engine_gauge_minute
                        WHERE service = $1 AND minute >= $2 AND minute < $3 AND ($4::text IS NULL OR namespace = $4)
                        ORDER BY pod_key""")
                .execute(Tuple.from(Arrays.asList(service, offset(window.start()), offset(window.end()), namespace)))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("pod_key")));
                    return out;
                });
    }

    /** The namespaces whose pods reported cache gauges of a service in the minutes starting in the window. */
    public Uni<List<String>> namespacesOf(String service, TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT DISTINCT namespace FROM slo.engine_gauge_minute
                        WHERE service = $1 AND minute >= $2 AND minute < $3 AND kv_samples + prefix_samples > 0
                        ORDER BY namespace""")
                .execute(Tuple.of(service, offset(window.start()), offset(window.end())))
                .map(rows -> {
                    List<String> out = new ArrayList<>();
                    rows.forEach(r -> out.add(r.getString("namespace")));
                    return out;
                });
    }

    /**
     * The generation-token counter readings of a set of pods ("namespace/pod") in the window, whatever service they
     * reported under: each pod-minute's first and last, by pod.
     */
    public Uni<Map<String, List<TokenRate.Reading>>> tokenReadings(java.util.Collection<String> pods, TimeWindow window) {
        if (pods.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return pool.preparedQuery("""
                        SELECT namespace, pod, tokens_first, tokens_first_at, tokens_last, tokens_last_at
                        FROM slo.engine_gauge_minute
                        WHERE minute >= $1 AND minute < $2 AND tokens_last_at IS NOT NULL
                          AND namespace || '/' || pod = ANY ($3::text[])""")
                .execute(Tuple.of(offset(window.start()), offset(window.end()), pods.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, List<TokenRate.Reading>> out = new TreeMap<>();
                    for (Row r : rows) {
                        List<TokenRate.Reading> list = out.computeIfAbsent(r.getString("namespace") + "/"
                                + r.getString("pod"), k -> new ArrayList<>());
                        list.add(new TokenRate.Reading(r.getOffsetDateTime("tokens_first_at").toInstant(),
                                r.getDouble("tokens_first")));
                        if (!r.getOffsetDateTime("tokens_last_at").equals(r.getOffsetDateTime("tokens_first_at"))) {
                            list.add(new TokenRate.Reading(r.getOffsetDateTime("tokens_last_at").toInstant(),
                                    r.getDouble("tokens_last")));
                        }
                    }
                    return out;
                });
    }

    private static GaugeStat stat(Row r, String gauge) {
        int samples = r.getInteger(gauge + "_samples");
        return samples == 0 ? GaugeStat.NONE
                : new GaugeStat(samples, r.getDouble(gauge + "_sum"), r.getDouble(gauge + "_max"));
    }

    private static OffsetDateTime offset(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }
}
