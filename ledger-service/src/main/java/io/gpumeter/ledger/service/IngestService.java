package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.NamespaceFact;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.domain.AllocationDeriver;
import io.gpumeter.ledger.domain.AllocationSegment;
import io.gpumeter.ledger.domain.NamespaceTimeline;
import io.gpumeter.ledger.domain.NodeInventory;
import io.gpumeter.ledger.domain.PodHistory;
import io.gpumeter.ledger.repository.AllocationRepository;
import io.gpumeter.ledger.repository.FactRepository;
import io.gpumeter.ledger.repository.InventoryRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Stores a batch of facts and re-derives the books of every pod they touch, in one transaction: a batch is
 * stored whole or not at all, and a batch sent twice changes nothing.
 */
@ApplicationScoped
public class IngestService {

    private final Pool pool;
    private final FactRepository facts;
    private final InventoryRepository inventory;
    private final AllocationRepository allocations;
    private final AllocationDeriver deriver;
    private final LedgerConfig config;
    private final FactValidator validator = new FactValidator();

    public IngestService(Pool pool, FactRepository facts, InventoryRepository inventory,
                         AllocationRepository allocations, AllocationDeriver deriver, LedgerConfig config) {
        this.pool = pool;
        this.facts = facts;
        this.inventory = inventory;
        this.allocations = allocations;
        this.deriver = deriver;
        this.config = config;
    }

    public Uni<IngestResult> ingest(FactBatch batch) {
        validator.validate(batch);
        String cluster = batch.cluster();
        return pool.withTransaction(conn -> conn
                // One writer per cluster at a time, so two batches never derive a pod from half its facts.
                .preparedQuery("SELECT pg_advisory_xact_lock(hashtext('gpumeter.ledger.ingest'), hashtext($1))")
                .execute(Tuple.of(cluster))
                .chain(() -> facts.insertNamespaces(conn, cluster, batch.namespaces()))
                .chain(namespaces -> facts.insertNodes(conn, cluster, batch.nodes())
                        .chain(nodes -> recordInventory(conn, cluster, nodes.keys())
                                .chain(() -> facts.insertPods(conn, cluster, batch.pods()))
                                .chain(pods -> facts.podsInNamespaces(conn, cluster, namespaces.keys())
                                        .chain(relabelled -> facts.podsAwaitingNode(conn, cluster, nodes.keys())
                                                .chain(onNodes -> {
                                                    Set<String> affected = new TreeSet<>(pods.keys());
                                                    affected.addAll(relabelled);
                                                    affected.addAll(onNodes);
                                                    return rederive(conn, cluster, affected);
                                                }))
                                        .map(ignored -> {
                                            int accepted = namespaces.count() + nodes.count() + pods.count();
                                            return new IngestResult(accepted, batch.size() - accepted);
                                        })))));
    }

    private Uni<Void> recordInventory(SqlConnection conn, String cluster, Set<String> changedNodes) {
        if (changedNodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return facts.latestNodes(conn, cluster, changedNodes).chain(latest -> inventory.record(conn, cluster, latest));
    }

    /** Recomputes the segments of these pods from everything the ledger holds about them. */
    Uni<Void> rederive(SqlConnection conn, String cluster, Set<String> podUids) {
        if (podUids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return facts.podVersions(conn, cluster, podUids).chain(versions -> {
            Map<String, List<PodFact>> byPod = versions.stream().collect(Collectors.groupingBy(PodFact::uid));
            Set<String> namespaces = versions.stream().map(PodFact::namespace).collect(Collectors.toSet());
            Set<String> nodes = versions.stream().map(PodFact::nodeName).filter(n -> n != null)
                    .collect(Collectors.toSet());
            return facts.namespaceVersions(conn, cluster, namespaces)
                    .chain(nsFacts -> facts.latestNodes(conn, cluster, nodes)
                            .chain(nodeFacts -> allocations.replace(conn, cluster, podUids,
                                    derive(cluster, byPod, timelines(nsFacts), inventories(nodeFacts)))));
        });
    }

    private List<AllocationSegment> derive(String cluster, Map<String, List<PodFact>> byPod,
                                           Map<String, NamespaceTimeline> timelines, Map<String, NodeInventory> nodes) {
        List<AllocationSegment> segments = new ArrayList<>();
        byPod.forEach((uid, versions) -> {
            PodHistory history = new PodHistory(versions);
            String node = history.placement().map(PodFact::nodeName).orElse(null);
            NodeInventory inventory = node == null ? null : nodes.get(node);
            String namespace = history.latest().namespace();
            segments.addAll(deriver.derive(cluster, history,
                    inventory != null ? inventory : new NodeInventory(node, Map.of(), List.of()),
                    timelines.getOrDefault(namespace, NamespaceTimeline.unknown(namespace))));
        });
        return segments;
    }

    private Map<String, NamespaceTimeline> timelines(List<NamespaceFact> nsFacts) {
        LedgerConfig.Attribution keys = config.attribution();
        Map<String, List<NamespaceFact>> byName = nsFacts.stream().collect(Collectors.groupingBy(NamespaceFact::name));
        Map<String, NamespaceTimeline> timelines = new HashMap<>();
        byName.forEach((name, versions) -> timelines.put(name,
                NamespaceTimeline.of(name, versions, keys.tenantLabel(), keys.teamLabel(), keys.projectLabel())));
        return timelines;
    }

    private static Map<String, NodeInventory> inventories(List<NodeFact> nodeFacts) {
        Map<String, NodeInventory> out = new HashMap<>();
        nodeFacts.forEach(n -> out.put(n.name(), new NodeInventory(n.name(), n.labels(), n.gpus())));
        return out;
    }
}
