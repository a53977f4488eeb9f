package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.problem.Params;
import io.gpumeter.common.triage.PendingReason;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.domain.QueueWaitRow;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredPosition;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredWait;
import io.gpumeter.ledger.governance.repository.QueueBookRepository;
import io.gpumeter.ledger.triage.pending.WaitDiagnosis;
import io.gpumeter.ledger.triage.pending.WaitJudge;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/** Checklist 3: the queue-wait distribution per group, and what waits now. */
@ApplicationScoped
public class QueueWaitService {

    static final Duration MAX_WINDOW = Duration.ofDays(400);

    /** What queue waits can be grouped by, and which waits each grouping covers. */
    public enum GroupBy {
        CLUSTER_QUEUE("clusterQueue", Set.of(QueueSource.KUEUE)),
        LOCAL_QUEUE("localQueue", Set.of(QueueSource.KUEUE)),
        TENANT("tenant", Set.of(QueueSource.KUEUE, QueueSource.VOLCANO)),
        VOLCANO_QUEUE("volcanoQueue", Set.of(QueueSource.VOLCANO)),
        SCHEDULER("scheduler", Set.of(QueueSource.POD));

        final String label;
        final Set<QueueSource> sources;

        GroupBy(String label, Set<QueueSource> sources) {
            this.label = label;
            this.sources = sources;
        }

        static GroupBy parse(String text) {
            return Params.oneOf("groupBy", text == null || text.isBlank() ? "clusterQueue" : text, values(), g -> g.label);
        }
    }

    /**
     * One object that waits now. {@code reasonClass} is the cause the facts decide ({@link WaitJudge}: the nodes, the
     * device plugins, the holdings, the queue's quota and place), {@code reason} and {@code message} what was said.
     * For a Kueue Workload the visibility API listed: its place in its queues as last read ({@code positionObservedAt};
     * 0 = next to be considered) and its priority; null otherwise.
     */
    public record Pending(String cluster, String source, String namespace, String name, String clusterQueue,
                          String localQueue, String volcanoQueue, String scheduler, String state, Instant waitingSince,
                          BigDecimal ageSeconds, String reasonClass, String rootCauseClass, String reason,
                          String message, int rejections, Integer priority, Integer positionInClusterQueue,
                          Integer positionInLocalQueue, Instant positionObservedAt) {
    }

    private final QueueBookRepository books;
    private final TenantResolver tenants;
    private final WaitJudge judge;

    public QueueWaitService(QueueBookRepository books, TenantResolver tenants, WaitJudge judge) {
        this.books = books;
        this.tenants = tenants;
        this.judge = judge;
    }

    public Uni<List<QueueWaitRow>> distribution(Instant from, Instant to, String groupBy, String cluster) {
        GroupBy group = GroupBy.parse(groupBy);
        window(from, to);
        return books.waits(from, to, cluster, group.sources).chain(waits -> {
            if (group != GroupBy.TENANT) {
                return Uni.createFrom().item(rows(waits, key(group)));
            }
            return tenants.tenants(TenantResolver.namespaces(waits, StoredWait::cluster, StoredWait::namespace))
                    .map(t -> rows(waits, w -> t.at(w.cluster(), w.namespace(), w.admittedAt())));
        });
    }

    public Uni<List<Pending>> pending(String cluster, Instant at) {
        return books.waiting(cluster).chain(items -> books.latestPositions(cluster)
                .chain(positions -> judge.ofStored(cluster, at, items)
                        .map(causes -> items.stream().map(i -> pending(i, at, i.source() == QueueSource.KUEUE
                                ? positions.get(i.cluster() + "|" + i.namespace() + "|" + i.name()) : null,
                                causes.get(WaitJudge.key(i.cluster(), i.source(), i.uid())))).toList())));
    }

    private static Pending pending(StoredItem i, Instant at, StoredPosition position, WaitDiagnosis cause) {
        PendingReason cls = WaitJudge.shownClass(cause, i.reasonClass());
        BigDecimal age = i.waitingSince() == null ? null
                : BigDecimal.valueOf(Math.max(0, Duration.between(i.waitingSince(), at).toMillis()), 3).stripTrailingZeros();
        return new Pending(i.cluster(), i.source().name().toLowerCase(Locale.ROOT), i.namespace(), i.name(),
                i.clusterQueue(), i.localQueue(), i.volcanoQueue(), i.scheduler(), i.state(), i.waitingSince(), age,
                cls == null ? null : cls.label(), cls == null ? null : cls.rootCause().label(), i.reason(), i.message(),
                i.rejections(),
                position == null ? null : position.priority(),
                position == null ? null : position.positionInClusterQueue(),
                position == null ? null : position.positionInLocalQueue(),
                position == null ? null : position.observedAt());
    }

    private static Function<StoredWait, String> key(GroupBy group) {
        return switch (group) {
            case CLUSTER_QUEUE -> StoredWait::clusterQueue;
            case LOCAL_QUEUE -> w -> w.localQueue() == null ? null : w.namespace() + "/" + w.localQueue();
            case VOLCANO_QUEUE -> StoredWait::volcanoQueue;
            case SCHEDULER -> StoredWait::scheduler;
            case TENANT -> StoredWait::namespace;
        };
    }

    private static List<QueueWaitRow> rows(List<StoredWait> waits, Function<StoredWait, String> key) {
        Map<String, List<Long>> byKey = new TreeMap<>();
        for (StoredWait w : waits) {
            String k = key.apply(w);
            byKey.computeIfAbsent(k == null ? "unknown" : k, x -> new ArrayList<>()).add(w.waitMillis());
        }
        List<QueueWaitRow> rows = new ArrayList<>();
        byKey.forEach((k, v) -> rows.add(QueueWaitRow.of(k, v)));
        return rows;
    }

    static void window(Instant from, Instant to) {
        Params.window(from, to, MAX_WINDOW);
    }
}
