package io.gpumeter.ledger.service;

import io.gpumeter.common.fact.BundleResult;
import io.gpumeter.common.fact.FactBatch;
import io.gpumeter.common.fact.FactBundle;
import io.gpumeter.common.fact.GovernanceBatch;
import io.gpumeter.common.fact.IngestResult;
import io.gpumeter.common.fact.PodFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.problem.ApiProblem;
import io.gpumeter.ledger.governance.domain.CarriedStatuses;
import io.gpumeter.ledger.governance.service.GovernanceIngestService;
import io.gpumeter.ledger.repository.BulkLoadStatistics;
import io.gpumeter.ledger.repository.Chunks;
import io.gpumeter.ledger.repository.ClusterLock;
import io.gpumeter.ledger.repository.PodKeysBefore;
import io.gpumeter.ledger.repository.ReceivedPayloads;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Stores a request's metering and governance facts in one transaction, so a refused request has stored nothing.
 * The allocated ledger's lock is taken before the governance lock, the order every other writer keeps.
 */
@ApplicationScoped
public class BundleIngestService {

    private static final IngestResult NOTHING = new IngestResult(0, 0);

    private final Pool pool;
    private final IngestService metering;
    private final GovernanceIngestService governance;
    private final BulkLoadStatistics statistics;

    public BundleIngestService(Pool pool, IngestService metering, GovernanceIngestService governance,
                               BulkLoadStatistics statistics) {
        this.pool = pool;
        this.metering = metering;
        this.governance = governance;
        this.statistics = statistics;
    }

    public Uni<BundleResult> ingest(FactBundle sent) {
        return ingest(sent, ReceivedPayloads.none());
    }

    /** As {@link #ingest(FactBundle)}, pod versions that arrived in the written form stored as they came. */
    public Uni<BundleResult> ingest(FactBundle sent, ReceivedPayloads received) {
        return store(sent, received).invoke(result -> statistics.afterCommit(
                (long) result.facts().accepted() + result.governance().accepted()));
    }

    private Uni<BundleResult> store(FactBundle sent, ReceivedPayloads received) {
        return Chunks.offLoop(() -> taken(sent)).chain(taken -> taken.bothHalves() ? storeTogether(taken, received)
                : storeApart(taken, received));
    }

    /**
     * A bundle made whole and validated, and, when it has both halves, its pod versions and their views taken into
     * hand and paired as if all were new (ADR 0016): all of it before the transaction, on a worker thread, so that a
     * bulk load's tens of thousands of versions are grouped and paired while the cluster lock is still another
     * request's, and the event loops that run the transactions' statements are not kept waiting.
     */
    private record Taken(FactBatch facts, GovernanceBatch governed, VersionsInHand<PodFact> pods,
                         VersionsInHand<PodStatusFact> views, Map<PodStatusFact, CarriedStatuses.Sent> sentAs,
                         CarriedStatuses allNew, Set<String> podUids) {

        /** Whether the bundle has facts and governance: only then were pods and views taken into hand. */
        boolean bothHalves() {
            return pods != null;
        }
    }

    private Taken taken(FactBundle sent) {
        FactBundle bundle = whole(sent);
        FactBatch facts = bundle.facts();
        GovernanceBatch governed = bundle.governance();
        if (facts != null) {
            metering.validate(facts);
        }
        if (governed != null) {
            governance.validate(governed);
        }
        if (facts == null || governed == null) {
            return new Taken(facts, governed, null, null, Map.of(), CarriedStatuses.none(), Set.of());
        }
        if (!Objects.equals(facts.cluster(), governed.cluster())) {
            throw ApiProblem.badRequest("governance.cluster", "both halves of a bundle must name the same cluster");
        }
        VersionsInHand<PodFact> pods = metering.takePods(facts);
        VersionsInHand<PodStatusFact> views = governance.take(governed);
        Map<PodStatusFact, CarriedStatuses.Sent> sentAs = CarriedStatuses.sentIn(sent, bundle);
        return new Taken(facts, governed, pods, views, sentAs, paired(views, pods, sentAs), podUids(facts, governed));
    }

    private Uni<BundleResult> storeApart(Taken taken, ReceivedPayloads received) {
        FactBatch facts = taken.facts();
        GovernanceBatch governed = taken.governed();
        return pool.withTransaction(conn -> (facts == null ? Uni.createFrom().item(NOTHING) : metering.store(conn, facts, received))
                .chain(stored -> (governed == null ? Uni.createFrom().item(NOTHING) : governance.store(conn, governed))
                        .map(governedResult -> new BundleResult(stored, governedResult))));
    }

    /**
     * Both halves: the governance views of pods are taken into hand before the pod versions are stored, so that the
     * new versions carry the new views they agree with (ADR 0016) in one row per pod event. Under the lock, the keys
     * stored before tell whether every version and view is new, as paired, or the pairing is made again from those
     * that are.
     */
    private Uni<BundleResult> storeTogether(Taken taken, ReceivedPayloads received) {
        FactBatch facts = taken.facts();
        GovernanceBatch governed = taken.governed();
        VersionsInHand<PodFact> pods = taken.pods();
        VersionsInHand<PodStatusFact> views = taken.views();
        return pool.withTransaction(conn -> ClusterLock.take(conn, ClusterLock.INGEST, facts.cluster())
                .chain(() -> governance.lock(conn, governed))
                .chain(() -> PodKeysBefore.read(conn, facts.cluster(), taken.podUids()))
                .chain(keys -> {
                    pods.withKeys(keys.podVersions());
                    views.withKeys(keys.podStatuses());
                    CarriedStatuses carried = pods.everyVersionNew() && views.everyVersionNew() ? taken.allNew()
                            : paired(views, pods, taken.sentAs());
                    return metering.store(conn, facts, carried, received, pods)
                            .chain(stored -> governance.store(conn, governed, views, carried)
                                    .map(governedResult -> new BundleResult(stored, governedResult)));
                }));
    }

    /** The new views the new pod versions carry, each version paired once, before any is inserted. */
    private static CarriedStatuses paired(VersionsInHand<PodStatusFact> views, VersionsInHand<PodFact> pods,
                                          Map<PodStatusFact, CarriedStatuses.Sent> sentAs) {
        CarriedStatuses carried = CarriedStatuses.offered(views.unstoredFacts(), sentAs);
        carried.pairWith(pods.unstoredFacts());
        return carried;
    }

    private static Set<String> podUids(FactBatch facts, GovernanceBatch governed) {
        Set<String> uids = new HashSet<>();
        facts.pods().forEach(p -> uids.add(p.uid()));
        governed.podStatuses().forEach(p -> uids.add(p.uid()));
        return uids;
    }

    /** The bundle with its governance views whole, the carried ones made from their pod versions. */
    private static FactBundle whole(FactBundle bundle) {
        if (bundle == null || (bundle.facts() == null && bundle.governance() == null && bundle.carriedStatuses().isEmpty())) {
            throw ApiProblem.badRequest("facts", "a bundle needs facts, governance or both");
        }
        int carried = bundle.carriedStatuses().size();
        if (carried > 0 && (bundle.facts() == null || bundle.facts().pods().size() != carried)) {
            throw ApiProblem.badRequest("carriedStatuses", "has " + carried + " entries for "
                    + (bundle.facts() == null ? 0 : bundle.facts().pods().size())
                    + " pod versions in facts.pods: carried governance views come one for each pod version, in order");
        }
        return bundle.expanded();
    }
}
