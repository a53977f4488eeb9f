package io.gpumeter.ledger.governance.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.governance.domain.HealthReading;
import io.gpumeter.ledger.governance.domain.HealthSignal;
import io.gpumeter.ledger.governance.domain.NodeOomIncidents;
import io.gpumeter.ledger.governance.domain.XidReading;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static io.gpumeter.ledger.governance.repository.Sql.instant;
import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.Columns.times;

/**
 * The failure sources beside the governance objects: dcgm-exporter's Xid gauge and memory-health readings, kernel Xids and driver
 * announcements looked up by card UUID, and the OOM events of nodes with the OOM-killed containers on them.
 */
@ApplicationScoped
public class IncidentSourceRepository {

    private final ObjectMapper json;

    public IncidentSourceRepository(ObjectMapper json) {
        this.json = json;
    }

    /**
     * Stores Xid gauge readings (each once), compacts away the stored readings of these cards that sit inside a run
     * of one value, and returns the cards where a stored reading now starts a new value: only there can the
     * sequence of changes, and so the incidents, differ.
     */
    public Uni<Set<String>> addXidReadings(SqlConnection conn, String cluster, List<XidReading> readings) {
        if (readings.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return conn.preparedQuery("""
                        WITH stored AS (
                            INSERT INTO ledger.gpu_xid_reading (cluster, gpu_uuid, at, code, node)
                            SELECT $1, u.* FROM unnest($2::text[], $3::timestamptz[], $4::int[], $5::text[]) AS u
                            ON CONFLICT DO NOTHING RETURNING gpu_uuid, at, code),
                        around AS (
                            SELECT s.gpu_uuid, s.code,
                                   (SELECT r.code FROM ledger.gpu_xid_reading r
                                    WHERE r.cluster = $1 AND r.gpu_uuid = s.gpu_uuid AND r.at < s.at ORDER BY r.at DESC LIMIT 1) AS before
                            FROM stored s)
                        SELECT DISTINCT gpu_uuid FROM around WHERE before IS DISTINCT FROM code""")
                .execute(Tuple.of(cluster, strings(readings, XidReading::gpuUuid), times(readings, XidReading::at),
                        readings.stream().map(XidReading::code).toArray(Integer[]::new), strings(readings, XidReading::node)))
                .map(rows -> {
                    Set<String> cards = new LinkedHashSet<>();
                    rows.forEach(r -> cards.add(r.getString("gpu_uuid")));
                    return cards;
                })
                .call(() -> conn.preparedQuery("""
                                DELETE FROM ledger.gpu_xid_reading r USING (
                                    SELECT gpu_uuid, at, code, lag(code) OVER w AS before, lead(code) OVER w AS after
                                    FROM ledger.gpu_xid_reading WHERE cluster = $1 AND gpu_uuid = ANY($2)
                                    WINDOW w AS (PARTITION BY gpu_uuid ORDER BY at)) x
                                WHERE r.cluster = $1 AND r.gpu_uuid = x.gpu_uuid AND r.at = x.at
                                  AND x.before = x.code AND x.after = x.code""")
                        .execute(Tuple.of(cluster, readings.stream().map(XidReading::gpuUuid).distinct().toArray(String[]::new))));
    }

    public Uni<List<XidReading>> xidReadings(SqlClient db, String cluster, Collection<String> uuids) {
        return db.preparedQuery("SELECT gpu_uuid, at, code, node FROM ledger.gpu_xid_reading WHERE cluster = $1 AND gpu_uuid = ANY($2)")
                .execute(Tuple.of(cluster, uuids.toArray(String[]::new)))
                .map(rows -> {
                    List<XidReading> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new XidReading(r.getString("gpu_uuid"), instant(r.getOffsetDateTime("at")), r.getInteger("code"),
                                r.getString("node")));
                    }
                    return out;
                });
    }

    /**
     * Stores memory-health readings (each once), compacts away the stored readings of these cards that sit inside a
     * run of one value of one signal, and returns the cards where a stored reading now starts a new value: only there
     * can the incidents differ.
     */
    public Uni<Set<String>> addHealthReadings(SqlConnection conn, String cluster, List<HealthReading> readings) {
        if (readings.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return conn.preparedQuery("""
                        WITH stored AS (
                            INSERT INTO ledger.gpu_health_reading (cluster, gpu_uuid, signal, at, value, node)
                            SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::timestamptz[], $5::bigint[], $6::text[]) AS u
                            ON CONFLICT DO NOTHING RETURNING gpu_uuid, signal, at, value),
                        around AS (
                            SELECT s.gpu_uuid, s.value,
                                   (SELECT r.value FROM ledger.gpu_health_reading r
                                    WHERE r.cluster = $1 AND r.gpu_uuid = s.gpu_uuid AND r.signal = s.signal AND r.at < s.at
                                    ORDER BY r.at DESC LIMIT 1) AS before
                            FROM stored s)
                        SELECT DISTINCT gpu_uuid FROM around WHERE before IS DISTINCT FROM value""")
                .execute(Tuple.of(cluster, strings(readings, HealthReading::gpuUuid), strings(readings, r -> r.signal().name()),
                        times(readings, HealthReading::at), readings.stream().map(HealthReading::value).toArray(Long[]::new),
                        strings(readings, HealthReading::node)))
                .map(rows -> {
                    Set<String> cards = new LinkedHashSet<>();
                    rows.forEach(r -> cards.add(r.getString("gpu_uuid")));
                    return cards;
                })
                .call(() -> conn.preparedQuery("""
                                DELETE FROM ledger.gpu_health_reading r USING (
                                    SELECT gpu_uuid, signal, at, value, lag(value) OVER w AS before, lead(value) OVER w AS after
                                    FROM ledger.gpu_health_reading WHERE cluster = $1 AND gpu_uuid = ANY($2)
                                    WINDOW w AS (PARTITION BY gpu_uuid, signal ORDER BY at)) x
                                WHERE r.cluster = $1 AND r.gpu_uuid = x.gpu_uuid AND r.signal = x.signal AND r.at = x.at
                                  AND x.before = x.value AND x.after = x.value""")
                        .execute(Tuple.of(cluster, readings.stream().map(HealthReading::gpuUuid).distinct().toArray(String[]::new))));
    }

    public Uni<List<HealthReading>> healthReadings(SqlClient db, String cluster, Collection<String> uuids) {
        return db.preparedQuery("SELECT gpu_uuid, signal, at, value, node FROM ledger.gpu_health_reading WHERE cluster = $1 AND gpu_uuid = ANY($2)")
                .execute(Tuple.of(cluster, uuids.toArray(String[]::new)))
                .map(rows -> {
                    List<HealthReading> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new HealthReading(r.getString("gpu_uuid"), HealthSignal.valueOf(r.getString("signal")),
                                instant(r.getOffsetDateTime("at")), r.getLong("value"), r.getString("node")));
                    }
                    return out;
                });
    }

    /** Kernel-log Xids of these cards, named by the Xid itself or by the driver's announcement of its address. */
    public Uni<List<XidFact>> kernelXids(SqlClient db, String cluster, Collection<String> uuids) {
        return db.preparedQuery("""
                        SELECT x.node, x.pci_bus_id, coalesce(x.gpu_uuid, a.gpu_uuid) AS uuid, x.at, x.code, x.message
                        FROM ledger.gov_xid_fact x
                        LEFT JOIN (SELECT DISTINCT node, pci_bus_id, gpu_uuid FROM ledger.gov_gpu_address_fact WHERE cluster = $1) a
                          ON a.node = x.node AND a.pci_bus_id = x.pci_bus_id
                        WHERE x.cluster = $1 AND coalesce(x.gpu_uuid, a.gpu_uuid) = ANY($2)""")
                .execute(Tuple.of(cluster, uuids.toArray(String[]::new)))
                .map(rows -> {
                    List<XidFact> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new XidFact(r.getString("node"), r.getString("pci_bus_id"), r.getString("uuid"),
                                instant(r.getOffsetDateTime("at")), r.getInteger("code"), null, null, r.getString("message"), "kmsg"));
                    }
                    return out;
                });
    }

    public Uni<List<GpuAddressFact>> announcementsOf(SqlClient db, String cluster, Collection<String> uuids) {
        return db.preparedQuery("SELECT node, pci_bus_id, gpu_uuid, at FROM ledger.gov_gpu_address_fact WHERE cluster = $1 AND gpu_uuid = ANY($2)")
                .execute(Tuple.of(cluster, uuids.toArray(String[]::new)))
                .map(rows -> {
                    List<GpuAddressFact> out = new ArrayList<>();
                    for (Row r : rows) {
                        out.add(new GpuAddressFact(r.getString("node"), r.getString("pci_bus_id"), r.getString("gpu_uuid"),
                                instant(r.getOffsetDateTime("at"))));
                    }
                    return out;
                });
    }

    /** The cards (UUIDs) behind these node|pci addresses that have Xid gauge readings. */
    public Uni<Set<String>> gaugedCardsAt(SqlClient db, String cluster, Collection<String> cards, Collection<String> named) {
        return db.preparedQuery("""
                        SELECT DISTINCT r.gpu_uuid FROM ledger.gpu_xid_reading r
                        WHERE r.cluster = $1 AND (r.gpu_uuid = ANY($3) OR r.gpu_uuid IN (
                            SELECT gpu_uuid FROM ledger.gov_gpu_address_fact WHERE cluster = $1 AND node || '|' || pci_bus_id = ANY($2)
                            UNION SELECT gpu_uuid FROM ledger.gov_xid_fact
                                  WHERE cluster = $1 AND gpu_uuid IS NOT NULL AND node || '|' || pci_bus_id = ANY($2)))""")
                .execute(Tuple.of(cluster, cards.toArray(String[]::new), named.toArray(String[]::new)))
                .map(rows -> {
                    Set<String> out = new LinkedHashSet<>();
                    rows.forEach(r -> out.add(r.getString("gpu_uuid")));
                    return out;
                });
    }

    /** The newest version of every kernel OOM event about these nodes. */
    public Uni<List<EventFact>> nodeOomEvents(SqlClient db, String cluster, Collection<String> nodes) {
        return db.preparedQuery("""
                        SELECT DISTINCT ON (uid) convert_to(payload::text, 'UTF8') AS p FROM ledger.gov_event_fact_fields
                        WHERE cluster = $1 AND involved_kind = 'Node' AND involved_name = ANY($2) AND reason = ANY($3)
                        ORDER BY uid, count DESC, observed_at DESC""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), NodeOomIncidents.REASONS.toArray(String[]::new)))
                .map(rows -> StoredPayloads.decode(json, rows, EventFact.class));
    }

    /** The nodes among these that have kernel OOM events. */
    public Uni<Set<String>> nodesWithOomEvents(SqlClient db, String cluster, Collection<String> nodes) {
        return db.preparedQuery("""
                        SELECT DISTINCT involved_name FROM ledger.gov_event_fact
                        WHERE cluster = $1 AND involved_kind = 'Node' AND involved_name = ANY($2) AND reason = ANY($3)""")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new), NodeOomIncidents.REASONS.toArray(String[]::new)))
                .map(rows -> {
                    Set<String> out = new LinkedHashSet<>();
                    rows.forEach(r -> out.add(r.getString("involved_name")));
                    return out;
                });
    }

    /** The versions of pods on these nodes that report an OOM-killed container. */
    public Uni<List<PodStatusFact>> oomKilledPodsOn(SqlClient db, String cluster, Collection<String> nodes) {
        // a container's state reason is among the status fields of a carried view, in the payload of one on its own
        return db.preparedQuery("SELECT " + PodStatusVersions.COLUMNS + " FROM ledger." + PodStatusVersions.RELATION
                        + " WHERE cluster = $1 AND node_name = ANY($2)"
                        + " AND coalesce(status, governed)::text LIKE '%\"OOMKilled\"%'")
                .execute(Tuple.of(cluster, nodes.toArray(String[]::new)))
                .map(rows -> PodStatusVersions.decode(json, rows));
    }
}
