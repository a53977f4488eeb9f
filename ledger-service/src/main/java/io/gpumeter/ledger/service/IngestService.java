package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.ledger.governance.service.IncidentBooks;
import io.gpumeter.ledger.repository.FactRepository;
import io.gpumeter.ledger.repository.InventoryRepository;
import io.gpumeter.ledger.repository.ClusterLock;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.Set;
import java.util.TreeSet;

/**
 * Stores a batch of facts and re-derives the books of every pod they touch (and the failure books of every node
 * with a new version: cards vanished, MIG reconfigured), in one transaction: a batch is stored whole or not at all,
 * and a batch sent twice changes nothing.
 */
@ApplicationScoped
public class IngestService {

    private final Pool pool;
    private final FactRepository facts;
    private final InventoryRepository inventory;
    private final AllocationBooks books;
    private final IncidentBooks incidentBooks;
    private final FactValidator validator = new FactValidator();

    public IngestService(Pool pool, FactRepository facts, InventoryRepository inventory, AllocationBooks books,
                         IncidentBooks incidentBooks) {
        this.pool = pool;
        this.incidentBooks = incidentBooks;
        this.facts = facts;
        this.inventory = inventory;
        this.books = books;
    }

    public Uni<IngestResult> ingest(FactBatch batch) {
        validator.validate(batch);
        return pool.withTransaction(conn -> store(conn, batch));
    }

    /** Checks a batch before any transaction opens, so a refused batch costs no database work. */
    public void validate(FactBatch batch) {
        validator.validate(batch);
    }

    /** Stores a validated batch and re-derives what it touches, inside the caller's transaction. */
    public Uni<IngestResult> store(SqlConnection conn, FactBatch batch) {
        String cluster = batch.cluster();
        return ClusterLock.take(conn, ClusterLock.INGEST, cluster)
                .chain(() -> facts.insertNamespaces(conn, cluster, batch.namespaces()))
                .chain(namespaces -> facts.insertNodes(conn, cluster, batch.nodes())
                        .chain(nodes -> recordInventory(conn, cluster, nodes.keys())
                                .chain(() -> incidentBooks.deriveNodes(conn, cluster, nodes.keys()))
                                .chain(() -> facts.insertPods(conn, cluster, batch.pods()))
                                .chain(pods -> facts.podsInNamespaces(conn, cluster, namespaces.keys())
                                        .chain(relabelled -> facts.podsAwaitingNode(conn, cluster, nodes.keys())
                                                .chain(onNodes -> {
                                                    Set<String> affected = new TreeSet<>(pods.keys());
                                                    affected.addAll(relabelled);
                                                    affected.addAll(onNodes);
                                                    return books.rederive(conn, cluster, affected, batch.pods());
                                                }))
                                        .map(skipped -> {
                                            int accepted = namespaces.count() + nodes.count() + pods.count();
                                            return new IngestResult(accepted, batch.size() - accepted, skipped);
                                        }))));
    }

    private Uni<Void> recordInventory(SqlConnection conn, String cluster, Set<String> changedNodes) {
        if (changedNodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return facts.latestNodes(conn, cluster, changedNodes).chain(latest -> inventory.record(conn, cluster, latest));
    }
}
