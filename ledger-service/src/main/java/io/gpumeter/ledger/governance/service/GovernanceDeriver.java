package io.gpumeter.ledger.governance.service;

import io.gpumeter.common.fact.EventFact;
import io.gpumeter.common.fact.GpuAddressFact;
import io.gpumeter.common.fact.LogSignalFact;
import io.gpumeter.common.fact.PodGroupFact;
import io.gpumeter.common.fact.PodStatusFact;
import io.gpumeter.common.fact.WorkloadFact;
import io.gpumeter.common.fact.XidFact;
import io.gpumeter.ledger.governance.domain.GpuIncidents;
import io.gpumeter.ledger.governance.domain.Incident;
import io.gpumeter.ledger.governance.domain.Neighbourhood;
import io.gpumeter.ledger.governance.domain.PodGroupTrail;
import io.gpumeter.ledger.governance.domain.PodIncidents;
import io.gpumeter.ledger.governance.domain.PodTrail;
import io.gpumeter.ledger.governance.domain.QueueSource;
import io.gpumeter.ledger.governance.domain.QueueState;
import io.gpumeter.ledger.governance.domain.WaitEpisode;
import io.gpumeter.ledger.governance.domain.WorkloadTrail;
import io.gpumeter.ledger.governance.repository.GovernanceSourceRepository;
import io.gpumeter.ledger.governance.repository.IncidentRepository;
import io.gpumeter.ledger.governance.repository.PodSiblings;
import io.gpumeter.ledger.governance.repository.PodStatusVersions;
import io.gpumeter.ledger.governance.repository.QueueBookRepository;
import io.gpumeter.ledger.repository.Chunks;
import io.gpumeter.ledger.repository.VersionsInHand;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.SqlConnection;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Re-derives the queue and failure books of the objects a batch touched, each from every fact the ledger holds
 * about it, and replaces their rows. An object whose facts cannot be derived is logged, counted and left out; it
 * never fails the batch.
 */
@ApplicationScoped
public class GovernanceDeriver {

    private final GovernanceSourceRepository source;
    private final QueueBookRepository queues;
    private final IncidentRepository incidents;
    private final IncidentBooks incidentBooks;
    private final SkippedBooks skipped;

    public GovernanceDeriver(GovernanceSourceRepository source, QueueBookRepository queues, IncidentRepository incidents,
                             IncidentBooks incidentBooks, SkippedBooks skipped) {
        this.skipped = skipped;
        this.source = source;
        this.queues = queues;
        this.incidents = incidents;
        this.incidentBooks = incidentBooks;
    }

    Uni<Void> derive(SqlConnection conn, String cluster, Touched t) {
        return source.uidsByName(conn, cluster, "gov_workload_fact", t.workloadNames).invoke(t.workloads::addAll)
                .chain(() -> source.uidsByName(conn, cluster, "gov_pod_group_fact", t.podGroupNames)).invoke(t.podGroups::addAll)
                .chain(() -> source.uidsByName(conn, cluster, PodStatusVersions.RELATION, t.podNames)).invoke(t.pods::addAll)
                .chain(() -> PodSiblings.withSiblings(conn, cluster, t.pods, t.podsInHand))
                .chain(podSlices -> workloads(conn, cluster, t.workloads)
                        .chain(() -> podGroups(conn, cluster, t.podGroups))
                        .chain(() -> Chunks.overlapped(podSlices, slice -> pods(conn, cluster, new LinkedHashSet<>(slice), t.podsInHand)))
                        .map(GovernanceDeriver::union)
                        .chain(podNodes -> incidentBooks.nodesWithOomEvents(conn, cluster, podNodes))
                        .chain(linkable -> {
                            Set<String> nodes = new LinkedHashSet<>(t.oomNodes);
                            nodes.addAll(linkable);
                            return incidentBooks.deriveNodeOoms(conn, cluster, nodes);
                        })
                        .chain(() -> cards(conn, cluster, t.cards))
                        .chain(() -> incidentBooks.deriveGaugedAt(conn, cluster, t.cards, t.cardUuids)));
    }

    private Uni<Void> workloads(SqlConnection conn, String cluster, Set<String> uids) {
        if (uids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.workloads(conn, cluster, uids).chain(versions -> {
            Map<String, List<WorkloadFact>> byUid = versions.stream().collect(Collectors.groupingBy(WorkloadFact::uid));
            return source.eventsAbout(conn, cluster, "Workload", uids, names(versions, w -> w.namespace() + "/" + w.name()))
                    .chain(events -> {
                        Neighbourhood around = Neighbourhood.of(events);
                        List<WaitEpisode> episodes = new ArrayList<>();
                        List<QueueState> states = new ArrayList<>();
                        byUid.forEach((uid, vs) -> skipped.derive("workload", "workload " + uid, () -> {
                            WorkloadFact any = vs.get(0);
                            WorkloadTrail trail = new WorkloadTrail(vs, around.about(uid, any.namespace(), any.name()));
                            episodes.addAll(trail.episodes());
                            states.add(trail.state());
                        }));
                        return queues.replace(conn, cluster, QueueSource.KUEUE, uids, episodes, states);
                    });
        });
    }

    private Uni<Void> podGroups(SqlConnection conn, String cluster, Set<String> uids) {
        if (uids.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.podGroups(conn, cluster, uids).chain(versions -> {
            Map<String, List<PodGroupFact>> byUid = versions.stream().collect(Collectors.groupingBy(PodGroupFact::uid));
            return source.eventsAbout(conn, cluster, "PodGroup", uids, names(versions, g -> g.namespace() + "/" + g.name()))
                    .chain(events -> {
                        Neighbourhood around = Neighbourhood.of(events);
                        List<WaitEpisode> episodes = new ArrayList<>();
                        List<QueueState> states = new ArrayList<>();
                        byUid.forEach((uid, vs) -> skipped.derive("pod-group", "pod group " + uid, () -> {
                            PodGroupFact any = vs.get(0);
                            PodGroupTrail trail = new PodGroupTrail(vs, around.about(uid, any.namespace(), any.name()));
                            episodes.addAll(trail.episodes());
                            states.add(trail.state());
                        }));
                        return queues.replace(conn, cluster, QueueSource.VOLCANO, uids, episodes, states);
                    });
        });
    }

    /** Derives these pods' books; returns the nodes they ran on, whose OOM events they may account for. */
    private Uni<Set<String>> pods(SqlConnection conn, String cluster, Set<String> uids,
                                  VersionsInHand<PodStatusFact> inHand) {
        if (uids.isEmpty()) {
            return Uni.createFrom().item(Set.of());
        }
        return source.pods(conn, cluster, uids, inHand).chain(versions -> {
            Map<String, List<PodStatusFact>> byUid = versions.stream().collect(Collectors.groupingBy(PodStatusFact::uid));
            Set<String> podNames = names(versions, p -> p.namespace() + "/" + p.name());
            return source.eventsAbout(conn, cluster, "Pod", uids, podNames)
                    .chain(events -> source.logSignals(conn, cluster, podNames)
                            .chain(signals -> Chunks.offLoop(() -> podBooks(byUid, events, signals)))
                            .chain(books -> {
                                Set<String> nodes = versions.stream().map(PodStatusFact::nodeName).filter(Objects::nonNull)
                                        .collect(Collectors.toCollection(LinkedHashSet::new));
                                return queues.replace(conn, cluster, QueueSource.POD, uids, books.episodes(), books.states())
                                        .chain(() -> incidents.replace(conn, cluster, "pod", uids, books.incidents()))
                                        .replaceWith(nodes);
                            }));
        });
    }

    /** The queue and failure books of some pods, derived from their versions and what was said around them. */
    private record PodBooks(List<WaitEpisode> episodes, List<QueueState> states, List<Incident> incidents) {
    }

    private PodBooks podBooks(Map<String, List<PodStatusFact>> byUid, List<EventFact> events, List<LogSignalFact> signals) {
        Neighbourhood around = Neighbourhood.of(events, signals, byUid);
        PodBooks books = new PodBooks(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        byUid.forEach((uid, vs) -> skipped.derive("pod", "pod " + uid, () -> {
            PodStatusFact any = vs.get(0);
            List<EventFact> mine = around.about(uid, any.namespace(), any.name());
            PodTrail trail = new PodTrail(vs, mine);
            books.episodes().addAll(trail.episodes());
            books.states().add(trail.state());
            books.incidents().addAll(PodIncidents.derive(vs, mine, around.signals(any.namespace(), any.name()),
                    around.replacements(uid)));
        }));
        return books;
    }

    private Uni<Void> cards(SqlConnection conn, String cluster, Set<String> cards) {
        if (cards.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        return source.xids(conn, cluster, cards).chain(xids -> source.announcements(conn, cluster, cards).chain(addresses -> {
            List<Incident> found = new ArrayList<>();
            List<String> subjects = new ArrayList<>();
            for (String card : cards) {
                String[] parts = card.split("\\|", 2);
                subjects.add(parts[0] + "/" + parts[1]);
                List<XidFact> mine = xids.stream().filter(x -> x.node().equals(parts[0]) && x.pciBusId().equals(parts[1])).toList();
                List<GpuAddressFact> seen = addresses.stream()
                        .filter(a -> a.node().equals(parts[0]) && a.pciBusId().equals(parts[1])).toList();
                skipped.derive("card", "card " + card, () -> found.addAll(GpuIncidents.derive(parts[0], parts[1], mine, seen)));
            }
            return incidents.replace(conn, cluster, "gpu", subjects, found);
        }));
    }

    private static Set<String> union(List<Set<String>> sets) {
        Set<String> out = new LinkedHashSet<>();
        sets.forEach(out::addAll);
        return out;
    }

    private static <T> Set<String> names(List<T> versions, Function<T, String> name) {
        return versions.stream().map(name).collect(Collectors.toSet());
    }
}
