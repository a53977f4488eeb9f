package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.PendingPositionFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.VolcanoJobFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.governance.domain.CarriedStatuses;
import io.gpumeter.ledger.repository.Inserted;
import io.gpumeter.ledger.repository.KeptPrepared;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

/**
 * Stores governance facts under their natural keys ({@code INSERT … SELECT FROM unnest … ON CONFLICT DO NOTHING
 * RETURNING}); each insert answers the keys of the rows that were new, which name the objects to re-derive.
 */
@ApplicationScoped
public class GovernanceFactRepository {

    private final ObjectMapper json;

    public GovernanceFactRepository(ObjectMapper json) {
        this.json = json;
    }

    public Uni<Inserted> insertWorkloads(SqlConnection conn, String cluster, List<WorkloadFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_workload_fact (cluster, uid, resource_version, event_type, namespace, name, observed_at, payload)
                SELECT $1, u.uid, u.rv, u.et, u.ns, u.name, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::bytea[])
                     AS u(uid, rv, et, ns, name, obs, payload)
                ON CONFLICT DO NOTHING RETURNING uid AS k""", List.of(cluster,
                strings(facts, WorkloadFact::uid), strings(facts, WorkloadFact::resourceVersion),
                strings(facts, f -> f.type().name()), strings(facts, WorkloadFact::namespace),
                strings(facts, WorkloadFact::name), times(facts, WorkloadFact::observedAt), StoredPayloads.encode(json, facts)));
    }

    public Uni<Inserted> insertQueueObjects(SqlConnection conn, String cluster, List<QueueObjectFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_queue_object_fact (cluster, kind, namespace, name, resource_version, event_type, revision, observed_at, payload)
                SELECT $1, u.kind, u.ns, u.name, u.rv, u.et, CASE WHEN u.rv ~ '^[0-9]{1,18}$' THEN u.rv::bigint END, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::bytea[])
                     AS u(kind, ns, name, rv, et, obs, payload)
                ON CONFLICT DO NOTHING RETURNING kind || '/' || namespace || '/' || name AS k""", List.of(cluster,
                strings(facts, f -> f.kind().name()), strings(facts, f -> f.namespace() == null ? "" : f.namespace()),
                strings(facts, QueueObjectFact::name), strings(facts, QueueObjectFact::resourceVersion),
                strings(facts, f -> f.type().name()), times(facts, QueueObjectFact::observedAt), StoredPayloads.encode(json, facts)));
    }

    public Uni<Inserted> insertPodGroups(SqlConnection conn, String cluster, List<PodGroupFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_pod_group_fact (cluster, uid, resource_version, event_type, namespace, name, observed_at, payload)
                SELECT $1, u.uid, u.rv, u.et, u.ns, u.name, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::bytea[])
                     AS u(uid, rv, et, ns, name, obs, payload)
                ON CONFLICT DO NOTHING RETURNING uid AS k""", List.of(cluster,
                strings(facts, PodGroupFact::uid), strings(facts, PodGroupFact::resourceVersion),
                strings(facts, f -> f.type().name()), strings(facts, PodGroupFact::namespace),
                strings(facts, PodGroupFact::name), times(facts, PodGroupFact::observedAt), StoredPayloads.encode(json, facts)));
    }

    public Uni<Inserted> insertVolcanoJobs(SqlConnection conn, String cluster, List<VolcanoJobFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_volcano_job_fact (cluster, uid, resource_version, event_type, namespace, name, observed_at, payload)
                SELECT $1, u.uid, u.rv, u.et, u.ns, u.name, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::bytea[])
                     AS u(uid, rv, et, ns, name, obs, payload)
                ON CONFLICT DO NOTHING RETURNING uid AS k""", List.of(cluster,
                strings(facts, VolcanoJobFact::uid), strings(facts, VolcanoJobFact::resourceVersion),
                strings(facts, f -> f.type().name()), strings(facts, VolcanoJobFact::namespace),
                strings(facts, VolcanoJobFact::name), times(facts, VolcanoJobFact::observedAt), StoredPayloads.encode(json, facts)));
    }

    /** Keys returned: {@code kind|namespace/name|uid} of the object each new event is about. */
    public Uni<Inserted> insertEvents(SqlConnection conn, String cluster, List<EventFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_event_fact (cluster, uid, resource_version, involved_kind, involved_namespace, involved_name,
                    involved_uid, reason, first_at, observed_at, payload)
                SELECT $1, u.uid, u.rv, u.kind, u.ns, u.name, u.iuid, u.reason, u.first_at, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                            $9::timestamptz[], $10::timestamptz[], $11::bytea[])
                     AS u(uid, rv, kind, ns, name, iuid, reason, first_at, obs, payload)
                ON CONFLICT DO NOTHING
                RETURNING involved_kind || '|' || coalesce(involved_namespace, '') || '/' || involved_name || '|' || coalesce(involved_uid, '') AS k""",
                List.of(cluster, strings(facts, EventFact::uid), strings(facts, EventFact::resourceVersion),
                        strings(facts, EventFact::involvedKind), strings(facts, EventFact::involvedNamespace),
                        strings(facts, EventFact::involvedName), strings(facts, EventFact::involvedUid),
                        strings(facts, EventFact::reason), times(facts, EventFact::firstAt),
                        times(facts, EventFact::observedAt), StoredPayloads.encode(json, facts)));
    }

    /**
     * Stores the batch's governance views of pods that were not stored before it (read into its hand under the lock):
     * those its pod versions carry are already in their rows (ADR 0016) and count as stored; the others are inserted.
     */
    public Uni<Inserted> insertPodStatuses(SqlConnection conn, String cluster, VersionsInHand<PodStatusFact> batch,
                                           CarriedStatuses carried) {
        return batch.insertUnstored(carried::carries, slice -> podStatusSlice(cluster, slice),
                parameters -> conn.preparedQuery(KeptPrepared.BULK_WRITE.sql("""
                        INSERT INTO ledger.gov_pod_status_fact (cluster, uid, resource_version, event_type, namespace, name,
                            owner_kind, owner_name, node_name, observed_at, payload)
                        SELECT $1, u.uid, u.rv, u.et, u.ns, u.name, u.ok, u.oname, u.node, u.obs,
                               convert_from(u.payload, 'UTF8')::json
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                                    $9::text[], $10::timestamptz[], $11::bytea[])
                             AS u(uid, rv, et, ns, name, ok, oname, node, obs, payload)""")).execute(parameters)
                        .replaceWithVoid());
    }

    private Tuple podStatusSlice(String cluster, List<PodStatusFact> facts) {
        return Tuple.from(List.of(cluster,
                strings(facts, PodStatusFact::uid), strings(facts, PodStatusFact::resourceVersion),
                strings(facts, f -> f.type().name()), strings(facts, PodStatusFact::namespace),
                strings(facts, PodStatusFact::name), strings(facts, f -> f.owner() == null ? null : f.owner().kind()),
                strings(facts, f -> f.owner() == null ? null : f.owner().name()), strings(facts, PodStatusFact::nodeName),
                times(facts, PodStatusFact::observedAt), StoredPayloads.encode(json, facts)));
    }

    /** Keys returned: {@code node|pci}. */
    public Uni<Inserted> insertXids(SqlConnection conn, String cluster, List<XidFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_xid_fact (cluster, node, pci_bus_id, at, code, message, gpu_uuid, payload)
                SELECT $1, u.node, u.pci, u.at, u.code, u.msg, u.uuid, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::int[], $6::text[], $7::text[], $8::bytea[])
                     AS u(node, pci, at, code, msg, uuid, payload)
                ON CONFLICT DO NOTHING RETURNING node || '|' || pci_bus_id AS k""", List.of(cluster,
                strings(facts, XidFact::node), strings(facts, XidFact::pciBusId), times(facts, XidFact::at),
                facts.stream().map(XidFact::code).toArray(Integer[]::new),
                strings(facts, f -> f.message() == null ? "" : f.message()), strings(facts, XidFact::gpuUuid),
                StoredPayloads.encode(json, facts)));
    }

    /** Keys returned: {@code node|pci}. */
    public Uni<Inserted> insertGpuAddresses(SqlConnection conn, String cluster, List<GpuAddressFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_gpu_address_fact (cluster, node, pci_bus_id, gpu_uuid, at)
                SELECT $1, u.node, u.pci, u.uuid, u.at
                FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[]) AS u(node, pci, uuid, at)
                ON CONFLICT DO NOTHING RETURNING node || '|' || pci_bus_id AS k""", List.of(cluster,
                strings(facts, GpuAddressFact::node), strings(facts, GpuAddressFact::pciBusId),
                strings(facts, GpuAddressFact::gpuUuid), times(facts, GpuAddressFact::at)));
    }

    /** Keys returned: {@code namespace/pod}. */
    public Uni<Inserted> insertLogSignals(SqlConnection conn, String cluster, List<LogSignalFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_log_signal_fact (cluster, namespace, pod, container, at, signal, payload)
                SELECT $1, u.ns, u.pod, u.c, u.at, u.signal, convert_from(u.payload, 'UTF8')::jsonb
                FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::bytea[])
                     AS u(ns, pod, c, at, signal, payload)
                ON CONFLICT DO NOTHING RETURNING namespace || '/' || pod AS k""", List.of(cluster,
                strings(facts, LogSignalFact::namespace), strings(facts, LogSignalFact::pod),
                strings(facts, f -> f.container() == null ? "" : f.container()), times(facts, LogSignalFact::at),
                strings(facts, LogSignalFact::signal), StoredPayloads.encode(json, facts)));
    }

    /** Keys returned: {@code namespace/workload}. */
    public Uni<Inserted> insertPendingPositions(SqlConnection conn, String cluster, List<PendingPositionFact> facts) {
        return insert(conn, facts, """
                INSERT INTO ledger.gov_pending_position (cluster, cluster_queue, namespace, workload, observed_at, local_queue,
                    priority, position_cq, position_lq)
                SELECT $1, u.cq, u.ns, u.wl, u.obs, u.lq, u.prio, u.pcq, u.plq
                FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::text[], $7::int[], $8::int[], $9::int[])
                     AS u(cq, ns, wl, obs, lq, prio, pcq, plq)
                ON CONFLICT DO NOTHING RETURNING namespace || '/' || workload AS k""", List.of(cluster,
                strings(facts, PendingPositionFact::clusterQueue), strings(facts, PendingPositionFact::namespace),
                strings(facts, PendingPositionFact::workload), times(facts, PendingPositionFact::observedAt),
                strings(facts, PendingPositionFact::localQueue),
                facts.stream().map(PendingPositionFact::priority).toArray(Integer[]::new),
                facts.stream().map(PendingPositionFact::positionInClusterQueue).toArray(Integer[]::new),
                facts.stream().map(PendingPositionFact::positionInLocalQueue).toArray(Integer[]::new)));
    }

    private static Uni<Inserted> insert(SqlConnection conn, List<?> facts, String sql, List<Object> params) {
        if (facts.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        return conn.preparedQuery(sql).execute(Tuple.from(params)).map(rows -> new Inserted(rows.rowCount(), keys(rows)));
    }

    private static Set<String> keys(RowSet<Row> rows) {
        Set<String> out = new LinkedHashSet<>();
        rows.forEach(r -> out.add(r.getString("k")));
        return out;
    }
}
