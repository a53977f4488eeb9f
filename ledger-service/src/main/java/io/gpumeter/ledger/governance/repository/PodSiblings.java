package io.gpumeter.ledger.governance.repository;

import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.ledger.repository.Chunks;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The pods derived together: a pod and the other pods of its owners, among which a replacement is looked for. */
public final class PodSiblings {

    private PodSiblings() {
    }

    /**
     * These pods and every other pod of their owners, in slices of about {@link Chunks#OBJECTS} that keep an owner's
     * pods together (a replacement is looked for among its siblings) and derive one after the other. The owners of a
     * pod whole in the batch's hand are taken from there; only the others' are read.
     */
    public static Uni<List<List<String>>> withSiblings(SqlClient db, String cluster, Collection<String> uids,
                                                       VersionsInHand<PodStatusFact> inHand) {
        if (uids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        Set<OwnerKey> owners = new LinkedHashSet<>();
        List<String> ownersToRead = new ArrayList<>();
        for (String uid : uids) {
            Collection<PodStatusFact> held = inHand.wholeInHand(uid);
            if (held.isEmpty()) {
                ownersToRead.add(uid);
            }
            for (PodStatusFact version : held) {
                if (version.owner() != null && version.owner().kind() != null && version.owner().name() != null) {
                    owners.add(new OwnerKey(version.namespace(), version.owner().kind(), version.owner().name()));
                }
            }
        }
        return db.preparedQuery(withSiblingsSql())
                .execute(Tuple.of(cluster, owners.stream().map(OwnerKey::namespace).toArray(String[]::new),
                        owners.stream().map(OwnerKey::kind).toArray(String[]::new),
                        owners.stream().map(OwnerKey::name).toArray(String[]::new), ownersToRead.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, List<String>> groups = new LinkedHashMap<>();
                    Set<String> placed = new HashSet<>();
                    for (Row row : rows) {
                        if (placed.add(row.getString("uid"))) {
                            groups.computeIfAbsent(row.getString("owner"), k -> new ArrayList<>()).add(row.getString("uid"));
                        }
                    }
                    for (String uid : uids) {
                        if (placed.add(uid)) {
                            groups.put("\0" + uid, List.of(uid));
                        }
                    }
                    List<List<String>> slices = new ArrayList<>();
                    List<String> slice = new ArrayList<>();
                    for (List<String> group : groups.values()) {
                        if (!slice.isEmpty() && slice.size() + group.size() > Chunks.OBJECTS) {
                            slices.add(slice);
                            slice = new ArrayList<>();
                        }
                        slice.addAll(group);
                    }
                    if (!slice.isEmpty()) {
                        slices.add(slice);
                    }
                    return slices;
                });
    }

    /**
     * The pods of the owners given ($2, $3, $4) and of the owners of the pods given ($5), each owner's pods looked up
     * in its index on its own (a lateral subquery the planner cannot flatten, OFFSET 0). Joined as a whole, a bundle's
     * ten thousand owners were hashed and every pod version of the cluster scanned against them, in every bundle.
     */
    public static String withSiblingsSql() {
        return """
                SELECT DISTINCT s.uid, o.namespace || '/' || o.owner_kind || '/' || o.owner_name AS owner
                FROM (SELECT * FROM unnest($2::text[], $3::text[], $4::text[]) AS given(namespace, owner_kind, owner_name)
                      UNION
                      SELECT p.* FROM unnest($5::text[]) AS r(uid) CROSS JOIN LATERAL (
                          SELECT namespace, owner_kind, owner_name FROM ledger.pod_status_version
                          WHERE cluster = $1 AND uid = r.uid AND owner_name IS NOT NULL OFFSET 0) p) o
                CROSS JOIN LATERAL (
                    SELECT uid FROM ledger.pod_status_version
                    WHERE cluster = $1 AND namespace = o.namespace AND owner_kind = o.owner_kind AND owner_name = o.owner_name
                    OFFSET 0) s""";
    }

    private record OwnerKey(String namespace, String kind, String name) {
    }
}
