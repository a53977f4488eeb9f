package io.gpumeter.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.gpumeter.console.JitterAnswers.Event;
import jakarta.enterprise.context.ApplicationScoped;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What changed on a jitter event's nodes: the changes of the nodes its service ran on, and their clusters'
 * cluster-wide ones, over the day before the event up to the end of its curves, in one bulk read; the nodes' cluster
 * from the service's occupants at the event's start (the event names nodes, not clusters).
 */
@ApplicationScoped
public class JitterChanges {

    /** How far before an event its nodes' changes are read, as the ledger's correlation looks back. */
    static final Duration LOOK_BACK = Duration.ofDays(1);
    /** The most changes read per node, newest first. */
    static final int CHANGES_READ = 100;

    private final Upstream upstream;
    private final ObjectMapper json;

    public JitterChanges(Upstream upstream, ObjectMapper json) {
        this.upstream = upstream;
        this.json = json;
    }

    /** The changes; empty when the event names no node; null when a read was refused (the page says why). */
    List<BookChange> of(Event e, Viewer viewer, Page page) {
        List<String> nodes = new ArrayList<>();
        for (JitterAnswers.Pod p : e.pods() == null ? List.<JitterAnswers.Pod>of() : e.pods()) {
            for (JitterAnswers.PodCard g : p.gpus() == null ? List.<JitterAnswers.PodCard>of() : p.gpus()) {
                if (g.node() != null && !nodes.contains(g.node())) {
                    nodes.add(g.node());
                }
            }
        }
        Instant start = e.startAt();
        if (nodes.isEmpty() || start == null) {
            return List.of();
        }
        Answer occupants = upstream.getJson(Backend.LEDGER, "/api/v1/fleet/occupants?at=" + Format.query(e.start())
                + (e.namespace() != null ? "&namespace=" + Format.query(e.namespace()) : "&node=" + Format.query(nodes.get(0))),
                viewer.token()).join();
        page.call(occupants.call());
        if (!occupants.ok()) {
            page.message(occupants.refusal());
            return null;
        }
        Map<String, String> clusterOf = new LinkedHashMap<>();
        for (Occupant o : occupants.listOf(json, Occupant.class)) {
            if (o.node() != null && o.cluster() != null && nodes.contains(o.node())) {
                clusterOf.putIfAbsent(o.node(), o.cluster());
            }
        }
        Instant end = Format.instant(e.curveTo() != null ? e.curveTo() : e.end() != null ? e.end() : e.start()).orElse(start)
                .plusSeconds(60);
        List<ChangeReads.Scope> scopes = new ArrayList<>();
        clusterOf.forEach((node, cluster) -> scopes.add(new ChangeReads.Scope(cluster, node, start.minus(LOOK_BACK), end,
                CHANGES_READ, true)));
        return ChangeReads.bulk(upstream, json, viewer, page, scopes);
    }
}
