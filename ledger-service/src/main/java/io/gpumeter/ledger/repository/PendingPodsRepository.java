package io.gpumeter.ledger.repository;

import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** The GPU pods that waited Pending during a window, for Q3's queued demand beside its idle cards. */
@ApplicationScoped
public class PendingPodsRepository {

    /** A pod that waited Pending during the window: [since, until), until null while it still waits. */
    public record PendingPod(String cluster, String uid, Instant since, Instant until, String resources) {
    }

    private final Pool pool;

    public PendingPodsRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * The GPU pods that waited Pending during [from, cap): from their creation until they were scheduled, deleted or
     * finished without being scheduled, with the GPU resources of their newest version.
     */
    public Uni<List<PendingPod>> pending(Instant from, Instant cap, String cluster) {
        return pool.preparedQuery("""
                        WITH p AS (
                            SELECT cluster, uid,
                                   min(coalesce(created_at, observed_at)) AS created,
                                   min(scheduled_at) AS scheduled,
                                   min(least(observed_at, deletion_at)) FILTER (WHERE event_type = 'DELETED') AS deleted,
                                   min(observed_at) FILTER (WHERE phase IN ('Succeeded', 'Failed')) AS finished,
                                   (array_agg(gpu_resources ORDER BY observed_at DESC))[1]::text AS resources
                            FROM ledger.pod_fact_fields
                            WHERE ($3::text IS NULL OR cluster = $3)
                            GROUP BY cluster, uid)
                        SELECT cluster, uid, created, least(scheduled, deleted, finished) AS ended, resources FROM p
                        WHERE created < $2 AND coalesce(least(scheduled, deleted, finished), 'infinity'::timestamptz) > $1
                        ORDER BY cluster, created, uid""")
                .execute(Tuple.of(toOffset(from), toOffset(cap), cluster))
                .map(rows -> {
                    List<PendingPod> out = new ArrayList<>();
                    for (Row r : rows) {
                        OffsetDateTime ended = r.getOffsetDateTime("ended");
                        out.add(new PendingPod(r.getString("cluster"), r.getString("uid"),
                                r.getOffsetDateTime("created").toInstant(), ended == null ? null : ended.toInstant(),
                                r.getString("resources")));
                    }
                    return out;
                });
    }
}
