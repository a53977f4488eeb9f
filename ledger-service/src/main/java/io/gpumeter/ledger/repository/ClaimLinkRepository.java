package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.ClaimConsumer;
import io.gpumeter.common.fact.PodClaim;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.ResourceClaimFact;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Which pods each ResourceClaim binds, as either side names it (a pod version naming the claim, a claim version
 * reserved for the pod), and the pods whose books a changed claim or pool may change.
 */
@ApplicationScoped
public class ClaimLinkRepository {

    /** One pod-claim link: the claim (namespace, name) binds the pod. */
    public record Link(String namespace, String claimName, String podUid) {
    }

    /** Records the pods these claim versions are reserved for. */
    public Uni<Void> linkClaims(SqlConnection conn, String cluster, List<ResourceClaimFact> claims) {
        List<Link> links = new ArrayList<>();
        for (ResourceClaimFact claim : claims) {
            for (ClaimConsumer consumer : claim.reservedFor()) {
                if (consumer.isPod() && consumer.uid() != null && !consumer.uid().isBlank()) {
                    links.add(new Link(claim.namespace(), claim.name(), consumer.uid()));
                }
            }
        }
        return links(conn, cluster, links);
    }

    /** Records the claims the pod versions name. */
    public Uni<Void> linkPods(SqlConnection conn, String cluster, List<PodFact> pods) {
        List<Link> links = new ArrayList<>();
        for (PodFact pod : pods) {
            for (PodClaim claim : pod.claims()) {
                if (claim.claimName() != null && !claim.claimName().isBlank()) {
                    links.add(new Link(pod.namespace(), claim.claimName(), pod.uid()));
                }
            }
        }
        return links(conn, cluster, links);
    }

    /** The pods bound to these claims ("namespace/name"). */
    public Uni<Set<String>> podsOfClaims(SqlConnection conn, String cluster, Collection<String> claimKeys) {
        KeyPairs claims = KeyPairs.split(claimKeys);
        if (claims.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return conn.preparedQuery("""
                        SELECT DISTINCT pod_uid FROM ledger.pod_claim_link
                        WHERE cluster = $1 AND (namespace, claim_name) IN (SELECT * FROM unnest($2::text[], $3::text[]))""")
                .execute(Tuple.of(cluster, claims.first(), claims.second()))
                .map(rows -> strings(rows, "pod_uid"));
    }

    /**
     * The pods whose books a changed pool ("driver/pool") may change: those bound to a claim allocated from it, unless
     * their allocation ended with every device resolved (a finished allocation keeps the card it was priced with).
     */
    public Uni<Set<String>> podsAwaitingPools(SqlConnection conn, String cluster, Collection<String> pools) {
        if (pools.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return conn.preparedQuery("""
                        SELECT DISTINCT l.pod_uid FROM ledger.pod_claim_link l
                        JOIN ledger.resource_claim_fact c ON c.cluster = l.cluster AND c.namespace = l.namespace AND c.name = l.claim_name
                        CROSS JOIN LATERAL jsonb_array_elements(c.payload -> 'results') r
                        WHERE l.cluster = $1 AND (r ->> 'driver') || '/' || (r ->> 'pool') = ANY($2)
                          AND NOT EXISTS (SELECT 1 FROM ledger.allocation_segment s
                                          WHERE s.cluster = l.cluster AND s.pod_uid = l.pod_uid AND s.until IS NOT NULL)
                        UNION
                        SELECT DISTINCT s.pod_uid FROM ledger.allocation_segment s
                        WHERE s.cluster = $1 AND s.source LIKE 'dra-claim%unresolved%'""")
                .execute(Tuple.of(cluster, pools.toArray(String[]::new)))
                .map(rows -> strings(rows, "pod_uid"));
    }

    /**
     * Every link of the claims these pods use, and of the pods sharing them, transitively: pods sharing a claim
     * are derived together.
     */
    public Uni<List<Link>> sharingLinks(SqlConnection conn, String cluster, Collection<String> podUids) {
        if (podUids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return conn.preparedQuery("""
                        WITH RECURSIVE linked(namespace, claim_name, pod_uid) AS (
                            SELECT namespace, claim_name, pod_uid FROM ledger.pod_claim_link
                            WHERE cluster = $1 AND pod_uid = ANY($2)
                            UNION
                            SELECT l.namespace, l.claim_name, l.pod_uid
                            FROM ledger.pod_claim_link l JOIN linked k
                              ON l.cluster = $1 AND ((l.namespace = k.namespace AND l.claim_name = k.claim_name)
                                                     OR l.pod_uid = k.pod_uid))
                        SELECT namespace, claim_name, pod_uid FROM linked""")
                .execute(Tuple.of(cluster, podUids.toArray(String[]::new)))
                .map(rows -> {
                    List<Link> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new Link(r.getString("namespace"), r.getString("claim_name"), r.getString("pod_uid"))));
                    return out;
                });
    }

    private Uni<Void> links(SqlConnection conn, String cluster, List<Link> links) {
        if (links.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.pod_claim_link (cluster, namespace, claim_name, pod_uid)
                        SELECT $1, u.ns, u.claim, u.pod FROM unnest($2::text[], $3::text[], $4::text[]) AS u(ns, claim, pod)
                        ON CONFLICT DO NOTHING""")
                .execute(Tuple.of(cluster, links.stream().map(Link::namespace).toArray(String[]::new),
                        links.stream().map(Link::claimName).toArray(String[]::new),
                        links.stream().map(Link::podUid).toArray(String[]::new)))
                .replaceWithVoid();
    }

    private static Set<String> strings(RowSet<Row> rows, String column) {
        Set<String> out = new LinkedHashSet<>();
        rows.forEach(r -> out.add(r.getString(column)));
        return out;
    }
}
