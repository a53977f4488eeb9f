package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.governance.domain.CarriedStatuses;
import io.gpumeter.ledger.governance.repository.GovernanceFactRepository;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.governance.repository.StackFactRepository;
import io.gpumeter.ledger.repository.BulkLoadStatistics;
import io.gpumeter.ledger.repository.ClusterLock;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * Stores a governance batch and re-derives the books of every object it touches (the change book of every node,
 * GPU-stack component and queue with a new version among them, the MIG consistency of every node with a new status), in one transaction: a batch is stored whole or not
 * at all, and a batch sent twice changes nothing.
 */
@ApplicationScoped
public class GovernanceIngestService {

    private final Pool pool;
    private final GovernanceFactRepository facts;
    private final GovernanceDeriver deriver;
    private final BulkLoadStatistics statistics;
    private final GovernanceSourceRepository source;
    private final StackFactRepository stack;
    private final ChangeBook changes;
    private final MigBooks mig;
    private final GovernanceValidator validator = new GovernanceValidator();

    public GovernanceIngestService(Pool pool, GovernanceFactRepository facts, GovernanceDeriver deriver,
                                   GovernanceSourceRepository source, BulkLoadStatistics statistics,
                                   StackFactRepository stack, ChangeBook changes, MigBooks mig) {
        this.pool = pool;
        this.mig = mig;
        this.stack = stack;
        this.changes = changes;
        this.statistics = statistics;
        this.source = source;
        this.facts = facts;
        this.deriver = deriver;
    }

    public Uni<IngestResult> ingest(GovernanceBatch batch) {
        validator.validate(batch);
        return pool.withTransaction(conn -> store(conn, batch)).invoke(result -> statistics.afterCommit(result.accepted()));
    }

    /** Checks a batch before any transaction opens, so a refused batch costs no database work. */
    public void validate(GovernanceBatch batch) {
        validator.validate(batch);
    }

    /** Stores a validated batch and re-derives what it touches, inside the caller's transaction. */
    public Uni<IngestResult> store(SqlConnection conn, GovernanceBatch batch) {
        return lockAndHold(conn, batch).chain(inHand -> store(conn, batch, inHand, CarriedStatuses.none()));
    }

    /**
     * The first step of storing a batch: takes the cluster's governance lock, then the batch's governance views of
     * pods into hand with the keys of those stored before (see {@link VersionsInHand}).
     */
    public Uni<VersionsInHand<PodStatusFact>> lockAndHold(SqlConnection conn, GovernanceBatch batch) {
        return lock(conn, batch).chain(() -> source.podsInHand(conn, batch.cluster(), batch.podStatuses()));
    }

    /** The cluster's governance lock, for a caller that reads the keys stored before itself ({@link #take}). */
    public Uni<Void> lock(SqlConnection conn, GovernanceBatch batch) {
        return ClusterLock.take(conn, ClusterLock.GOVERNANCE, batch.cluster());
    }

    /**
     * The batch's views of pods taken into hand before its transaction, for a caller that gives them the keys of the
     * views stored before once it holds {@link #lock} ({@link VersionsInHand#withKeys}).
     */
    public VersionsInHand<PodStatusFact> take(GovernanceBatch batch) {
        return source.takePods(batch.podStatuses());
    }

    /**
     * Stores a validated batch after {@link #lockAndHold}, its views of pods in {@code podsInHand}; those the pod
     * versions of its bundle carry ({@code carried}) were stored with them and count as stored here.
     */
    public Uni<IngestResult> store(SqlConnection conn, GovernanceBatch batch, VersionsInHand<PodStatusFact> podsInHand,
                                   CarriedStatuses carried) {
        String cluster = batch.cluster();
        Touched t = new Touched(podsInHand);
        return Uni.createFrom().voidItem()
                .chain(() -> facts.insertQueueObjects(conn, cluster, batch.queueObjects())).invoke(i -> {
                    t.count(i);
                    t.queues.addAll(i.keys());
                })
                .chain(() -> facts.insertVolcanoJobs(conn, cluster, batch.volcanoJobs())).invoke(t::count)
                .chain(() -> facts.insertWorkloads(conn, cluster, batch.workloads())).invoke(i -> {
                    t.count(i);
                    t.workloads.addAll(i.keys());
                })
                .chain(() -> facts.insertPodGroups(conn, cluster, batch.podGroups())).invoke(i -> {
                    t.count(i);
                    t.podGroups.addAll(i.keys());
                })
                .chain(() -> facts.insertPodStatuses(conn, cluster, t.podsInHand, carried)).invoke(i -> {
                    t.count(i);
                    t.pods.addAll(i.keys());
                })
                .chain(() -> facts.insertEvents(conn, cluster, batch.events())).invoke(t::events)
                .chain(() -> facts.insertLogSignals(conn, cluster, batch.logSignals())).invoke(i -> {
                    t.count(i);
                    t.podNames.addAll(i.keys());
                })
                .chain(() -> facts.insertXids(conn, cluster, batch.xids())).invoke(i -> {
                    t.count(i);
                    t.cards.addAll(i.keys());
                    batch.xids().stream().map(XidFact::gpuUuid).filter(u -> u != null && !u.isBlank()).forEach(t.cardUuids::add);
                })
                .chain(() -> facts.insertGpuAddresses(conn, cluster, batch.gpuAddresses())).invoke(i -> {
                    t.count(i);
                    t.cards.addAll(i.keys());
                    batch.gpuAddresses().forEach(a -> t.cardUuids.add(a.gpuUuid()));
                })
                .chain(() -> facts.insertPendingPositions(conn, cluster, batch.pendingPositions())).invoke(t::count)
                .chain(() -> stack.insertNodeStatuses(conn, cluster, batch.nodeStatuses())).invoke(i -> {
                    t.changedNodes(i);
                    t.statusNodes.addAll(i.keys());
                })
                .chain(() -> stack.insertStackWorkloads(conn, cluster, batch.stackWorkloads())).invoke(i -> {
                    t.count(i);
                    t.components.addAll(i.keys());
                })
                .chain(() -> stack.insertStackPods(conn, cluster, batch.stackPods())).invoke(t::changedNodes)
                .chain(() -> stack.insertDriverSightings(conn, cluster, batch.driverSightings())).invoke(t::changedNodes)
                .chain(() -> deriver.derive(conn, cluster, t))
                .chain(() -> changes.deriveNodes(conn, cluster, t.changeNodes))
                .chain(() -> mig.derive(conn, cluster, t.statusNodes))
                .chain(() -> changes.deriveComponents(conn, cluster, t.components))
                .chain(() -> changes.deriveQueues(conn, cluster, t.queues))
                .map(ignored -> new IngestResult(t.accepted, batch.size() - t.accepted));
    }
}
