package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.occupancy.domain.Occupant;
import io.gpumeter.ledger.occupancy.domain.PodHoldings;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.gpumeter.ledger.repository.AllocationRepository.OCCUPANT_COLUMNS;
import static io.gpumeter.ledger.repository.AllocationRepository.instant;
import static io.gpumeter.ledger.repository.AllocationRepository.occupant;
import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * What a set of pods held, or was held on a set of cards, over a window: the allocated ledger's segments clipped to
 * it, for the bulk holdings reads.
 */
@ApplicationScoped
public class HoldingsRepository {

    private final Pool pool;

    public HoldingsRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * The units these pods (namespace and name, pairwise) held during {@code window}, each with the part of the
     * window it was held, by pod then start; cluster null means any.
     */
    public Uni<Map<String, List<PodHoldings.Holding>>> holdings(TimeWindow window, String cluster, List<String> namespaces,
                                                                List<String> pods) {
        return pool.preparedQuery("SELECT " + OCCUPANT_COLUMNS + """
                        , greatest(seg_start, $1) AS held_from, least(coalesce(seg_end, $2), $2) AS held_to
                         FROM ledger.allocation_segment
                        WHERE (namespace, pod) IN (SELECT * FROM unnest($3::text[], $4::text[]))
                          AND seg_start < $2 AND (seg_end IS NULL OR seg_end > $1)
                          AND ($5::text IS NULL OR cluster = $5)
                        ORDER BY namespace, pod, held_from, cluster, gpu_uuid NULLS LAST, unit_index""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end()), namespaces.toArray(String[]::new),
                        pods.toArray(String[]::new), cluster))
                .map(rows -> byKey(rows, o -> o.namespace() + "/" + o.pod()));
    }

    /**
     * The units held on these cards during {@code window}, each with the part of the window it was held, by card then
     * start; cluster null means any.
     */
    public Uni<Map<String, List<PodHoldings.Holding>>> holdingsOfCards(TimeWindow window, String cluster, List<String> gpuUuids) {
        return pool.preparedQuery("SELECT " + OCCUPANT_COLUMNS + """
                        , greatest(seg_start, $1) AS held_from, least(coalesce(seg_end, $2), $2) AS held_to
                         FROM ledger.allocation_segment
                        WHERE gpu_uuid = ANY($3)
                          AND seg_start < $2 AND (seg_end IS NULL OR seg_end > $1)
                          AND ($4::text IS NULL OR cluster = $4)
                        ORDER BY gpu_uuid, held_from, namespace, pod, unit_index""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end()), gpuUuids.toArray(String[]::new), cluster))
                .map(rows -> byKey(rows, Occupant::gpuUuid));
    }

    /** The rows' holdings in their order, grouped by {@code key}. */
    private static Map<String, List<PodHoldings.Holding>> byKey(Iterable<Row> rows, Function<Occupant, String> key) {
        Map<String, List<PodHoldings.Holding>> out = new LinkedHashMap<>();
        for (Row r : rows) {
            Occupant o = occupant(r);
            out.computeIfAbsent(key.apply(o), k -> new ArrayList<>()).add(new PodHoldings.Holding(
                    instant(r.getOffsetDateTime("held_from")), instant(r.getOffsetDateTime("held_to")), o));
        }
        return out;
    }
}
