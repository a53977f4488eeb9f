package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.NodeFact;
import io.gpumeter.common.fact.NodeStatusFact;
import io.gpumeter.common.fact.QueueObjectFact;
import io.gpumeter.common.fact.QueueObjectKind;
import io.gpumeter.common.fact.StackPodFact;
import io.gpumeter.common.fact.StackWorkloadFact;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.governance.domain.BookedChange;
import io.gpumeter.ledger.governance.domain.Change;
import io.gpumeter.ledger.governance.domain.ChangeFold;
import io.gpumeter.ledger.governance.domain.ComponentChanges;
import io.gpumeter.ledger.governance.domain.HeartbeatLabels;
import io.gpumeter.ledger.governance.domain.NodeChanges;
import io.gpumeter.ledger.governance.domain.QuotaChanges;
import io.gpumeter.ledger.governance.domain.SeenDriver;
import io.gpumeter.ledger.governance.repository.ChangeRepository;
import io.gpumeter.ledger.governance.repository.StackFactRepository;
import io.gpumeter.ledger.inventory.domain.NodePools;
import io.gpumeter.ledger.repository.Chunks;
import io.gpumeter.ledger.repository.ClusterLock;
import io.gpumeter.ledger.repository.FactRepository;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * Derives the change book of a scope — a node, a GPU-stack component, a queue — from every stored version of it and
 * replaces the scope's rows, so the book follows the set of versions, never their arrival order. Every writer holds
 * the cluster's governance lock while it derives: the governance intake holds it already; the metering intake, whose
 * node versions the book reads too, takes it after storing them (the allocated ledger's lock first, the order every
 * writer keeps), so a derivation always reads what the one before it stored. A scope whose versions cannot be
 * derived is logged and counted ({@link SkippedBooks}), never failing the batch.
 */
@ApplicationScoped
public class ChangeBook {

    /** Nodes derived per read: their versions are held in memory together. */
    static final int NODES_PER_READ = 200;

    private final FactRepository facts;
    private final StackFactRepository stack;
    private final ChangeRepository changes;
    private final SkippedBooks skipped;
    private final HeartbeatLabels heartbeats;
    private final NodePools pools;

    public ChangeBook(FactRepository facts, StackFactRepository stack, ChangeRepository changes, SkippedBooks skipped,
                      LedgerConfig config) {
        this.facts = facts;
        this.stack = stack;
        this.changes = changes;
        this.skipped = skipped;
        this.heartbeats = new HeartbeatLabels(config.changes().ignoredLabels());
        // A node's change is in its pool as the fragmentation probe names pools, by the same labels.
        this.pools = new NodePools(config.fragmentation().poolLabels());
    }

    /**
     * The rules the book is derived under, to tell a book derived under other ones: the excluded heartbeat labels and
     * the pool labels (each stored change names its node's pool), so that a book stored before either changed — or
     * before changes carried pools — is derived again at start.
     */
    public String rules() {
        return "ignored-labels=" + heartbeats.rules() + ";pool-labels=" + pools.rules();
    }

    /** After the metering intake stored new versions of these nodes: takes the governance lock, then derives them. */
    public Uni<Void> afterNodeVersions(SqlConnection conn, String cluster, Set<String> nodes) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return ClusterLock.take(conn, ClusterLock.GOVERNANCE, cluster).chain(() -> deriveNodes(conn, cluster, nodes));
    }

    /** Re-derives these nodes' changes, under the governance lock the caller holds. */
    public Uni<Void> deriveNodes(SqlConnection conn, String cluster, Collection<String> nodes) {
        Set<String> named = new TreeSet<>(nodes);
        named.remove("");
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (List<String> slice : Chunks.of(named, NODES_PER_READ)) {
            chain = chain.chain(() -> nodeSlice(conn, cluster, slice));
        }
        return chain;
    }

    private Uni<Void> nodeSlice(SqlConnection conn, String cluster, List<String> nodes) {
        return facts.nodeVersions(conn, cluster, nodes)
                .chain(labels -> stack.statusVersions(conn, cluster, nodes)
                        .chain(statuses -> stack.podsOn(conn, cluster, nodes)
                                .chain(pods -> stack.sightings(conn, cluster, nodes, null)
                                        .chain(seen -> Chunks.offLoop(() -> nodeBook(cluster, nodes, labels, statuses, pods, seen))))))
                .chain(book -> changes.replace(conn, cluster, nodes.stream().map(NodeChanges::scope).toList(), book));
    }

    private List<BookedChange> nodeBook(String cluster, List<String> nodes, List<NodeFact> labels,
                                        List<NodeStatusFact> statuses, List<StackPodFact> pods, List<SeenDriver> seen) {
        Map<String, List<NodeFact>> labelsOf = labels.stream().collect(Collectors.groupingBy(NodeFact::name));
        Map<String, List<NodeStatusFact>> statusOf = statuses.stream().collect(Collectors.groupingBy(NodeStatusFact::name));
        Map<String, List<StackPodFact>> podsOf = pods.stream().collect(Collectors.groupingBy(StackPodFact::node));
        Map<String, List<SeenDriver>> seenOf = seen.stream().collect(Collectors.groupingBy(SeenDriver::node));
        List<BookedChange> book = new ArrayList<>();
        for (String node : nodes) {
            skipped.derive("changes", "changes of node " + node, () -> book.addAll(ChangeFold.fold(cluster,
                    NodeChanges.derive(node, labelsOf.getOrDefault(node, List.of()), statusOf.getOrDefault(node, List.of()),
                            podsOf.getOrDefault(node, List.of()), seenOf.getOrDefault(node, List.of()), heartbeats,
                            pools))));
        }
        return book;
    }

    /** Re-derives the cluster-wide version changes of these GPU-stack components. */
    public Uni<Void> deriveComponents(SqlConnection conn, String cluster, Collection<String> components) {
        if (components.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return stack.workloadsOf(conn, cluster, components).chain(versions -> {
            Map<String, List<StackWorkloadFact>> byComponent = versions.stream()
                    .collect(Collectors.groupingBy(StackWorkloadFact::component));
            List<Change> found = new ArrayList<>();
            for (String component : components) {
                skipped.derive("changes", "changes of component " + component, () -> found.addAll(
                        ComponentChanges.derive(component, byComponent.getOrDefault(component, List.of()))));
            }
            return changes.replace(conn, cluster, components.stream().map(ComponentChanges::scope).toList(),
                    ChangeFold.fold(cluster, found));
        });
    }

    /**
     * Re-derives the quota changes of these queue objects (kind/namespace/name, as the queue object insert keys them);
     * those of kinds that carry no quota of their own are passed over.
     */
    public Uni<Void> deriveQueues(SqlConnection conn, String cluster, Collection<String> keys) {
        List<String> quota = keys.stream().filter(ChangeBook::carriesQuota).toList();
        if (quota.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return stack.queueVersions(conn, cluster, quota).chain(versions -> {
            Map<String, List<QueueObjectFact>> byQueue = versions.stream()
                    .collect(Collectors.groupingBy(q -> q.kind().name() + "/" + q.name()));
            List<Change> found = new ArrayList<>();
            List<String> scopes = new ArrayList<>();
            for (String key : quota) {
                String[] parts = key.split("/", 3);
                QueueObjectKind kind = QueueObjectKind.valueOf(parts[0]);
                scopes.add(QuotaChanges.scope(kind, parts[2]));
                skipped.derive("changes", "changes of " + key, () -> found.addAll(QuotaChanges.derive(kind, parts[2],
                        byQueue.getOrDefault(kind.name() + "/" + parts[2], List.of()))));
            }
            return changes.replace(conn, cluster, scopes, ChangeFold.fold(cluster, found));
        });
    }

    private static boolean carriesQuota(String key) {
        String kind = key.substring(0, Math.max(0, key.indexOf('/')));
        return QuotaChanges.KINDS.stream().anyMatch(k -> k.name().equals(kind));
    }
}
