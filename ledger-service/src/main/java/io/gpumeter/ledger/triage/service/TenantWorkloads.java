package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.common.triage.Triage.SubjectKind;
import io.gpumeter.common.triage.TriageRequest;
import io.gpumeter.ledger.config.LedgerConfig;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;
import io.gpumeter.ledger.governance.service.TenantResolver;
import io.gpumeter.ledger.triage.domain.Holding;
import io.gpumeter.ledger.triage.pending.WaitDiagnosis;
import io.gpumeter.ledger.triage.pending.WaitJudge;
import io.gpumeter.ledger.triage.repository.TenantWorkloadRepository.Held;
import io.gpumeter.ledger.triage.repository.TenantWorkloadRepository.Item;
import io.gpumeter.ledger.triage.repository.TenantWorkloadRepository;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A tenant's workloads at an instant: each pod that holds units of cards (its node and units), and each pod, Kueue
 * Workload and Volcano PodGroup of its namespaces the queue book has not seen finish — why it waits (state, the cause
 * the {@link WaitJudge} decides from the facts at the instant, as the pending read and a triage show it, its place in
 * its queues) or that it is admitted — each with the query that triages it. The tenant's namespaces are those whose
 * tenant at the instant is it. The queue book holds each object's state now: for an earlier instant, an object whose
 * wait had not begun by then is left out.
 */
@ApplicationScoped
public class TenantWorkloads {

    /** One unit a pod holds. */
    public record Unit(String gpuUuid, String kind, String migProfile, BigDecimal fraction, Integer cores, Long memoryMib,
                       Instant since) {
    }

    /**
     * One of the tenant's objects.
     *
     * @param kind        POD, WORKLOAD or POD_GROUP, as a triage names it
     * @param state       HOLDING for a pod that holds units; else the queue book's state (PENDING, EVICTED, INACTIVE, ADMITTED)
     * @param reasonClass of what waits, the cause the facts decide; of what is admitted, the class last said
     * @param triage      the query string of {@code GET /api/v1/triage} that triages it
     */
    public record Workload(String kind, String cluster, String namespace, String name, String uid, String state,
                           String node, List<Unit> units, Instant since, String reasonClass, String rootCauseClass,
                           String reason, String message, String clusterQueue, String localQueue, String volcanoQueue,
                           Integer positionInClusterQueue, Integer positionInLocalQueue, String triage) {
    }

    private final TenantWorkloadRepository repository;
    private final TenantResolver tenants;
    private final WaitJudge judge;
    private final String tenantLabel;

    public TenantWorkloads(TenantWorkloadRepository repository, TenantResolver tenants, WaitJudge judge,
                           LedgerConfig config) {
        this.repository = repository;
        this.tenants = tenants;
        this.judge = judge;
        this.tenantLabel = config.attribution().tenantLabel();
    }

    public Uni<List<Workload>> of(String tenant, String cluster, Instant at) {
        return repository.candidates(cluster, tenantLabel, tenant).chain(candidates -> {
            Map<String, Set<String>> byCluster = new HashMap<>();
            candidates.forEach(s -> byCluster.computeIfAbsent(s.cluster(), c -> new TreeSet<>()).add(s.namespace()));
            return tenants.tenants(byCluster).map(t -> candidates.stream()
                    .filter(s -> tenant.equals(t.at(s.cluster(), s.namespace(), at))).toList());
        }).chain(spaces -> Uni.combine().all().unis(repository.holdings(cluster, tenant, at), repository.items(spaces))
                .asTuple().chain(t -> {
                    List<Item> listed = t.getItem2().stream().filter(i -> listed(i.stored(), at)).toList();
                    List<StoredItem> waiting = listed.stream().map(Item::stored).filter(TenantWorkloads::waits).toList();
                    // every wait judged at once, against the nodes of its own cluster (of each one's, when none is named)
                    return judge.ofStored(cluster != null ? cluster : onlyCluster(waiting), at, waiting)
                            .map(causes -> list(t.getItem1(), listed, causes));
                }));
    }

    private static boolean waits(StoredItem i) {
        return WaitJudge.WAITING.contains(i.state());
    }

    /** Listed at the instant: begun by then, and not a running pod (listed with what it holds instead). */
    private static boolean listed(StoredItem i, Instant at) {
        if (waits(i) && i.waitingSince() != null && i.waitingSince().isAfter(at)
                || i.createdAt() != null && i.createdAt().isAfter(at)) {
            return false;
        }
        return !(i.source() == QueueSource.POD && "ADMITTED".equals(i.state()));
    }

    private static String onlyCluster(List<StoredItem> items) {
        Set<String> clusters = new TreeSet<>();
        items.forEach(i -> clusters.add(i.cluster()));
        return clusters.size() == 1 ? clusters.iterator().next() : null;
    }

    private static List<Workload> list(List<Held> held, List<Item> items, Map<String, WaitDiagnosis> causes) {
        List<Workload> out = new ArrayList<>();
        for (Item item : items) {
            StoredItem i = item.stored();
            boolean waits = waits(i);
            PendingReason reason = waits ? WaitJudge.shownClass(causes.get(WaitJudge.key(i.cluster(), i.source(), i.uid())),
                    i.reasonClass()) : PendingReason.ofLabel(i.reasonClass());
            SubjectKind kind = i.source().subjectKind();
            out.add(new Workload(kind.name(), i.cluster(), i.namespace(), i.name(), i.uid(), i.state(), null, List.of(),
                    waits ? i.waitingSince() : i.createdAt(), reason == null ? null : reason.label(),
                    reason == null ? null : reason.rootCause().label(), i.reason(), i.message(), i.clusterQueue(),
                    i.localQueue(), i.volcanoQueue(), item.positionInClusterQueue(), item.positionInLocalQueue(),
                    query(kind, i.cluster(), i.namespace(), i.name())));
        }
        Set<String> holding = new TreeSet<>();
        Map<String, List<Held>> byPod = new LinkedHashMap<>();
        held.forEach(h -> byPod.computeIfAbsent(h.cluster() + "\n" + h.holding().podUid(), k -> new ArrayList<>()).add(h));
        for (List<Held> units : byPod.values()) {
            Holding first = units.get(0).holding();
            String cluster = units.get(0).cluster();
            if (!holding.add(cluster + "/" + first.podKey())) {
                continue;
            }
            out.add(new Workload(SubjectKind.POD.name(), cluster, first.namespace(), first.pod(), first.podUid(), "HOLDING",
                    first.node(), units.stream().map(u -> unit(u.holding())).toList(),
                    units.stream().map(u -> u.holding().since()).min(Comparator.naturalOrder()).orElse(null), null, null,
                    null, null, null, null, null, null, null, query(SubjectKind.POD, cluster, first.namespace(), first.pod())));
        }
        out.sort(Comparator.comparing((Workload w) -> order(w.state())).thenComparing(Workload::namespace)
                .thenComparing(Workload::name).thenComparing(Workload::kind));
        return out;
    }

    private static Unit unit(Holding h) {
        return new Unit(h.gpuUuid(), h.unitKind(), h.migProfile(), h.fraction() == null ? null : h.fraction().stripTrailingZeros(),
                h.cores(), h.memoryMib(), h.since());
    }

    /** Waiting first (what a tenant asks about), then what holds cards, then what is admitted. */
    private static int order(String state) {
        return switch (state) {
            case "PENDING", "EVICTED", "INACTIVE" -> 0;
            case "HOLDING" -> 1;
            default -> 2;
        };
    }

    private static String query(SubjectKind kind, String cluster, String namespace, String name) {
        return new TriageRequest(kind, cluster, namespace, name, null).query();
    }
}
