package io.gpumeter.ledger.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.DeviceClassFact;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.gpumeter.common.fact.ResourceSliceFact;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Stores Dynamic Resource Allocation objects (ResourceClaims, ResourceSlices, DeviceClasses) under their natural
 * keys and reads them back for derivation.
 */
@ApplicationScoped
public class DraFactRepository {

    private final ObjectMapper json;

    public DraFactRepository(ObjectMapper json) {
        this.json = json;
    }

    /** Inserts the claim versions not seen before; returns the "namespace/name" of the claims that changed. */
    public Uni<Inserted> insertClaims(SqlConnection conn, String cluster, List<ResourceClaimFact> claims) {
        if (claims.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.resource_claim_fact (cluster, uid, resource_version, event_type, namespace, name, observed_at, payload)
                        SELECT $1, u.uid, u.rv, u.et, u.ns, u.name, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::bytea[])
                             AS u(uid, rv, et, ns, name, obs, payload)
                        ON CONFLICT DO NOTHING
                        RETURNING namespace || '/' || name AS k""")
                .execute(Tuple.from(List.of(cluster,
                        claims.stream().map(ResourceClaimFact::uid).toArray(String[]::new),
                        claims.stream().map(ResourceClaimFact::resourceVersion).toArray(String[]::new),
                        claims.stream().map(c -> c.type().name()).toArray(String[]::new),
                        claims.stream().map(ResourceClaimFact::namespace).toArray(String[]::new),
                        claims.stream().map(ResourceClaimFact::name).toArray(String[]::new),
                        claims.stream().map(c -> FactRepository.toOffset(c.observedAt())).toArray(OffsetDateTime[]::new),
                        StoredPayloads.encode(json, claims))))
                .map(rows -> new Inserted(rows.rowCount(), strings(rows, "k")));
    }

    /** Inserts the slice versions not seen before; returns the "driver/pool" of the pools that changed. */
    public Uni<Inserted> insertSlices(SqlConnection conn, String cluster, List<ResourceSliceFact> slices) {
        if (slices.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.resource_slice_fact (cluster, name, resource_version, event_type, driver, pool, revision, observed_at, payload)
                        SELECT $1, u.name, u.rv, u.et, u.driver, u.pool, CASE WHEN u.rv ~ '^[0-9]{1,18}$' THEN u.rv::bigint END,
                               u.obs, convert_from(u.payload, 'UTF8')::jsonb
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::bytea[])
                             AS u(name, rv, et, driver, pool, obs, payload)
                        ON CONFLICT DO NOTHING
                        RETURNING driver || '/' || pool AS k""")
                .execute(Tuple.from(List.of(cluster,
                        slices.stream().map(ResourceSliceFact::name).toArray(String[]::new),
                        slices.stream().map(ResourceSliceFact::resourceVersion).toArray(String[]::new),
                        slices.stream().map(s -> s.type().name()).toArray(String[]::new),
                        slices.stream().map(ResourceSliceFact::driver).toArray(String[]::new),
                        slices.stream().map(ResourceSliceFact::pool).toArray(String[]::new),
                        slices.stream().map(s -> FactRepository.toOffset(s.observedAt())).toArray(OffsetDateTime[]::new),
                        StoredPayloads.encode(json, slices))))
                .map(rows -> new Inserted(rows.rowCount(), strings(rows, "k")));
    }

    public Uni<Inserted> insertDeviceClasses(SqlConnection conn, String cluster, List<DeviceClassFact> classes) {
        if (classes.isEmpty()) {
            return Uni.createFrom().item(Inserted.NONE);
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.device_class_fact (cluster, name, resource_version, event_type, observed_at, payload)
                        SELECT $1, u.name, u.rv, u.et, u.obs, convert_from(u.payload, 'UTF8')::jsonb
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::timestamptz[], $6::bytea[]) AS u(name, rv, et, obs, payload)
                        ON CONFLICT DO NOTHING
                        RETURNING name""")
                .execute(Tuple.from(List.of(cluster,
                        classes.stream().map(DeviceClassFact::name).toArray(String[]::new),
                        classes.stream().map(DeviceClassFact::resourceVersion).toArray(String[]::new),
                        classes.stream().map(c -> c.type().name()).toArray(String[]::new),
                        classes.stream().map(c -> FactRepository.toOffset(c.observedAt())).toArray(OffsetDateTime[]::new),
                        StoredPayloads.encode(json, classes))))
                .map(rows -> new Inserted(rows.rowCount(), strings(rows, "name")));
    }

    /** Every stored version of these claims ("namespace/name"). */
    public Uni<List<ResourceClaimFact>> claimVersions(SqlConnection conn, String cluster, Collection<String> claimKeys) {
        KeyPairs claims = KeyPairs.split(claimKeys);
        if (claims.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return conn.preparedQuery("""
                        SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.resource_claim_fact
                        WHERE cluster = $1 AND (namespace, name) IN (SELECT * FROM unnest($2::text[], $3::text[]))""")
                .execute(Tuple.of(cluster, claims.first(), claims.second()))
                .map(rows -> StoredPayloads.decode(json, rows, ResourceClaimFact.class));
    }

    /**
     * The newest version of every slice of these pools ("driver/pool"), deleted ones included: a device that has
     * gone still describes the allocations it served.
     */
    public Uni<List<ResourceSliceFact>> latestSlices(SqlConnection conn, String cluster, Collection<String> pools) {
        KeyPairs driverPools = KeyPairs.split(pools);
        if (driverPools.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return conn.preparedQuery("""
                        SELECT DISTINCT ON (name) convert_to(payload::text, 'UTF8') AS p FROM ledger.resource_slice_fact
                        WHERE cluster = $1 AND (driver, pool) IN (SELECT * FROM unnest($2::text[], $3::text[]))
                        ORDER BY name, revision DESC NULLS LAST, observed_at DESC, event_type = 'DELETED'""")
                .execute(Tuple.of(cluster, driverPools.first(), driverPools.second()))
                .map(rows -> StoredPayloads.decode(json, rows, ResourceSliceFact.class));
    }

    private static Set<String> strings(RowSet<Row> rows, String column) {
        Set<String> out = new LinkedHashSet<>();
        rows.forEach(r -> out.add(r.getString(column)));
        return out;
    }
}
