package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.VolcanoJobFact;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.offset;
import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

/** Reads the stored versions of Volcano Jobs, and the allocated hours of the pods each job ran. */
@ApplicationScoped
public class VolcanoJobRepository {

    /**
     * Every stored version of each job some version of which stands in a final phase entered in [$1, $2): a job
     * finished in the window has one (the version that entered it), and its other versions date its first Running
     * and count its retries. Cluster $3, null for all.
     */
    private static final String FINISHED_IN = """
            SELECT f.cluster, convert_to(f.payload::text, 'UTF8') AS p
            FROM ledger.gov_volcano_job_fact f
            WHERE (f.cluster, f.uid) IN (
                SELECT cluster, uid FROM ledger.gov_volcano_job_fact
                WHERE payload->>'phase' IN ('Completed', 'Failed', 'Aborted', 'Terminated')
                  AND coalesce((payload->>'phaseChangedAt')::timestamptz, observed_at) >= $1
                  AND coalesce((payload->>'phaseChangedAt')::timestamptz, observed_at) < $2
                  AND ($3::text IS NULL OR cluster = $3))
            """;

    /**
     * Per job (the arrays' n-th entries: cluster, namespace, name, created, finished), the pods it ran and their
     * allocated card-equivalent seconds, a held unit counted up to $6. A pod is the job's when its controller is a
     * Job of that name in the job's namespace — the ownerReference Volcano's job controller writes on the pods it
     * creates — and it carries the volcano.sh/job-name label with that name, which the same controller writes and a
     * batch/v1 Job's pods lack; and when it began to hold its units between the job's creation and its end, since a
     * name is free again once a job is deleted. $7, the earliest creation, lets the segments' time index bound the scan.
     */
    private static final String POD_HOURS = """
            SELECT j.idx, count(DISTINCT s.pod_uid) AS pods, min(s.since) AS first_held,
                   sum(s.fraction * greatest(0, extract(epoch FROM coalesce(s.seg_end, $6) - s.seg_start))) AS seconds
            FROM unnest($1::text[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[])
                     WITH ORDINALITY AS j(cluster, namespace, name, created_at, finished_at, idx)
            JOIN ledger.allocation_segment s
              ON s.cluster = j.cluster AND s.namespace = j.namespace AND s.owner_kind = 'Job' AND s.owner_name = j.name
             AND s.since >= j.created_at AND s.since <= j.finished_at
            WHERE s.seg_start >= $7
              AND EXISTS (SELECT 1 FROM ledger.pod_fact p
                          WHERE p.cluster = s.cluster AND p.uid = s.pod_uid
                            AND p.payload->'labels'->>'volcano.sh/job-name' = j.name)
            GROUP BY j.idx
            """;

    /** A job whose pods are looked for: its key, and the span its pods began to hold in. */
    public record JobSpan(String cluster, String namespace, String name, Instant createdAt, Instant finishedAt) {
    }

    /** What a job's pods held: how many pods, when the first began, and their allocated card-equivalent seconds. */
    public record Held(int pods, Instant firstHeld, BigDecimal seconds) {
    }

    private final Pool pool;
    private final ObjectMapper json;

    public VolcanoJobRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /** The versions of each job that stands, or stood, in a final phase entered in [from, to), per "cluster/uid". */
    public Uni<Map<String, List<VolcanoJobFact>>> finishedIn(Instant from, Instant to, String cluster) {
        return pool.preparedQuery(FINISHED_IN).execute(Tuple.of(offset(from), offset(to), cluster)).map(rows -> {
            Map<String, List<VolcanoJobFact>> byJob = new LinkedHashMap<>();
            for (Row row : rows) {
                VolcanoJobFact fact = StoredPayloads.decode(json, row, VolcanoJobFact.class);
                byJob.computeIfAbsent(row.getString("cluster") + "/" + fact.uid(), k -> new ArrayList<>()).add(fact);
            }
            return byJob;
        });
    }

    /** What the pods of each job held, by the job's index in {@code jobs}; a job whose pods held nothing is absent. */
    public Uni<Map<Integer, Held>> held(List<JobSpan> jobs, Instant now) {
        if (jobs.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        Instant earliest = jobs.stream().map(JobSpan::createdAt).min(Instant::compareTo).orElseThrow();
        Tuple args = Tuple.tuple().addArrayOfString(strings(jobs, JobSpan::cluster))
                .addArrayOfString(strings(jobs, JobSpan::namespace)).addArrayOfString(strings(jobs, JobSpan::name))
                .addArrayOfOffsetDateTime(times(jobs, JobSpan::createdAt))
                .addArrayOfOffsetDateTime(times(jobs, JobSpan::finishedAt))
                .addOffsetDateTime(offset(now)).addOffsetDateTime(offset(earliest));
        return pool.preparedQuery(POD_HOURS).execute(args).map(rows -> {
            Map<Integer, Held> out = new HashMap<>();
            for (Row row : rows) {
                BigDecimal seconds = row.getBigDecimal("seconds");
                out.put(row.getLong("idx").intValue() - 1, new Held(row.getLong("pods").intValue(),
                        instant(row.getOffsetDateTime("first_held")), seconds == null ? BigDecimal.ZERO : seconds));
            }
            return out;
        });
    }
}
