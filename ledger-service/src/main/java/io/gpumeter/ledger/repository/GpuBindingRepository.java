package io.gpumeter.ledger.repository;

import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.ledger.history.domain.GpuBinding;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static io.gpumeter.ledger.repository.Columns.strings;
import static io.gpumeter.ledger.repository.FactRepository.toOffset;

/** The pod-to-card bindings the exporters reveal: which pod each card's series named, first and last seen. */
@ApplicationScoped
public class GpuBindingRepository {

    /**
     * Records which pods the exporters saw on which cards; returns the "namespace/pod" names newly bound. A process
     * the pusher named a pod for is a sighting of that pod on the whole card, as a dcgm-exporter pod label is: on a
     * node without dcgm-exporter's Kubernetes mode it is what names the cards of anonymous whole-card allocations.
     * A HAMi monitor's container series is a sighting of its pod on the whole card too: HAMi's annotations on the pod
     * are its tenant's to rewrite, the monitor's view of the device is not, so it is what a grant is checked against.
     */
    public Uni<Set<String>> bind(SqlConnection conn, String cluster, List<UsageSample> samples) {
        List<UsageSample> attributed = samples.stream()
                .filter(s -> s.pod() != null && !s.pod().isBlank() && s.namespace() != null && !s.namespace().isBlank())
                .filter(s -> s.scope() == UsageScope.DEVICE
                        || s.scope() == UsageScope.MIG_INSTANCE
                        || s.scope() == UsageScope.PROCESS
                        || s.scope() == UsageScope.CONTAINER)
                .toList();
        if (attributed.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return conn.preparedQuery("""
                        INSERT INTO ledger.gpu_binding (cluster, namespace, pod, gpu_uuid, scope_key, mig_profile, first_seen, last_seen)
                        SELECT $1, ns, pod, gpu, skey, max(profile), min(at), max(at)
                        FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[])
                             AS u(ns, pod, gpu, skey, profile, at)
                        GROUP BY ns, pod, gpu, skey
                        ON CONFLICT (cluster, namespace, pod, gpu_uuid, scope_key) DO UPDATE SET
                            first_seen = least(gpu_binding.first_seen, excluded.first_seen),
                            last_seen = greatest(gpu_binding.last_seen, excluded.last_seen),
                            mig_profile = coalesce(excluded.mig_profile, gpu_binding.mig_profile)
                        RETURNING namespace || '/' || pod AS name, (xmax = 0) AS inserted""")
                .execute(Tuple.from(List.of(cluster,
                        strings(attributed, UsageSample::namespace), strings(attributed, UsageSample::pod),
                        strings(attributed, UsageSample::gpuUuid),
                        strings(attributed, s -> s.scope() == UsageScope.MIG_INSTANCE ? s.scopeKey() : ""),
                        strings(attributed, UsageSample::migProfile),
                        attributed.stream().map(s -> toOffset(s.at())).toArray(OffsetDateTime[]::new))))
                .map(rows -> {
                    Set<String> fresh = new TreeSet<>();
                    rows.forEach(r -> {
                        if (Boolean.TRUE.equals(r.getBoolean("inserted"))) {
                            fresh.add(r.getString("name"));
                        }
                    });
                    return fresh;
                });
    }

    /** Every sighting of pods in these namespaces, keyed "namespace/pod". */
    public Uni<Map<String, List<GpuBinding>>> bindings(SqlConnection conn, String cluster, Collection<String> namespaces) {
        return conn.preparedQuery("""
                        SELECT namespace, pod, gpu_uuid, scope_key, mig_profile, first_seen, last_seen FROM ledger.gpu_binding
                        WHERE cluster = $1 AND namespace = ANY($2)""")
                .execute(Tuple.of(cluster, namespaces.toArray(String[]::new)))
                .map(rows -> {
                    Map<String, List<GpuBinding>> out = new HashMap<>();
                    rows.forEach(r -> out.computeIfAbsent(r.getString("namespace") + "/" + r.getString("pod"), k -> new ArrayList<>())
                            .add(new GpuBinding(r.getString("gpu_uuid"), r.getString("scope_key"), r.getString("mig_profile"),
                                    r.getOffsetDateTime("first_seen").toInstant(), r.getOffsetDateTime("last_seen").toInstant())));
                    return out;
                });
    }

    /** The uids of the pods with these "namespace/pod" names. */
    public Uni<Set<String>> podUids(SqlConnection conn, String cluster, Collection<String> names) {
        if (names.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        String[] namespaces = names.stream().map(n -> n.substring(0, n.indexOf('/'))).toArray(String[]::new);
        String[] pods = names.stream().map(n -> n.substring(n.indexOf('/') + 1)).toArray(String[]::new);
        return conn.preparedQuery("""
                        SELECT DISTINCT f.uid FROM ledger.pod_fact_fields f
                        JOIN unnest($2::text[], $3::text[]) AS b(ns, pod) ON f.namespace = b.ns AND f.name = b.pod
                        WHERE f.cluster = $1""")
                .execute(Tuple.of(cluster, namespaces, pods))
                .map(rows -> {
                    Set<String> uids = new TreeSet<>();
                    rows.forEach(r -> uids.add(r.getString("uid")));
                    return uids;
                });
    }
}
