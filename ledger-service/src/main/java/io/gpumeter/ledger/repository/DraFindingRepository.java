package io.gpumeter.ledger.repository;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.ledger.dra.domain.ClaimHoldings;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.violation.domain.Violation;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/**
 * The findings of the DRA derivation over a window, read from what it stored: admin-access devices booked as
 * ordinary ones (their segments' source says so) and claim versions reserved for pods of other namespaces (the
 * claim versions themselves, beside the pods' own namespace).
 */
@ApplicationScoped
public class DraFindingRepository {

    static final String RESOURCE = "CLAIM";

    private final Pool pool;

    public DraFindingRepository(Pool pool) {
        this.pool = pool;
    }

    /** One finding per pod and unit for each run of consecutive segments booked so, clipped to the window. */
    public Uni<List<Violation>> adminAccessUnlabelled(TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT cluster, pod_uid, unit_index, namespace, pod, gpu_uuid, seg_start, seg_end
                        FROM ledger.allocation_segment
                        WHERE strpos(source, $3) > 0 AND seg_start < $2 AND (seg_end IS NULL OR seg_end > $1)
                        ORDER BY cluster, pod_uid, unit_index, seg_start""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end()), ClaimHoldings.ADMIN_ACCESS_UNLABELLED))
                .map(rows -> {
                    List<Violation> out = new ArrayList<>();
                    Row run = null;
                    Instant runStart = null;
                    Instant runEnd = null;
                    for (Row r : rows) {
                        Instant start = r.getOffsetDateTime("seg_start").toInstant();
                        Instant end = r.getOffsetDateTime("seg_end") == null ? null : r.getOffsetDateTime("seg_end").toInstant();
                        if (run != null && sameUnit(run, r) && start.equals(runEnd)) {
                            runEnd = end;
                            continue;
                        }
                        if (run != null) {
                            out.add(adminAccess(run, runStart, runEnd, window));
                        }
                        run = r;
                        runStart = start;
                        runEnd = end;
                    }
                    if (run != null) {
                        out.add(adminAccess(run, runStart, runEnd, window));
                    }
                    return out;
                });
    }

    /** One finding per claim and pod named, over the claim versions observed in the window that name it. */
    public Uni<List<Violation>> consumersInOtherNamespaces(TimeWindow window) {
        return pool.preparedQuery("""
                        SELECT c.cluster, c.namespace, c.name, r ->> 'uid' AS pod_uid, p.namespace AS pod_namespace,
                               p.name AS pod, min(c.observed_at) AS first_seen, max(c.observed_at) AS last_seen
                        FROM ledger.resource_claim_fact c
                        CROSS JOIN LATERAL jsonb_array_elements(c.payload -> 'reservedFor') r
                        JOIN LATERAL (SELECT f.namespace, f.name FROM ledger.pod_fact f
                                      WHERE f.cluster = c.cluster AND f.uid = r ->> 'uid' LIMIT 1) p ON true
                        WHERE c.observed_at >= $1 AND c.observed_at < $2 AND r ->> 'resource' = 'pods'
                          AND p.namespace <> c.namespace
                        GROUP BY c.cluster, c.namespace, c.name, r ->> 'uid', p.namespace, p.name""")
                .execute(Tuple.of(toOffset(window.start()), toOffset(window.end())))
                .map(rows -> {
                    List<Violation> out = new ArrayList<>();
                    for (Row r : rows) {
                        Instant first = r.getOffsetDateTime("first_seen").toInstant();
                        Instant last = r.getOffsetDateTime("last_seen").toInstant();
                        out.add(new Violation(Violation.Kind.DRA_CONSUMER_OTHER_NAMESPACE, RESOURCE, r.getString("cluster"),
                                null, r.getString("namespace"), null, null, first, last, minutes(first, last), null,
                                "ResourceClaim " + r.getString("namespace") + "/" + r.getString("name")
                                        + " is reserved for pod " + r.getString("pod_namespace") + "/" + r.getString("pod")
                                        + " (uid " + r.getString("pod_uid") + ") of another namespace, which Kubernetes"
                                        + " never does: that pod holds nothing of the claim"));
                    }
                    return out;
                });
    }

    private static boolean sameUnit(Row a, Row b) {
        return a.getString("cluster").equals(b.getString("cluster")) && a.getString("pod_uid").equals(b.getString("pod_uid"))
                && Objects.equals(a.getInteger("unit_index"), b.getInteger("unit_index"));
    }

    private static Violation adminAccess(Row row, Instant start, Instant end, TimeWindow window) {
        Instant from = start.isBefore(window.start()) ? window.start() : start;
        Instant to = end == null || end.isAfter(window.end()) ? window.end() : end;
        return new Violation(Violation.Kind.DRA_ADMIN_ACCESS_UNLABELLED, RESOURCE, row.getString("cluster"),
                row.getString("gpu_uuid"), row.getString("namespace"), row.getString("pod"), null, from, to,
                minutes(from, to), null, "an admin-access device of a ResourceClaim, booked as an ordinary one: namespace "
                + row.getString("namespace") + " did not carry " + NamespaceTimeline.ADMIN_ACCESS_LABEL + "=true then");
    }

    private static int minutes(Instant from, Instant to) {
        return (int) Duration.between(from, to).toMinutes();
    }
}
