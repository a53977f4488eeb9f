package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.ledger.config.AllocationConfig;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.history.domain.NamespaceTimeline;
import io.gpumeter.ledger.repository.FactRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Tenants of namespaces at an instant, from the same namespace label history the allocated ledger uses, resolved
 * when a report is asked for so a namespace labelled later still attributes its earlier waits and failures.
 */
@ApplicationScoped
public class TenantResolver {

    /** A lookup of tenant by cluster, namespace and instant. */
    public interface Tenants {
        String at(String cluster, String namespace, Instant t);
    }

    private final Pool pool;
    private final FactRepository facts;
    private final LedgerConfig config;

    public TenantResolver(Pool pool, FactRepository facts, LedgerConfig config) {
        this.pool = pool;
        this.facts = facts;
        this.config = config;
    }

    /** @param namespacesByCluster the namespaces to resolve, per cluster */
    public Uni<Tenants> tenants(Map<String, Set<String>> namespacesByCluster) {
        if (namespacesByCluster.isEmpty()) {
            return Uni.createFrom().item((cluster, namespace, t) -> namespace);
        }
        List<Uni<Map.Entry<String, List<NamespaceFact>>>> loads = new ArrayList<>();
        namespacesByCluster.forEach((cluster, names) -> loads.add(
                pool.withConnection(conn -> facts.namespaceVersions(conn, cluster, names)).map(v -> Map.entry(cluster, v))));
        return Uni.join().all(loads).andFailFast().map(loaded -> {
            AllocationConfig.Attribution keys = config.attribution();
            Map<String, NamespaceTimeline> timelines = new HashMap<>();
            for (Map.Entry<String, List<NamespaceFact>> e : loaded) {
                e.getValue().stream().collect(Collectors.groupingBy(NamespaceFact::name)).forEach((name, versions) ->
                        timelines.put(e.getKey() + "/" + name, NamespaceTimeline.of(name, versions, keys.tenantLabel(),
                                keys.teamLabel(), keys.projectLabel())));
            }
            return (cluster, namespace, t) -> {
                NamespaceTimeline timeline = timelines.get(cluster + "/" + namespace);
                return timeline == null ? namespace : timeline.tenantAt(t);
            };
        });
    }

    static <T> Map<String, Set<String>> namespaces(Collection<T> rows, java.util.function.Function<T, String> cluster,
                                                   java.util.function.Function<T, String> namespace) {
        Map<String, Set<String>> out = new HashMap<>();
        rows.forEach(r -> {
            if (namespace.apply(r) != null) {
                out.computeIfAbsent(cluster.apply(r), c -> new java.util.TreeSet<>()).add(namespace.apply(r));
            }
        });
        return out;
    }
}
