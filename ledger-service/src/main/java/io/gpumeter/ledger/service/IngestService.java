package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.ledger.governance.domain.CarriedStatuses;
import io.gpumeter.ledger.governance.service.ChangeBook;
import io.gpumeter.ledger.governance.service.IncidentBooks;
import io.gpumeter.ledger.governance.service.MigBooks;
import io.gpumeter.ledger.repository.BulkLoadStatistics;
import io.gpumeter.ledger.repository.ClaimLinkRepository;
import io.gpumeter.ledger.repository.ClusterLock;
import io.gpumeter.ledger.repository.DraFactRepository;
import io.gpumeter.ledger.repository.FactRepository;
import io.gpumeter.ledger.repository.InventoryRepository;
import io.gpumeter.ledger.repository.ReceivedPayloads;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * Stores a batch of facts (Dynamic Resource Allocation objects included) and re-derives the books of every pod they
 * touch (and the failure books and change book of every node
 * with a new version: cards vanished, MIG reconfigured or inconsistent, labels changed), in one transaction: a batch is stored whole or not at all,
 * and a batch sent twice changes nothing.
 */
@ApplicationScoped
public class IngestService {

    private final Pool pool;
    private final FactRepository facts;
    private final InventoryRepository inventory;
    private final AllocationBooks books;
    private final IncidentBooks incidentBooks;
    private final DraFactRepository dra;
    private final ClaimLinkRepository links;
    private final BulkLoadStatistics statistics;
    private final ChangeBook changes;
    private final MigBooks mig;
    private final FactValidator validator = new FactValidator();

    public IngestService(Pool pool, FactRepository facts, InventoryRepository inventory, AllocationBooks books,
                         IncidentBooks incidentBooks, DraFactRepository dra, ClaimLinkRepository links,
                         BulkLoadStatistics statistics, ChangeBook changes, MigBooks mig) {
        this.pool = pool;
        this.changes = changes;
        this.mig = mig;
        this.statistics = statistics;
        this.dra = dra;
        this.links = links;
        this.incidentBooks = incidentBooks;
        this.facts = facts;
        this.inventory = inventory;
        this.books = books;
    }

    public Uni<IngestResult> ingest(FactBatch batch) {
        return ingest(batch, ReceivedPayloads.none());
    }

    /** As {@link #ingest(FactBatch)}, pod versions that arrived in the written form stored as they came. */
    public Uni<IngestResult> ingest(FactBatch batch, ReceivedPayloads received) {
        validator.validate(batch);
        return pool.withTransaction(conn -> store(conn, batch, received))
                .invoke(result -> statistics.afterCommit(result.accepted()));
    }

    /** Checks a batch before any transaction opens, so a refused batch costs no database work. */
    public void validate(FactBatch batch) {
        validator.validate(batch);
    }

    /**
     * Stores a validated batch and re-derives what it touches, inside the caller's transaction; pod versions that
     * arrived in the written form are stored as they came.
     */
    public Uni<IngestResult> store(SqlConnection conn, FactBatch batch, ReceivedPayloads received) {
        return store(conn, batch, CarriedStatuses.none(), received, pods -> facts.podsInHand(conn, batch.cluster(), pods));
    }

    /** A batch's pod versions taken into hand before its transaction opens ({@link VersionsInHand#taken}). */
    public VersionsInHand<PodFact> takePods(FactBatch batch) {
        return facts.takePods(batch.pods());
    }

    /**
     * As {@link #store(SqlConnection, FactBatch, ReceivedPayloads)}, its pod versions {@code inHand} (given the keys
     * stored before by the caller, {@link VersionsInHand#withKeys}), the new ones carrying the governance views
     * {@code carried} paired with them (ADR 0016).
     */
    public Uni<IngestResult> store(SqlConnection conn, FactBatch batch, CarriedStatuses carried,
                                   ReceivedPayloads received, VersionsInHand<PodFact> inHand) {
        return store(conn, batch, carried, received, pods -> Uni.createFrom().item(inHand));
    }

    private Uni<IngestResult> store(SqlConnection conn, FactBatch batch, CarriedStatuses carried,
                                    ReceivedPayloads received, Function<List<PodFact>, Uni<VersionsInHand<PodFact>>> hold) {
        String cluster = batch.cluster();
        return ClusterLock.take(conn, ClusterLock.INGEST, cluster)
                .chain(() -> facts.insertNamespaces(conn, cluster, batch.namespaces()))
                .chain(namespaces -> facts.insertNodes(conn, cluster, batch.nodes())
                        .chain(nodes -> recordInventory(conn, cluster, nodes.keys(), batch.nodes())
                                .chain(() -> incidentBooks.deriveNodes(conn, cluster, nodes.keys()))
                                .chain(() -> hold.apply(batch.pods()))
                                .chain(inHand -> facts.insertPods(conn, cluster, inHand, carried, received)
                                .chain(pods -> links.linkPods(conn, cluster, batch.pods())
                                        .chain(() -> storeDra(conn, cluster, batch))
                                        .chain(draStored -> facts.podsInNamespaces(conn, cluster, namespaces.keys())
                                        .chain(relabelled -> facts.podsAwaitingNode(conn, cluster, nodes.keys())
                                                .chain(onNodes -> {
                                                    Set<String> affected = new TreeSet<>(pods.keys());
                                                    affected.addAll(relabelled);
                                                    affected.addAll(onNodes);
                                                    affected.addAll(draStored.pods());
                                                    return books.rederive(conn, cluster, affected, inHand);
                                                }))
                                        .map(rederived -> {
                                            int accepted = namespaces.count() + nodes.count() + pods.count()
                                                    + draStored.count();
                                            return new IngestResult(accepted, batch.size() - accepted,
                                                    rederived.skipped(), rederived.findings());
                                        }))))
                                // Last, so the governance lock the change book needs is held only for its derivation.
                                .call(() -> changes.afterNodeVersions(conn, cluster, nodes.keys()))
                                .call(() -> mig.afterNodeVersions(conn, cluster, nodes.keys()))));
    }

    /** How many DRA objects were new, and the pods whose books they may change. */
    private record DraStored(int count, Set<String> pods) {
    }

    /**
     * Stores claims, slices and device classes, and records the cards the slices publish in the inventory. A new
     * claim version re-derives the pods bound to it; a new slice version the pods whose claims were allocated from
     * its pool and are still held or not yet resolved.
     */
    private Uni<DraStored> storeDra(SqlConnection conn, String cluster, FactBatch batch) {
        return dra.insertClaims(conn, cluster, batch.resourceClaims())
                .call(() -> links.linkClaims(conn, cluster, batch.resourceClaims()))
                .chain(claims -> dra.insertSlices(conn, cluster, batch.resourceSlices())
                        .call(() -> inventory.recordSlices(conn, cluster, batch.resourceSlices()))
                        .chain(slices -> dra.insertDeviceClasses(conn, cluster, batch.deviceClasses())
                                .chain(classes -> links.podsOfClaims(conn, cluster, claims.keys())
                                        .chain(ofClaims -> links.podsAwaitingPools(conn, cluster, slices.keys())
                                                .map(ofPools -> {
                                                    Set<String> pods = new TreeSet<>(ofClaims);
                                                    pods.addAll(ofPools);
                                                    return new DraStored(claims.count() + slices.count() + classes.count(), pods);
                                                })))));
    }

    private Uni<Void> recordInventory(SqlConnection conn, String cluster, Set<String> changedNodes,
                                      List<NodeFact> delivered) {
        if (changedNodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return facts.latestNodes(conn, cluster, changedNodes).chain(latest -> inventory.record(conn, cluster, latest,
                delivered.stream().filter(v -> changedNodes.contains(v.name())).toList()));
    }
}
