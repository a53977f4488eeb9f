package io.gpumeter.slo.service;

import io.gpumeter.common.domain.TimeWindow;
import io.gpumeter.slo.repository.JitterEventRepository;
import io.gpumeter.slo.repository.JitterEventRepository.StoredEvent;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What changed before jitter events: each event's scope is the nodes its service's pods (those its evidence names, with
 * requests during the event) held units on during the event, and those nodes' clusters; its look-back ends at the
 * event's start. A page of events is one read of their pods here and the two ledger reads of {@link ChangesBefore}.
 */
@ApplicationScoped
public class JitterChanges {

    private final JitterEventRepository events;
    private final ChangesBefore changes;

    public JitterChanges(JitterEventRepository events, ChangesBefore changes) {
        this.events = events;
        this.changes = changes;
    }

    /** The changes before each event of a page, by event id. */
    public Uni<Map<Long, ChangesBefore.Found>> of(List<StoredEvent> page) {
        if (page.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        return events.pods(page.stream().map(StoredEvent::id).toList()).chain(pods -> changes.of(page.stream()
                        .map(e -> subject(e, pods.getOrDefault(e.id(), Set.of()))).toList())
                .map(found -> {
                    Map<Long, ChangesBefore.Found> out = new HashMap<>();
                    page.forEach(e -> out.put(e.id(), found.get(String.valueOf(e.id()))));
                    return out;
                }));
    }

    /** The changes before one event whose evidence is read. */
    public Uni<ChangesBefore.Found> of(JitterService.Event event) {
        Set<String> pods = new TreeSet<>();
        if (event.evidence().pods() != null) {
            event.evidence().pods().forEach(p -> pods.add(p.namespace() + "/" + p.pod()));
        }
        StoredEvent e = event.event();
        return changes.of(List.of(subject(e, pods))).map(found -> found.get(String.valueOf(e.id())));
    }

    private static ChangesBefore.Subject subject(StoredEvent e, Set<String> pods) {
        return new ChangesBefore.Subject(String.valueOf(e.id()), pods, new TimeWindow(e.start(), e.end()), e.start());
    }
}
