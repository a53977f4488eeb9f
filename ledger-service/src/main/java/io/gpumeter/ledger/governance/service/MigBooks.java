package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.UsageBatch;
import io.gpumeter.common.fact.UsagePartial;
import io.gpumeter.common.fact.UsageSample;
import io.gpumeter.common.fact.UsageScope;
import io.gpumeter.ledger.config.GovernanceConfig;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.domain.MigConsistency;
import io.gpumeter.ledger.governance.domain.MigLayouts;
import io.gpumeter.ledger.governance.domain.MigNodeVersion;
import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.gpumeter.ledger.governance.repository.MigRepository;
import io.gpumeter.ledger.repository.Chunks;
import io.gpumeter.ledger.repository.ClusterLock;
import io.quarkus.runtime.Startup;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;
import org.jboss.logging.Logger;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The {@code mig-inconsistent} incidents (scope {@code mig}, one subject per node): derived, under the cluster's
 * governance lock, whenever a node's label or status versions arrive or dcgm-exporter reports a MIG instance not seen
 * before on it, and again when a node's disagreement is due without new facts ({@link MigRecheckJob}). Each derivation
 * reads every version of the node and replaces its rows, like every failure book.
 */
@ApplicationScoped
@Startup
public class MigBooks {

    private static final Logger LOG = Logger.getLogger(MigBooks.class);
    /** Nodes derived per read: their versions are held in memory together. */
    static final int NODES_PER_READ = 200;

    private final Pool pool;
    private final MigRepository mig;
    private final IncidentRepository incidents;
    private final SkippedBooks skipped;
    private final Clock clock;
    private final GovernanceConfig.Mig config;
    private final MigConsistency consistency;

    public MigBooks(Pool pool, MigRepository mig, IncidentRepository incidents, SkippedBooks skipped, Clock clock,
                    LedgerConfig config) {
        this.pool = pool;
        this.mig = mig;
        this.incidents = incidents;
        this.skipped = skipped;
        this.clock = clock;
        this.config = config.mig();
        this.consistency = new MigConsistency(layouts(this.config), this.config.grace(), this.config.instanceStaleness());
    }

    /**
     * The GPU Operator's default layouts with the configured files over them, read once at start: a file that cannot be
     * read or parsed stops the start, naming the file and the layout at fault.
     */
    static MigLayouts layouts(GovernanceConfig.Mig config) {
        MigLayouts out = MigLayouts.defaults();
        for (String file : config.layoutFiles().orElse(List.of())) {
            try {
                out = out.with(Files.readString(Path.of(file), StandardCharsets.UTF_8), file);
            } catch (IOException e) {
                throw new UncheckedIOException("gpumeter.ledger.mig.layout-files: " + file + " cannot be read", e);
            }
        }
        LOG.infof("MIG consistency knows %d layouts", out.size());
        return out;
    }

    /**
     * Records the MIG instances a usage delivery reports, under the ingest lock the delivery holds; when one is new on
     * a node, takes the governance lock and derives that node.
     */
    public Uni<Void> recordInstances(SqlConnection conn, String cluster, UsageBatch batch) {
        List<UsageSample> reports = instanceReports(batch);
        if (reports.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return mig.recordInstances(conn, cluster, reports, config.instanceStaleness()).chain(nodes -> nodes.isEmpty()
                ? Uni.createFrom().voidItem()
                : ClusterLock.take(conn, ClusterLock.GOVERNANCE, cluster).chain(() -> derive(conn, cluster, nodes)));
    }

    /**
     * The reports that name an instance's card, node and profile: every such sample, and the first and last value of
     * every such partial, which is all a run keeps.
     */
    static List<UsageSample> instanceReports(UsageBatch batch) {
        List<UsageSample> out = new ArrayList<>();
        batch.samples().stream().filter(MigBooks::namesInstance).forEach(out::add);
        for (UsagePartial p : batch.partials()) {
            if (p.size() > 0 && namesInstance(p.sample(0))) {
                out.addAll(p.earliestAndLatest());
            }
        }
        return out;
    }

    private static boolean namesInstance(UsageSample s) {
        return s.scope() == UsageScope.MIG_INSTANCE && present(s.node()) && present(s.gpuUuid())
                && present(s.scopeKey()) && present(s.migProfile());
    }

    private static boolean present(String s) {
        return s != null && !s.isBlank();
    }

    /** After new versions of these nodes, under the governance lock the caller holds. */
    public Uni<Void> derive(SqlConnection conn, String cluster, Collection<String> nodes) {
        Set<String> named = new TreeSet<>(nodes);
        named.remove("");
        Uni<Void> chain = Uni.createFrom().voidItem();
        for (List<String> slice : Chunks.of(named, NODES_PER_READ)) {
            chain = chain.chain(() -> deriveSlice(conn, cluster, slice));
        }
        return chain;
    }

    /** After new versions of these nodes stored under the ingest lock alone: takes the governance lock first. */
    public Uni<Void> afterNodeVersions(SqlConnection conn, String cluster, Collection<String> nodes) {
        if (nodes.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return ClusterLock.take(conn, ClusterLock.GOVERNANCE, cluster).chain(() -> derive(conn, cluster, nodes));
    }

    private Uni<Void> deriveSlice(SqlConnection conn, String cluster, List<String> nodes) {
        Instant now = clock.instant();
        return mig.versions(conn, cluster, nodes).chain(versions -> mig.runs(conn, cluster, nodes).chain(runs -> {
            List<Incident> found = new ArrayList<>();
            Map<String, Instant> due = new HashMap<>();
            for (String node : nodes) {
                due.put(node, null);
                skipped.derive("mig", "MIG consistency of node " + node, () -> {
                    MigConsistency.Result r = consistency.derive(node, versions.getOrDefault(node, List.of()),
                            runs.getOrDefault(node, List.of()), now);
                    found.addAll(r.incidents());
                    due.put(node, r.recheckAt());
                });
            }
            return incidents.replace(conn, cluster, MigConsistency.SCOPE, nodes, found)
                    .chain(() -> mig.recheck(conn, cluster, due));
        }));
    }

    /** A node's MIG views at an instant, from what is stored up to it. */
    public Uni<MigConsistency.View> at(SqlClient db, String cluster, String node, Instant at) {
        return mig.versions(db, cluster, List.of(node)).chain(versions -> mig.runs(db, cluster, List.of(node))
                .map(runs -> consistency.at(upTo(versions.getOrDefault(node, List.of()), at),
                        runs.getOrDefault(node, List.of()).stream().filter(r -> !r.firstSeen().isAfter(at)).toList(), at)));
    }

    private static List<MigNodeVersion> upTo(List<MigNodeVersion> versions, Instant at) {
        return versions.stream().filter(v -> !v.at().isAfter(at)).toList();
    }

    /**
     * Derives again the nodes due by now, one cluster per transaction under its governance lock; returns how many
     * nodes were derived.
     */
    public Uni<Integer> recheckDue() {
        return mig.due(pool, clock.instant()).chain(byCluster -> {
            Uni<Integer> chain = Uni.createFrom().item(0);
            for (Map.Entry<String, List<String>> e : byCluster.entrySet()) {
                chain = chain.chain(done -> pool.withTransaction(conn -> ClusterLock.take(conn, ClusterLock.GOVERNANCE, e.getKey())
                                .chain(() -> derive(conn, e.getKey(), e.getValue())))
                        .replaceWith(done + e.getValue().size()));
            }
            return chain;
        });
    }
}
