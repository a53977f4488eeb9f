package io.gpumeter.ledger.triage.repository;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.common.fact.CarriedStatus;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.governance.repository.PodStatusVersions;
import io.gpumeter.ledger.repository.StoredPayloads;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** A triage's reads of pods: their versions as the governance views carry them, and which pods an owner or group has. */
@ApplicationScoped
public class PodVersionRepository {

    private final Pool pool;
    private final ObjectMapper json;

    public PodVersionRepository(Pool pool, ObjectMapper json) {
        this.pool = pool;
        this.json = json;
    }

    /**
     * The governance views of a pod's versions; for a pod whose versions carry none (metered only), its metering
     * versions with an empty status, so that its placement and requests are still read.
     */
    public Uni<List<PodStatusFact>> podVersions(String cluster, String uid) {
        return podVersions(cluster, List.of(uid));
    }

    /** As {@link #podVersions(String, String)} for many pods in two statements. */
    public Uni<List<PodStatusFact>> podVersions(String cluster, Collection<String> uids) {
        if (uids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery("SELECT " + PodStatusVersions.COLUMNS + " FROM ledger." + PodStatusVersions.RELATION
                        + " WHERE cluster = $1 AND uid = ANY($2)")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new)))
                .chain(rows -> {
                    List<PodStatusFact> views = new ArrayList<>(PodStatusVersions.decode(json, rows));
                    Set<String> metered = new TreeSet<>(uids);
                    views.forEach(v -> metered.remove(v.uid()));
                    if (metered.isEmpty()) {
                        return Uni.createFrom().item(views);
                    }
                    return pool.preparedQuery("SELECT convert_to(payload::text, 'UTF8') AS p FROM ledger.pod_fact"
                                    + " WHERE cluster = $1 AND uid = ANY($2)")
                            .execute(Tuple.of(cluster, metered.toArray(String[]::new)))
                            .map(pods -> {
                                StoredPayloads.decode(json, pods, PodFact.class).forEach(p -> views.add(
                                        new CarriedStatus(null, null, null, null, p.deletionTimestamp(), null, List.of()).on(p)));
                                return views;
                            });
                });
    }

    /** The newest view of each of these pods (for the pods of a Workload or PodGroup), by uid. */
    public Uni<Map<String, PodStatusFact>> latestViews(String cluster, Collection<String> uids) {
        return pool.preparedQuery("SELECT DISTINCT ON (uid) " + PodStatusVersions.COLUMNS + ", uid FROM ledger."
                        + PodStatusVersions.RELATION + " WHERE cluster = $1 AND uid = ANY($2) ORDER BY uid, observed_at DESC")
                .execute(Tuple.of(cluster, uids.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, PodStatusFact> out = new LinkedHashMap<>();
                    for (Row r : rows) {
                        PodStatusFact v = PodStatusVersions.decode(json, r);
                        out.put(v.uid(), v);
                    }
                    return out;
                });
    }

    /** The uids of the pods an owner (a Job, a ReplicaSet's Deployment) has in a namespace. */
    public Uni<List<String>> ownerPods(String cluster, String namespace, String ownerKind, String ownerName) {
        return pool.preparedQuery("""
                        SELECT DISTINCT uid FROM ledger.pod_status_version
                        WHERE cluster = $1 AND namespace = $2 AND owner_kind = $3 AND owner_name = $4 ORDER BY uid""")
                .execute(Tuple.of(cluster, namespace, ownerKind, ownerName))
                .map(PodVersionRepository::uids);
    }

    /** The uids of the pods of a namespace that name this pod group (Volcano's or the coscheduling plugin's). */
    public Uni<List<String>> groupPods(String cluster, String namespace, String group) {
        return pool.preparedQuery("""
                        SELECT DISTINCT uid FROM ledger.pod_status_version
                        WHERE cluster = $1 AND namespace = $2 AND coalesce(governed->>'groupName', status->>'groupName') = $3
                        ORDER BY uid""")
                .execute(Tuple.of(cluster, namespace, group))
                .map(PodVersionRepository::uids);
    }

    private static List<String> uids(RowSet<Row> rows) {
        List<String> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.getString("uid")));
        return out;
    }
}
