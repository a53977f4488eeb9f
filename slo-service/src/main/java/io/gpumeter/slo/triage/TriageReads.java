package io.gpumeter.slo.triage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.domain.SuspectRanking;
import io.gpumeter.slo.service.JitterEvidence;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a triage reads of slo-service's own store, each a single statement whatever the number of events, pods or
 * services: whether a service is known at all, jitter events without their curves (the suspects, the gaps, which
 * neighbours' curves were their own, which of their pods were given neighbours), and requests per minute of several
 * services at once. A triage writes nothing.
 */
@ApplicationScoped
public class TriageReads {

    /**
     * The jitter event's evidence as a triage reads it: no curves, only what decides and names ({@code unmeasured}
     * null for an event attributed before the host and the cards were read).
     */
    public record EventRow(long id, String slo, String service, String namespace, String sli, Instant start,
                           Instant end, int badMinutes, double peakP99Ms, BigDecimal thresholdMs, BigDecimal factor,
                           List<SuspectRanking.Suspect> suspects, List<String> gaps, int placedPods,
                           Map<String, Set<String>> ownCurves, Set<String> pods, Set<String> podsAmong,
                           List<JitterEvidence.Unmeasured> unmeasured) {

        /** "namespace/name" of its service. */
        public String serviceKey() {
            return namespace + "/" + service;
        }

        public BigDecimal limitMs() {
            BigDecimal limit = thresholdMs.multiply(factor).stripTrailingZeros();
            return limit.scale() < 0 ? limit.setScale(0) : limit;
        }
    }

    private static final TypeReference<List<SuspectRanking.Suspect>> SUSPECTS = new TypeReference<>() {
    };
    private static final TypeReference<List<String>> STRINGS = new TypeReference<>() {
    };
    private static final TypeReference<List<JitterEvidence.Unmeasured>> UNMEASURED = new TypeReference<>() {
    };

    /** The curves attribution names per neighbour; a field measured on its own containers or MIG instance is its own. */
    private static final String EVENT_COLUMNS = """
            e.id, e.slo, e.service, e.namespace, e.sli, e.started_at, e.ended_at, e.bad_minutes, e.peak_p99_ms,
            e.threshold_ms, e.factor,
            coalesce(e.evidence -> 'suspects', '[]')::text AS suspects,
            coalesce(e.evidence -> 'gaps', '[]')::text AS gaps,
            coalesce(e.evidence -> 'unmeasured', 'null')::text AS unmeasured,
            (SELECT count(*) FROM jsonb_array_elements(CASE WHEN jsonb_typeof(e.evidence -> 'pods') = 'array'
                                                            THEN e.evidence -> 'pods' ELSE '[]' END) p
             WHERE jsonb_typeof(p -> 'gpus') = 'array' AND jsonb_array_length(p -> 'gpus') > 0) AS placed_pods,
            ARRAY(SELECT (n ->> 'namespace') || '/' || (n ->> 'pod') || '|' || f.key
                  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(e.evidence -> 'neighbours') = 'array'
                                                 THEN e.evidence -> 'neighbours' ELSE '[]' END) n,
                       jsonb_each(CASE WHEN jsonb_typeof(n -> 'curves') = 'object' THEN n -> 'curves' ELSE '{}' END) f
                  WHERE f.value ->> 'scope' IN ('CONTAINER', 'MIG_INSTANCE')) AS own_curves,
            ARRAY(SELECT (p ->> 'namespace') || '/' || (p ->> 'pod')
                  FROM jsonb_array_elements(CASE WHEN jsonb_typeof(e.evidence -> 'pods') = 'array'
                                                 THEN e.evidence -> 'pods' ELSE '[]' END) p) AS pods""";

    private final Pool pool;
    private final ObjectMapper mapper;

    public TriageReads(Pool pool, ObjectMapper mapper) {
        this.pool = pool;
        this.mapper = mapper;
    }

    /** What slo-service holds of a service: an SLO selecting it, its requests, its jitter events. */
    public record Known(boolean slo, boolean requests, boolean jitter) {

        public boolean any() {
            return slo || requests || jitter;
        }
    }

    public Uni<Known> known(String service, String namespace) {
        return pool.preparedQuery("""
                        SELECT EXISTS (SELECT 1 FROM slo.slo_definition
                                       WHERE service = $1 AND namespace = $2 AND tenant IS NULL) AS slo,
                               EXISTS (SELECT 1 FROM slo.request_minute WHERE service = $1 AND namespace = $2) AS requests,
                               EXISTS (SELECT 1 FROM slo.jitter_event WHERE service = $1 AND namespace = $2) AS jitter""")
                .execute(Tuple.of(service, namespace))
                .map(rows -> {
                    Row r = rows.iterator().next();
                    return new Known(r.getBoolean("slo"), r.getBoolean("requests"), r.getBoolean("jitter"));
                });
    }

    /** The service's jitter events overlapping [from, to), in start order. */
    public Uni<List<EventRow>> eventsOf(String service, String namespace, TimeWindow window) {
        return pool.preparedQuery("SELECT " + EVENT_COLUMNS + ", ARRAY[]::text[] AS pods_among FROM slo.jitter_event e"
                        + " WHERE e.service = $1 AND e.namespace = $2 AND e.started_at < $4 AND e.ended_at > $3"
                        + " ORDER BY e.started_at, e.id")
                .execute(Tuple.of(service, namespace, offset(window.start()), offset(window.end())))
                .map(rows -> {
                    List<EventRow> out = new ArrayList<>();
                    rows.forEach(r -> out.add(row(r)));
                    return out;
                });
    }

    /**
     * Other services' jitter events overlapping [from, to) any of whose evidence's pods is among {@code pods}
     * ("namespace/pod"), each with those pods in {@code podsAmong}; the service of namespace/name
     * {@code exceptNamespace}/{@code exceptService} left out.
     */
    public Uni<List<EventRow>> eventsAmong(Set<String> pods, TimeWindow window, String exceptService,
                                           String exceptNamespace) {
        if (pods.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery("SELECT * FROM (SELECT " + EVENT_COLUMNS + ", ARRAY(SELECT DISTINCT q"
                        + " FROM jsonb_array_elements(CASE WHEN jsonb_typeof(e.evidence -> 'pods') = 'array'"
                        + " THEN e.evidence -> 'pods' ELSE '[]' END) p, LATERAL (SELECT (p ->> 'namespace') || '/'"
                        + " || (p ->> 'pod') AS q) k WHERE q = ANY($1)) AS pods_among FROM slo.jitter_event e"
                        + " WHERE e.started_at < $3 AND e.ended_at > $2 AND NOT (e.service = $4 AND e.namespace"
                        + " IS NOT DISTINCT FROM $5)) x WHERE cardinality(pods_among) > 0 ORDER BY started_at, id")
                .execute(Tuple.from(Arrays.asList(pods.toArray(String[]::new), offset(window.start()),
                        offset(window.end()), exceptService, exceptNamespace)))
                .map(rows -> {
                    List<EventRow> out = new ArrayList<>();
                    rows.forEach(r -> out.add(row(r)));
                    return out;
                });
    }

    /**
     * The requests of each service ("namespace/name") per minute starting in the window, its pods summed; a service
     * without any maps to an empty map.
     */
    public Uni<Map<String, NavigableMap<Instant, Long>>> requests(Collection<String> serviceKeys, TimeWindow window) {
        Map<String, NavigableMap<Instant, Long>> out = new HashMap<>();
        serviceKeys.forEach(k -> out.put(k, new TreeMap<>()));
        if (serviceKeys.isEmpty()) {
            return Uni.createFrom().item(out);
        }
        List<String> keys = List.copyOf(new TreeSet<>(serviceKeys));
        return pool.preparedQuery("""
                        SELECT namespace, service, minute, sum(requests)::bigint AS requests FROM slo.request_minute
                        WHERE minute >= $1 AND minute < $2
                          AND (namespace, service) IN (SELECT * FROM unnest($3::text[], $4::text[]))
                        GROUP BY namespace, service, minute""")
                .execute(Tuple.of(offset(window.start()), offset(window.end()),
                        keys.stream().map(k -> k.substring(0, k.indexOf('/'))).toArray(String[]::new),
                        keys.stream().map(k -> k.substring(k.indexOf('/') + 1)).toArray(String[]::new)))
                .map(rows -> {
                    for (Row r : rows) {
                        out.get(r.getString("namespace") + "/" + r.getString("service"))
                                .put(r.getOffsetDateTime("minute").toInstant(), r.getLong("requests"));
                    }
                    return out;
                });
    }

    private EventRow row(Row r) {
        Map<String, Set<String>> own = new HashMap<>();
        for (String entry : r.getArrayOfStrings("own_curves")) {
            int bar = entry.lastIndexOf('|');
            own.computeIfAbsent(entry.substring(0, bar), k -> new TreeSet<>()).add(entry.substring(bar + 1));
        }
        return new EventRow(r.getLong("id"), r.getString("slo"), r.getString("service"), r.getString("namespace"),
                r.getString("sli"), r.getOffsetDateTime("started_at").toInstant(),
                r.getOffsetDateTime("ended_at").toInstant(), r.getInteger("bad_minutes"), r.getDouble("peak_p99_ms"),
                r.getBigDecimal("threshold_ms"), r.getBigDecimal("factor"), read(r.getString("suspects"), SUSPECTS, r),
                read(r.getString("gaps"), STRINGS, r), r.getLong("placed_pods").intValue(), own,
                new TreeSet<>(Arrays.asList(r.getArrayOfStrings("pods"))),
                new TreeSet<>(Arrays.asList(r.getArrayOfStrings("pods_among"))),
                read(r.getString("unmeasured"), UNMEASURED, r));
    }

    private <T> T read(String json, TypeReference<T> type, Row r) {
        try {
            return mapper.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("stored jitter evidence of event " + r.getLong("id") + " is unreadable", e);
        }
    }

    private static OffsetDateTime offset(Instant t) {
        return t.atOffset(ZoneOffset.UTC);
    }
}
