package io.gpumeter.ledger.triage.service;

import io.gpumeter.common.triage.Triage;
import io.gpumeter.ledger.governance.repository.QueueBookRepository.StoredItem;
import io.gpumeter.ledger.governance.repository.QueueBookRepository;
import io.gpumeter.ledger.triage.pending.WaitDiagnosis;
import io.gpumeter.ledger.triage.pending.WaitJudge;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What else waits at the instant with the same cause, judged by the same tree in one bulk pass over the queue book:
 * within the same queue for a queue's cause, on a shared node for a node's, anywhere in the cluster else. The book
 * holds what waits now: a wait that ended between the instant and now is not among them.
 */
@ApplicationScoped
public class AlikeWaits {

    private final QueueBookRepository books;
    private final WaitJudge judge;

    public AlikeWaits(QueueBookRepository books, WaitJudge judge) {
        this.books = books;
        this.judge = judge;
    }

    /**
     * The other waits showing the same cause at the instant, and the cause of every wait going on then.
     *
     * @param names      "namespace/name" of each, sorted
     * @param named      each as the answer names it, its tenant left to the caller
     * @param stillGoing the cause of every wait going on at the instant, keyed {@link WaitJudge#key}
     */
    public record Alike(List<String> names, List<Triage.Named> named, Map<String, WaitDiagnosis> stillGoing) {
    }

    /**
     * @param self        the subject's {@link WaitJudge#key}
     * @param queueOfSelf the subject's queue ("cq:" or "vq:" and its name) when its stored item may not say it
     */
    public Uni<Alike> of(String cluster, Instant at, String self, WaitDiagnosis d, String queueOfSelf) {
        return books.waiting(cluster).chain(all -> {
            List<StoredItem> items = all.stream().filter(i -> i.waitingSince() == null || !i.waitingSince().isAfter(at))
                    .toList();
            return judge.ofStored(cluster, at, items).map(causes -> {
                String queue = queueOfSelf;
                for (StoredItem i : items) {
                    if (WaitJudge.key(i.cluster(), i.source(), i.uid()).equals(self) && queue == null) {
                        queue = queueOf(i);
                    }
                }
                List<String> names = new ArrayList<>();
                List<Triage.Named> named = new ArrayList<>();
                for (StoredItem i : items) {
                    String key = WaitJudge.key(i.cluster(), i.source(), i.uid());
                    WaitDiagnosis other = causes.get(key);
                    if (key.equals(self) || other == null || !other.cause().equals(d.cause())) {
                        continue;
                    }
                    boolean near = switch (d.scope()) {
                        case "QUEUE" -> queue == null || queue.equals(queueOf(i));
                        case "NODE" -> d.nodes().isEmpty() || other.nodes().stream().anyMatch(d.nodes()::contains);
                        default -> true;
                    };
                    if (near) {
                        names.add(i.namespace() + "/" + i.name());
                        named.add(new Triage.Named(i.source().subjectKind(), i.namespace(), i.name(), null));
                    }
                }
                return new Alike(names.stream().distinct().sorted().toList(), named, causes);
            });
        });
    }

    private static String queueOf(StoredItem i) {
        return i.clusterQueue() != null ? "cq:" + i.clusterQueue() : i.volcanoQueue() != null ? "vq:" + i.volcanoQueue() : null;
    }
}
